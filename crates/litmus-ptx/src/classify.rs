//! The classification kernel: one thread per instance reads the instance's
//! outcome (stored registers, final memory), hashes it, and adds it to an
//! open-addressing histogram in GPU memory.
//!
//! Nearly every instance has one of a handful of outcomes, so counting
//! each in GPU memory would serialise the whole launch on a few counters
//! (measured on an H100: two same-address atomics per warp cost a quarter
//! of a launch of 2M instances). So the count is folded in two steps:
//! threads of a warp with the same outcome are counted by one leader
//! (`match.any.sync`), the leaders of a CTA fold into a small table in
//! shared memory, and after a barrier each entry of that table is added
//! to the histogram in GPU memory once per CTA.

use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;
use litmus_core::outcome::Observable;

use crate::common::{global_param, knob_word};
use crate::cta_table::CtaTable;
use crate::emit::Emitter;
use crate::histogram::{fold_into_table, GlobalFold, Table};
use crate::layout::{
    counter, gpu_memory_param, knob, knob_words_param, Layout, CLASSIFY_BLOCK, CLASSIFY_KERNEL,
    HOST_MEMORY, HOST_REGS,
};
use crate::role::global_addr;
use crate::Codegen;

pub(crate) fn classify_kernel(test: &Test, layout: &Layout, codegen: Codegen, out: &mut Emitter) {
    let params = Params::load(layout, out);
    if codegen.dependent_launch {
        out.ins(crate::DEPENDENT_WAIT);
    }
    let done = out.fresh_label("done");
    // Past the first barrier, a thread with nothing (more) to count jumps
    // here: every thread of the CTA must reach the second barrier.
    let folded = out.fresh_label("folded");
    let (gid, tid) = thread_index(out);
    let table = params.table.clone();
    let k = Classify::load(params, gid, out);
    let cta_table = CtaTable::declare(layout, out);
    cta_table.clear(&tid, out);
    out.ins("bar.sync 0");
    reset_grid_spin(&k, out);
    let p = out.pred();
    out.ins(format!("setp.ge.u32 {p}, {}, {}", k.gid, k.n));
    out.ins(format!("@{p} bra {folded}"));

    let values = read_and_reset(test, layout, &k, &folded, out);
    let h = outcome_hash(&values, out);
    let (cnt, cnt64) = warp_leader(&h, &folded, out);
    let table = Table {
        table: &table,
        mask: &k.table_mask,
        counters: &k.counters,
    };
    let counted = Counted {
        h: &h,
        values: &values,
        cnt: &cnt,
        cnt64: &cnt64,
    };
    fold_counts(
        layout,
        &cta_table,
        &table,
        &counted,
        [&tid, &folded, &done],
        out,
    );
    out.end_kernel(&classify_entry(layout));
}

/// The classification kernel's entry line: its parameters, the host and
/// other GPUs' buffers only where the test has them.
fn classify_entry(layout: &Layout) -> String {
    let mut host_param = if layout.host_slots.is_empty() {
        String::new()
    } else {
        format!(",\n\t.param .u64 {HOST_MEMORY}")
    };
    for g in layout.remote_homes() {
        host_param.push_str(&format!(",\n\t.param .u64 {}", gpu_memory_param(g)));
    }
    if layout.has_host_roles() {
        host_param.push_str(&format!(",\n\t.param .u64 {HOST_REGS}"));
    }
    format!(
        ".visible .entry {CLASSIFY_KERNEL}(\n\t.param .u64 p_mem,\n\t.param .u64 p_regs,\n\t.param .u64 p_shfinal,\n\t.param .u64 p_status,\n\t.param .u64 p_table,\n\t.param .u64 p_counters{host_param}{}\n) .maxntid {CLASSIFY_BLOCK}, 1, 1",
        knob_words_param(layout)
    )
}

/// The classification kernel's buffer parameters, as global addresses.
struct Params {
    mem: String,
    regs: String,
    shfinal: String,
    status: String,
    table: String,
    counters: String,
    /// The host buffer's base (empty without host locations).
    host: String,
    /// The other GPUs' location buffers, in [`Layout::remote_homes`] order.
    remote: Vec<String>,
    /// The host threads' registers (empty without host threads).
    host_regs: String,
}

impl Params {
    /// Loads the buffer parameters the test has.
    fn load(layout: &Layout, out: &mut Emitter) -> Params {
        let param = |out: &mut Emitter, name: &str| global_param(out, name).1;
        let mem = param(out, "p_mem");
        let regs = param(out, "p_regs");
        let shfinal = param(out, "p_shfinal");
        let status = param(out, "p_status");
        let table = param(out, "p_table");
        let counters = param(out, "p_counters");
        // Host locations are read and reset through the host buffer's device
        // address, like the device ones; only a test with some takes it.
        let host = if layout.host_slots.is_empty() {
            String::new()
        } else {
            param(out, HOST_MEMORY)
        };
        // Likewise the other GPUs' location buffers, reached by peer access
        // from GPU 0, where the classifier runs.
        let remote: Vec<String> = layout
            .remote_homes()
            .into_iter()
            .map(|g| param(out, &gpu_memory_param(g)))
            .collect();
        let host_regs = if layout.has_host_roles() {
            param(out, HOST_REGS)
        } else {
            String::new()
        };
        Params {
            mem,
            regs,
            shfinal,
            status,
            table,
            counters,
            host,
            remote,
            host_regs,
        }
    }
}

/// Computes the thread's instance (`gid`) and its index in its CTA.
fn thread_index(out: &mut Emitter) -> (String, String) {
    let (gid, ntid, cta, tid) = (out.r32(), out.r32(), out.r32(), out.r32());
    out.ins(format!("mov.u32 {ntid}, %ntid.x"));
    out.ins(format!("mov.u32 {cta}, %ctaid.x"));
    out.ins(format!("mov.u32 {tid}, %tid.x"));
    out.ins(format!("mad.lo.u32 {gid}, {cta}, {ntid}, {tid}"));
    (gid, tid)
}

/// The registers of the classification kernel that its steps share: the
/// buffers, the knobs they read, and the thread's instance.
struct Classify {
    n: String,
    n_mask: String,
    stride: String,
    table_mask: String,
    /// The spin barrier's polls (0: off).
    spin: String,
    /// Nonzero when the harness refills the locations before each launch.
    filled: String,
    mem: String,
    /// The host buffer's base (empty without host locations).
    host: String,
    /// The bases of the other GPUs' location buffers, in
    /// [`Layout::remote_homes`] order.
    remote: Vec<String>,
    regs: String,
    /// The host threads' registers (empty without host threads).
    host_regs: String,
    shfinal: String,
    status: String,
    counters: String,
    /// The instance this thread classifies.
    gid: String,
}

impl Classify {
    /// Loads the knobs the classifier reads, beside the buffers.
    fn load(p: Params, gid: String, out: &mut Emitter) -> Classify {
        Classify {
            n: knob_word(out, knob::N),
            n_mask: knob_word(out, knob::N_MASK),
            stride: knob_word(out, knob::STRIDE),
            table_mask: knob_word(out, knob::TABLE_MASK),
            spin: knob_word(out, knob::SPIN),
            filled: knob_word(out, knob::RESET_BY_FILL),
            mem: p.mem,
            host: p.host,
            remote: p.remote,
            regs: p.regs,
            host_regs: p.host_regs,
            shfinal: p.shfinal,
            status: p.status,
            counters: p.counters,
            gid,
        }
    }
}

/// Reads the instance's outcome and resets what its launch changed (the
/// locations' slots, its status and spin words) for the next launch; an
/// instance in which a role gave up on a loop is counted unfinished, and
/// its thread jumps to `folded`. Returns the outcome's words.
fn read_and_reset(
    test: &Test,
    layout: &Layout,
    k: &Classify,
    folded: &str,
    out: &mut Emitter,
) -> Vec<String> {
    let Classify { n, gid, .. } = k;
    let slots = slot_addrs(layout, k, out);
    let (sa, spin) = status_addrs(k, out);
    // Only a role with a loop can give up, and only the spin barrier
    // counts on the spin words: a test without either leaves them alone,
    // and not reading and resetting them saves a tenth of the traffic.
    let gives_up = may_give_up(test);
    let st = out.r32();
    if gives_up {
        // Read and reset at once, as the locations' slots (read_outcome).
        out.ins(format!("atom.global.exch.b32 {st}, [{sa}], 0"));
    }

    let inits: Vec<u32> = layout
        .global_locs
        .iter()
        .map(|l| test.locations[*l].init.value as u32)
        .collect();
    let at = Instance {
        gid,
        n,
        regs: &k.regs,
        host_regs: &k.host_regs,
        shfinal: &k.shfinal,
        slots: &slots,
        inits: &inits,
    };
    let (values, exchanged) = read_outcome(layout, &at, out);
    reset_slots(layout, k, &at, &exchanged, out);
    let spin_on = out.pred();
    out.ins(format!("setp.ne.u32 {spin_on}, {}, 0", k.spin));
    out.ins(format!("@{spin_on} st.global.u32 [{spin}], 0"));

    if gives_up {
        count_unfinished(k, &st, folded, out);
    }
    values
}

/// Computes the addresses of the instance's slots of the global locations:
/// read for the outcome, then reset to their initial values for the next
/// launch, which saves a memset per location per launch.
fn slot_addrs(layout: &Layout, k: &Classify, out: &mut Emitter) -> Vec<String> {
    let mut memory = vec![k.mem.as_str(), k.host.as_str()];
    memory.extend(k.remote.iter().map(String::as_str));
    (0..layout.global_locs.len())
        .map(|j| {
            global_addr(
                layout,
                &memory,
                [&k.n, &k.n_mask, &k.stride],
                j,
                &k.gid,
                out,
            )
        })
        .collect()
}

/// Resets the grid-wide spin barrier's word (status word `2·N`, see
/// [`knob::SPIN_GRID`]) for the next launch: one thread, when the barrier
/// is on.
fn reset_grid_spin(k: &Classify, out: &mut Emitter) {
    let target = knob_word(out, knob::SPIN_GRID);
    let (p, first) = (out.pred(), out.pred());
    out.ins(format!("setp.ne.u32 {p}, {target}, 0"));
    out.ins(format!("setp.eq.and.u32 {first}, {}, 0, {p}", k.gid));
    let a = out.r64();
    out.ins(format!("mul.wide.u32 {a}, {}, 8", k.n));
    out.ins(format!("add.u64 {a}, {a}, {}", k.status));
    out.ins(format!("@{first} st.global.u32 [{a}], 0"));
}

/// Computes the addresses of the instance's status word and spin word.
fn status_addrs(k: &Classify, out: &mut Emitter) -> (String, String) {
    let Classify { n, gid, status, .. } = k;
    let sa = out.r64();
    let spin = out.r64();
    out.ins(format!("mul.wide.u32 {sa}, {gid}, 4"));
    out.ins(format!("add.u64 {sa}, {sa}, {status}"));
    out.ins(format!("mul.wide.u32 {spin}, {n}, 4"));
    out.ins(format!("add.u64 {spin}, {spin}, {sa}"));
    (sa, spin)
}

/// Stores the initial values back into the slots the outcome's exchanges
/// did not reset.
fn reset_slots(
    layout: &Layout,
    k: &Classify,
    at: &Instance,
    exchanged: &[bool],
    out: &mut Emitter,
) {
    // Slots the harness refills (`Layout::refillable`) need no store here
    // when it does: at small strides one fill of the whole buffer costs
    // less than a scattered store per instance (see `harness.rs`).
    let refilled = out.pred();
    out.ins(format!("setp.ne.u32 {refilled}, {}, 0", k.filled));
    for (j, slot) in at.slots.iter().enumerate() {
        if exchanged[j] {
            continue;
        }
        let guard = if layout.refillable(j) {
            format!("@!{refilled} ")
        } else {
            String::new()
        };
        out.ins(format!("{guard}st.global.u32 [{slot}], {}", at.inits[j]));
    }
}

/// Counts the instance unfinished, and skips its outcome, when one of its
/// roles gave up on a loop (its status word `st` is set).
fn count_unfinished(k: &Classify, st: &str, folded: &str, out: &mut Emitter) {
    // An instance in which a role gave up on a loop has no outcome.
    let finished = out.fresh_label("finished");
    let pf = out.pred();
    out.ins(format!("setp.eq.u32 {pf}, {st}, 0"));
    out.ins(format!("@{pf} bra {finished}"));
    out.ins(format!(
        "red.global.add.u64 [{}+{}], 1",
        k.counters,
        counter::UNFINISHED * 8
    ));
    out.ins(format!("bra.uni {folded}"));
    out.label(&finished);
}

/// An outcome a warp's leader counts: its hash, its words, and how many
/// of the warp's instances had it (32- and 64-bit).
struct Counted<'a> {
    h: &'a str,
    values: &'a [String],
    cnt: &'a str,
    cnt64: &'a str,
}

/// The leader's count goes into the CTA's table; after the barrier each
/// used entry of it goes into the histogram in GPU memory. One copy of the
/// fold into GPU memory serves both the leaders that find the CTA's table
/// full (before the barrier; they return to it) and the flush of the
/// table's entries (after it): the JIT of every test pays for the code
/// once. `labels`: the thread's index in its CTA, the barrier's label, and
/// the kernel's end.
fn fold_counts(
    layout: &Layout,
    cta_table: &CtaTable,
    table: &Table,
    c: &Counted,
    [tid, folded, done]: [&str; 3],
    out: &mut Emitter,
) {
    let full = out.fresh_label("cta_table_full");
    let global_fold = out.fresh_label("global_fold");
    let after_fold = out.fresh_label("after_fold");
    let fold = GlobalFold {
        h: out.r64(),
        values: (0..c.values.len()).map(|_| out.r32()).collect(),
        cnt64: out.r64(),
        before_barrier: out.r32(),
    };
    cta_table.fold(c.h, c.values, c.cnt, &full, folded, out);
    out.label(&full);
    out.ins(format!("mov.b64 {}, {}", fold.h, c.h));
    for (f, v) in fold.values.iter().zip(c.values) {
        out.ins(format!("mov.b32 {f}, {v}"));
    }
    out.ins(format!("mov.b64 {}, {}", fold.cnt64, c.cnt64));
    out.ins(format!("mov.u32 {}, 1", fold.before_barrier));
    out.ins(format!("bra.uni {global_fold}"));
    out.label(folded);
    out.ins("bar.sync 0");
    out.ins(format!("mov.u32 {}, 0", fold.before_barrier));
    cta_table.entry(tid, &fold, done, out);
    out.label(&global_fold);
    fold_into_table(
        layout,
        table,
        &fold.h,
        &fold.values,
        &fold.cnt64,
        &after_fold,
        out,
    );
    out.label(&after_fold);
    let back = out.pred();
    out.ins(format!("setp.ne.u32 {back}, {}, 0", fold.before_barrier));
    out.ins(format!("@{back} bra {folded}"));
    out.label(done);
}

/// Whether a role of the test can give up on a loop (a backward branch),
/// leaving its instance unfinished.
fn may_give_up(test: &Test) -> bool {
    test.threads.iter().any(|t| {
        t.body.iter().enumerate().any(|(i, ins)| match &ins.kind {
            InstrKind::Branch { target, .. } => t.body[..=i]
                .iter()
                .any(|l| matches!(&l.kind, InstrKind::Label(n) if n.text == target.text)),
            _ => false,
        })
    })
}

/// Where one instance's results are: its index, the instances per
/// launch, the registers and shared-final buffers, its location slots and
/// their initial values.
struct Instance<'a> {
    gid: &'a str,
    n: &'a str,
    regs: &'a str,
    host_regs: &'a str,
    shfinal: &'a str,
    slots: &'a [String],
    inits: &'a [u32],
}

/// The outcome, one word per observable, in the registers returned, and
/// which location slots reading it has already reset (those in GPU 0's
/// memory).
///
/// A global location's final value is read and reset in one exchange: a
/// load and then a store to the same word made each warp's store wait for
/// its scattered load (on an H100, 2+2W's classification took 107 µs a
/// launch of 2M instances with them and 43 µs with the exchange).
fn read_outcome(layout: &Layout, at: &Instance, out: &mut Emitter) -> (Vec<String>, Vec<bool>) {
    let mut values = Vec::new();
    // The register each slot's exchange read into: an alias and its root
    // are one slot, and the second must not read the reset value.
    let mut exchanged: Vec<Option<String>> = vec![None; at.slots.len()];
    for o in &layout.observables {
        let global = match o {
            Observable::Loc { loc } => layout.slot_of.get(*loc).copied().flatten(),
            Observable::Reg { .. } => None,
        };
        if let Some(j) = global {
            let v = match &exchanged[j] {
                Some(v) => v.clone(),
                None => {
                    let v = read_slot(layout, at, j, out);
                    exchanged[j] = Some(v.clone());
                    v
                }
            };
            values.push(v);
            continue;
        }
        let v = out.r32();
        let a = stored_word_addr(layout, at, o, out);
        out.ins(format!("ld.global.u32 {v}, [{a}]"));
        values.push(v);
    }
    let exchanged = (0..at.slots.len())
        .map(|j| exchanged[j].is_some() && !layout.in_host_memory(j) && !layout.in_remote_memory(j))
        .collect();
    (values, exchanged)
}

/// Reads global slot `j`'s final value, resetting it at once where an
/// exchange can.
fn read_slot(layout: &Layout, at: &Instance, j: usize, out: &mut Emitter) -> String {
    let v = out.r32();
    if layout.in_host_memory(j) || layout.in_remote_memory(j) {
        // Over the bus (to the host, or to a peer GPU
        // without native peer atomics) an atomic need not
        // be one, and the slot is not hot: a load, reset
        // by a store below.
        out.ins(format!("ld.global.u32 {v}, [{}]", at.slots[j]));
    } else {
        out.ins(format!(
            "atom.global.exch.b32 {v}, [{}], {}",
            at.slots[j], at.inits[j]
        ));
    }
    v
}

/// Computes the address of the word that holds an observable the roles
/// stored for the classifier: a register, or a shared location's final
/// value.
fn stored_word_addr(layout: &Layout, at: &Instance, o: &Observable, out: &mut Emitter) -> String {
    let Instance {
        gid,
        n,
        regs,
        host_regs,
        shfinal,
        ..
    } = at;
    match o {
        Observable::Reg { thread, reg } => {
            let idx = layout
                .stored_regs
                .iter()
                .position(|(t, r)| t == thread && r == reg)
                .unwrap_or(0);
            let slot = out.r32();
            let a = out.r64();
            out.ins(format!(
                "mad.lo.u32 {slot}, {gid}, {}, {idx}",
                layout.stored_regs.len()
            ));
            out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
            // A host thread's register is in the host's buffer.
            let base = match layout.roles.get(*thread) {
                Some(role) if role.host => host_regs,
                _ => regs,
            };
            out.ins(format!("add.u64 {a}, {a}, {base}"));
            a
        }
        // A location in shared memory: its final value was copied out.
        Observable::Loc { loc } => {
            let s = layout
                .shared_locs
                .iter()
                .position(|s| s.loc == *loc)
                .unwrap_or(0);
            let slot = out.r32();
            let a = out.r64();
            out.ins(format!("mad.lo.u32 {slot}, {n}, {s}, {gid}"));
            out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
            out.ins(format!("add.u64 {a}, {a}, {shfinal}"));
            a
        }
    }
}

/// The outcome's FNV-1a hash, never 0 (key 0 marks a free entry).
fn outcome_hash(values: &[String], out: &mut Emitter) -> String {
    let h = out.r64();
    let w = out.r64();
    out.ins(format!("mov.u64 {h}, 0xcbf29ce484222325"));
    for v in values {
        out.ins(format!("cvt.u64.u32 {w}, {v}"));
        out.ins(format!("xor.b64 {h}, {h}, {w}"));
        out.ins(format!("mul.lo.u64 {h}, {h}, 0x100000001b3"));
    }
    out.ins(format!("or.b64 {h}, {h}, 1"));
    h
}

/// One leader per distinct outcome in the warp goes on (the others jump to
/// `done`); returns the registers counting the leader's peers, 32- and
/// 64-bit.
fn warp_leader(h: &str, done: &str, out: &mut Emitter) -> (String, String) {
    let (mask, peers, lt, low) = (out.r32(), out.r32(), out.r32(), out.r32());
    out.ins(format!("activemask.b32 {mask}"));
    out.ins(format!("match.any.sync.b64 {peers}, {h}, {mask}"));
    out.ins(format!("mov.u32 {lt}, %lanemask_lt"));
    out.ins(format!("and.b32 {low}, {peers}, {lt}"));
    let pl = out.pred();
    out.ins(format!("setp.ne.u32 {pl}, {low}, 0"));
    out.ins(format!("@{pl} bra {done}"));
    let cnt = out.r32();
    let cnt64 = out.r64();
    out.ins(format!("popc.b32 {cnt}, {peers}"));
    out.ins(format!("cvt.u64.u32 {cnt64}, {cnt}"));
    (cnt, cnt64)
}
