//! A role's set-up in the test kernel: which instance this thread plays
//! it for, how it reaches its locations, its registers and labels.

use std::collections::BTreeMap;

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Space, Test, Thread};

use crate::common::{knob_word, Common};
use crate::emit::Emitter;
use crate::layout::{instr_locs, knob, Layout, Mode, Reach, PLACEMENT_WORDS};
use crate::role_ctx::RoleCtx;
use crate::PtxError;

/// One role as this thread plays it: the instance, and what its
/// instructions refer to.
pub(super) struct RolePlan {
    pub(super) inst: String,
    pub(super) ctx: RoleCtx,
    pub(super) end: String,
}

/// Computes which instance this thread plays role `k` of, the addresses of
/// the role's locations and its registers' initial values.
pub(super) fn setup_role(
    test: &Test,
    layout: &Layout,
    c: &Common,
    k: usize,
    out: &mut Emitter,
) -> Result<RolePlan, PtxError> {
    let thread = &test.threads[k];
    out.comment(format!("set-up of role {k}: thread {}", thread.name));
    let inst = role_instance(layout, c, k, out);
    let (addrs, local, textures) = role_locations(test, layout, c, k, &inst, out)?;
    let regs = role_registers(thread, k, out);
    let labels = role_labels(thread, k);
    let iters = out.r32();
    out.ins(format!("mov.u32 {iters}, 0"));
    let giveup = out.fresh_label(&format!("giveup{k}"));
    let end = out.fresh_label(&format!("end{k}"));
    record_placement(layout, c, k, &inst, out);
    let ctx = RoleCtx {
        regs,
        addrs,
        local,
        textures,
        labels,
        iters,
        loop_bound: c.knob[&knob::LOOP_BOUND].clone(),
        giveup,
        barriers: role_barriers(layout, k),
        addressing: c.codegen.addressing,
    };
    Ok(RolePlan { inst, ctx, end })
}

/// Computes which instance this thread plays role `k` of.
fn role_instance(layout: &Layout, c: &Common, k: usize, out: &mut Emitter) -> String {
    let role = &layout.roles[k];
    let mult = c.load_word(out, knob::ROLE_BASE + 2 * k);
    let add = c.load_word(out, knob::ROLE_BASE + 2 * k + 1);
    let lane = out.r32();
    out.ins(format!("mad.lo.u32 {lane}, {}, {mult}, {add}", c.tid));
    match role.warp {
        None => out.ins(format!(
            "and.b32 {lane}, {lane}, {}",
            c.knob[&knob::LANE_MASK]
        )),
        Some(w) => {
            // Keep declared warps: the warp index moves by the declared
            // warp, the lane within the warp is permuted.
            let warp = out.r32();
            out.ins(format!("and.b32 {lane}, {lane}, 31"));
            out.ins(format!("shr.u32 {warp}, {}, 5", c.tid));
            out.ins(format!("add.u32 {warp}, {warp}, {w}"));
            out.ins(format!(
                "and.b32 {warp}, {warp}, {}",
                c.knob[&knob::WARP_MASK]
            ));
            out.ins(format!("shl.b32 {warp}, {warp}, 5"));
            out.ins(format!("or.b32 {lane}, {lane}, {warp}"));
        }
    }
    let inst = out.r32();
    let offset = home_offset(layout, role.cluster_offset);
    if c.codegen.spread_by_lane && offset != 0 {
        // `offset` units on from this thread's, `2·lane + 1` times (see
        // [`crate::Codegen::spread_by_lane`]).
        let s = out.r32();
        out.ins(format!("shl.b32 {s}, {lane}, 1"));
        out.ins(format!("or.b32 {s}, {s}, 1"));
        out.ins(format!("mad.lo.u32 {inst}, {s}, {offset}, {}", c.unit));
    } else {
        out.ins(format!("add.u32 {inst}, {}, {offset}", c.unit));
    }
    out.ins(format!(
        "and.b32 {inst}, {inst}, {}",
        c.knob[&knob::CTA_MASK]
    ));
    out.ins(format!("shl.b32 {inst}, {inst}, {}", c.knob[&knob::LOG_T]));
    out.ins(format!("or.b32 {inst}, {inst}, {lane}"));
    rename_on_gpu(layout, c, &inst, out);
    inst
}

/// In a test on several GPUs: this GPU's renaming of the instances its
/// threads play ([`knob::GPU_PARTNER_MUL`]), one bijection for all the
/// GPU's roles, so that its roles declared in one CTA stay together and
/// those in different CTAs apart, while an instance's roles on other GPUs
/// sit anywhere in their launches.
fn rename_on_gpu(layout: &Layout, c: &Common, inst: &str, out: &mut Emitter) {
    if !layout.multi_gpu() {
        return;
    }
    let m = c.load_word(out, knob::GPU_PARTNER_MUL);
    let a = c.load_word(out, knob::GPU_PARTNER_ADD);
    out.ins(format!("mad.lo.u32 {inst}, {inst}, {m}, {a}"));
    out.ins(format!("and.b32 {inst}, {inst}, {}", c.knob[&knob::N_MASK]));
}

/// Location name → space and address; shared location name → its
/// address in this CTA's own window, where the role's CTA holds it; and
/// texture alias name → texture and texel (see [`RoleCtx`]).
type RoleLocations = (
    BTreeMap<String, (Space, String)>,
    BTreeMap<String, String>,
    BTreeMap<String, (String, String)>,
);

/// Computes the addresses (or texels) of the locations role `k` touches.
fn role_locations(
    test: &Test,
    layout: &Layout,
    c: &Common,
    k: usize,
    inst: &str,
    out: &mut Emitter,
) -> Result<RoleLocations, PtxError> {
    let mut addrs = BTreeMap::new();
    let mut local = BTreeMap::new();
    let mut textures = BTreeMap::new();
    let thread: &Thread = &test.threads[k];
    for loc in thread.body.iter().flat_map(|ins| instr_locs(&ins.kind)) {
        if addrs.contains_key(&loc.text) || textures.contains_key(&loc.text) {
            continue;
        }
        let idx = test
            .locations
            .iter()
            .position(|l| l.name.text == loc.text)
            .ok_or_else(|| PtxError::Invalid(format!("unknown location `{loc}`")))?;
        match reach_location(layout, c, idx, inst, out) {
            Reached::Addr(addr) => {
                addrs.insert(loc.text.clone(), addr);
            }
            Reached::Shared { addr, own, home } => {
                // Only the CTA that holds the location has it in its own
                // window (a cluster-shared location lives in one CTA).
                if home == layout.roles[k].rank || addr.0 == Space::Shared {
                    local.insert(loc.text.clone(), own);
                }
                addrs.insert(loc.text.clone(), addr);
            }
            Reached::Texel(texel) => {
                textures.insert(loc.text.clone(), texel);
            }
        }
    }
    Ok((addrs, local, textures))
}

/// How a role reaches one location.
enum Reached {
    /// Its space and address register.
    Addr((Space, String)),
    /// A shared location: its space and address register (in the
    /// cluster's window for cluster-shared memory), the address of the
    /// instance's slot in this CTA's own window, and the rank of the CTA
    /// that holds it.
    Shared {
        addr: (Space, String),
        own: String,
        home: u32,
    },
    /// Its texture object and texel register.
    Texel((String, String)),
}

/// Computes how instance `inst` reaches location `idx`: through an alias,
/// its global slot or its shared slot.
fn reach_location(
    layout: &Layout,
    c: &Common,
    idx: usize,
    inst: &str,
    out: &mut Emitter,
) -> Reached {
    let knobs = [
        c.knob[&knob::N].as_str(),
        &c.knob[&knob::N_MASK],
        &c.knob[&knob::STRIDE],
    ];
    if let Some(alias) = layout.aliases.iter().find(|a| a.loc == idx) {
        match alias.reach {
            Reach::View(v) => {
                let a = global_addr(layout, &c.memory(), knobs, alias.slot, inst, out);
                if v > 0 {
                    out.ins(format!("add.u64 {a}, {a}, {}", c.views[v - 1]));
                }
                Reached::Addr((Space::Global, a))
            }
            Reach::Texture(t) => {
                // The texture spans the whole buffer: the slot's word
                // index is its texel.
                let slot = global_slot(layout, knobs, alias.slot, inst, out);
                let texel = out.r32();
                out.ins(format!("mul.lo.u32 {texel}, {slot}, {}", knobs[2]));
                Reached::Texel((c.textures[t].clone(), texel))
            }
        }
    } else if let Some(j) = layout.global_locs.iter().position(|g| *g == idx) {
        Reached::Addr((
            Space::Global,
            global_addr(layout, &c.memory(), knobs, j, inst, out),
        ))
    } else {
        shared_addr(layout, c, idx, inst, out)
    }
}

/// Computes the address of instance `inst`'s slot of shared location
/// `idx`, in this CTA or in the cluster's CTA that holds it.
fn shared_addr(layout: &Layout, c: &Common, idx: usize, inst: &str, out: &mut Emitter) -> Reached {
    let s = layout
        .shared_locs
        .iter()
        .position(|s| s.loc == idx)
        .unwrap_or(0);
    // Every role of an instance in this CTA uses the instance's
    // lane as its slot.
    let lane = out.r32();
    out.ins(format!(
        "and.b32 {lane}, {inst}, {}",
        c.knob[&knob::LANE_MASK]
    ));
    let a = slot_addr(layout, c, s, &lane, out);
    let home = layout.shared_locs[s].rank;
    let addr = if layout.shared_locs[s].space == Space::SharedCluster {
        // The slot in the cluster's CTA that holds the location for the
        // whole cluster (every CTA lays its shared memory out alike).
        let remote = out.r32();
        out.ins(format!("mapa.shared::cluster.u32 {remote}, {a}, {home}"));
        (Space::SharedCluster, remote)
    } else {
        (Space::Shared, a.clone())
    };
    Reached::Shared { addr, own: a, home }
}

/// Declares the role's registers and sets their initial values.
fn role_registers(thread: &Thread, k: usize, out: &mut Emitter) -> BTreeMap<String, String> {
    let mut regs = BTreeMap::new();
    let mut reg_names: Vec<&str> = thread.init.iter().map(|i| i.reg.text.as_str()).collect();
    for ins in &thread.body {
        reg_names.extend(ins.kind.dst().map(|d| d.text.as_str()));
        reg_names.extend(ins.kind.srcs().iter().map(|s| s.text.as_str()));
    }
    for name in reg_names {
        if regs.contains_key(name) {
            continue;
        }
        let ptx = format!("%t{k}r{}", regs.len());
        out.declare(format!(".reg .b32 {ptx}"));
        let init = thread
            .init
            .iter()
            .find(|i| i.reg.text == name)
            .map_or(0, |i| i.value.value as u32);
        out.comment(format!("{ptx} is register {name}"));
        out.ins(format!("mov.u32 {ptx}, {init}"));
        regs.insert(name.to_string(), ptx);
    }
    regs
}

/// Names the PTX label of each of the role's labels.
fn role_labels(thread: &Thread, k: usize) -> BTreeMap<String, (usize, String)> {
    thread
        .body
        .iter()
        .enumerate()
        .filter_map(|(i, ins)| match &ins.kind {
            InstrKind::Label(l) => Some((l.text.clone(), (i, format!("$t{k}_{i}")))),
            _ => None,
        })
        .collect()
}

/// Picks role `k`'s CTA barriers out of the layout's plan.
fn role_barriers(layout: &Layout, k: usize) -> BTreeMap<usize, (u32, u32)> {
    match &layout.mode {
        Mode::RolePerWarp { barriers, .. } => barriers
            .iter()
            .filter(|((role, _), _)| *role == k)
            .map(|((_, i), b)| (*i, *b))
            .collect(),
        Mode::EveryRole => BTreeMap::new(),
    }
}

/// The address of instance `inst`'s slot of global location slot `j`:
/// `mem + (j·N + perm_j(inst))·stride·4`, given the registers holding the
/// knobs N, N - 1 and the stride; `mem` is `memory[layout.memory_of(j)]`:
/// logical GPU 0's buffer, the host buffer or another GPU's (all laid out
/// the same).
pub(crate) fn global_addr(
    layout: &Layout,
    memory: &[&str],
    [n, n_mask, stride]: [&str; 3],
    j: usize,
    inst: &str,
    out: &mut Emitter,
) -> String {
    let slot = global_slot(layout, [n, n_mask, stride], j, inst, out);
    // `memory` holds every base `memory_of` can name (see `Common::memory`).
    let mem = memory
        .get(layout.memory_of(j))
        .or(memory.first())
        .copied()
        .unwrap_or_default();
    let a = out.r64();
    out.ins(format!("mul.wide.u32 {a}, {slot}, {stride}"));
    out.ins(format!("shl.b64 {a}, {a}, 2"));
    out.ins(format!("add.u64 {a}, {a}, {mem}"));
    a
}

/// The index of instance `inst`'s slot of global location slot `j` among
/// all slots of the buffer: `perm_j(inst)` times the knob word
/// [`knob::SLOT_SCALE`], plus `j` times [`knob::LOC_SPAN`]. That is
/// `j·N + perm_j(inst)` when each location has a region of its own, and
/// `perm_j(inst)·L + j` when the slots of the `L` locations alternate, as
/// the published harnesses lay them out. Times the stride it is the slot's
/// word.
fn global_slot(
    layout: &Layout,
    [_, n_mask, _]: [&str; 3],
    j: usize,
    inst: &str,
    out: &mut Emitter,
) -> String {
    let slot = out.r32();
    let scale = knob_word(out, knob::SLOT_SCALE);
    let span = knob_word(out, knob::LOC_SPAN);
    let lm = knob_word(out, layout.loc_knob(j));
    let la = knob_word(out, layout.loc_knob(j) + 1);
    out.ins(format!("mad.lo.u32 {slot}, {inst}, {lm}, {la}"));
    out.ins(format!("and.b32 {slot}, {slot}, {n_mask}"));
    out.ins(format!("mul.lo.u32 {slot}, {slot}, {scale}"));
    out.ins(format!("mad.lo.u32 {slot}, {span}, {j}, {slot}"));
    slot
}

/// In placement-check mode (`p_place` not null), records where this role of
/// this instance ran.
fn record_placement(layout: &Layout, c: &Common, k: usize, inst: &str, out: &mut Emitter) {
    let skip = out.fresh_label("noplace");
    let p = out.pred();
    out.ins(format!("setp.eq.u64 {p}, {}, 0", c.place_raw));
    out.ins(format!("@{p} bra {skip}"));
    let idx = out.r32();
    let a = out.r64();
    let warp = out.r32();
    let sm = out.r32();
    out.ins(format!(
        "mad.lo.u32 {idx}, {inst}, {}, {k}",
        layout.roles.len()
    ));
    out.ins(format!("mul.wide.u32 {a}, {idx}, {}", PLACEMENT_WORDS * 4));
    out.ins(format!("add.u64 {a}, {a}, {}", c.place));
    // On several GPUs the third word is the logical GPU, which the
    // placement check reads; `%warpid` is only informative (it changes as
    // warps migrate), and one GPU keeps it.
    match &c.gpu {
        Some(gpu) => out.ins(format!("mov.u32 {warp}, {gpu}")),
        None => out.ins(format!("mov.u32 {warp}, %warpid")),
    }
    out.ins(format!("mov.u32 {sm}, %smid"));
    out.ins(format!(
        "st.global.v4.u32 [{a}], {{{}, {}, {warp}, {sm}}}",
        c.cta, c.tid
    ));
    out.label(&skip);
}

/// What a role's cluster offset adds to the CTA's unit to find its
/// instances' home: the offset itself when every thread plays every role,
/// nothing in role-per-warp mode, where CTAs are per declared CTA already.
pub(super) fn home_offset(layout: &Layout, cluster_offset: u32) -> u32 {
    match layout.mode {
        Mode::EveryRole => cluster_offset,
        Mode::RolePerWarp { .. } => 0,
    }
}

/// The shared address of slot `lane` of shared location `s`:
/// `smem + T·offset + lane·bytes`, T the slots per location, `offset`
/// the bytes of a slot of every location before it
/// ([`Layout::shared_offset`]), `bytes` its own slot's. Where every slot
/// so far is a word that is `smem + (s·T + lane)·4`, computed as it was
/// before slots had widths, so that those tests' modules stay as every
/// GPU run has checked them.
pub(super) fn slot_addr(
    layout: &Layout,
    c: &Common,
    s: usize,
    lane: &str,
    out: &mut Emitter,
) -> String {
    let t = out.r32();
    let idx = out.r32();
    let addr = out.r32();
    let (offset, bytes) = (layout.shared_offset(s), layout.shared_locs[s].bytes);
    let slots = format!("add.u32 {t}, {}, 1", c.knob[&knob::LANE_MASK]);
    if bytes == 4 && offset == 4 * s as u32 {
        out.ins(slots);
        out.ins(format!("mad.lo.u32 {idx}, {t}, {s}, {lane}"));
        out.ins(format!("shl.b32 {addr}, {idx}, 2"));
    } else if offset == 0 {
        // The first region: no slots of another location before it.
        out.ins(format!("mul.lo.u32 {addr}, {lane}, {bytes}"));
    } else {
        out.ins(slots);
        out.ins(format!("mul.lo.u32 {idx}, {lane}, {bytes}"));
        out.ins(format!("mad.lo.u32 {addr}, {t}, {offset}, {idx}"));
    }
    out.ins(format!("add.u32 {addr}, {addr}, {}", c.smem));
    addr
}
