//! The test kernel: every GPU thread plays every role of the test, each for
//! a different instance (see the module doc of [`super`]); each role's
//! set-up is in `role.rs`.

use litmus_core::ir::{Space, Test};
use litmus_text as text;

use crate::async_ops;
use crate::common::{Common, Start};
use crate::emit::Emitter;
use crate::environment;
use crate::instr::emit_instr;
use crate::layout::{
    gpu_memory_param, knob, knob_words_param, relay_param, Layout, Mode, HARNESS_BARRIER,
    HOST_MEMORY, HOST_START, LOGICAL_GPU, START_TARGET, TEST_KERNEL,
};
use crate::role::{home_offset, setup_role, RolePlan};
use crate::shared_slots::{shared_slots, skip_unless_holder};
use crate::start::{gpu_start_delay, gpu_start_wait, wait_for_host};
use crate::{Codegen, PtxError};

pub(crate) fn test_kernel(
    test: &Test,
    layout: &Layout,
    codegen: Codegen,
    out: &mut Emitter,
) -> Result<(), PtxError> {
    let Start {
        mut common,
        shfinal,
        scratch,
    } = Common::load(layout, out);
    common.codegen = codegen;
    if codegen.dependent_launch {
        out.ins(crate::DEPENDENT_WAIT);
    }

    // CTAs past the test's own run the optional memory stress.
    let stress = out.fresh_label("stress");
    let done = out.fresh_label("done");
    let p = out.pred();
    out.ins(format!(
        "setp.gt.u32 {p}, {}, {}",
        common.unit,
        common.knob[&knob::CTA_MASK]
    ));
    out.ins(format!("@{p} bra {stress}"));
    environment::shuffle_units(out, &common);
    common.spin = environment::spin_this_launch(out, &common);
    environment::pre_stress(out, &common, &scratch);

    shared_slots(layout, &common, out, |out, addr, s| {
        match layout.shared_locs[s].mbarrier {
            // The model initialises every mbarrier before the threads
            // start: each instance's, here, before the barrier below.
            Some(count) => out.ins(format!("mbarrier.init.shared::cta.b64 [{addr}], {count}")),
            None => {
                let init = test.locations[layout.shared_locs[s].loc].init.value as u32;
                out.ins(format!("st.shared.u32 [{addr}], {init}"));
            }
        }
    });
    async_ops::initial_values_to_async_proxy(layout, out);
    sync_shared(layout, out);
    if every_role(layout, &common) && common.go.is_some() {
        // The roles' set-ups (knob loads, address arithmetic) before the
        // start: on a GPU whose knobs or locations sit across the link they
        // take microseconds, which would otherwise put its roles behind
        // the other GPUs' or the host's.
        let plans = setup_every_role(test, layout, &common, out)?;
        let delay = gpu_start_delay(layout, &common, out);
        wait_for_host(layout, &common, out);
        common.spin = grid_spin_barrier(layout, &common, out);
        gpu_start_wait(delay.as_deref(), out);
        run_every_role(test, layout, &common, &plans, out)?;
    } else {
        wait_for_host(layout, &common, out);
        common.spin = grid_spin_barrier(layout, &common, out);
        play_roles(test, layout, &common, out)?;
    }
    async_ops::drain(layout, &common, out);
    publish_shared(layout, &common, &shfinal, out);
    out.ins(format!("bra.uni {done}"));

    // CTAs past the test's own stress memory.
    out.label(&stress);
    environment::memory_stress(out, &common, &scratch, &done);
    out.label(&done);

    out.end_kernel(&kernel_entry(layout));
    Ok(())
}

/// The test kernel's entry line: its parameters, those only some tests
/// take included, and its cluster shape.
fn kernel_entry(layout: &Layout) -> String {
    // Clusters are fixed in the kernel, so a plain launch makes them.
    let cluster = if layout.cluster_size > 1 {
        format!(" .reqnctapercluster {}, 1, 1", layout.cluster_size)
    } else {
        String::new()
    };
    // Only tests with aliases take the views' bases and the textures, so
    // that every other test's module stays as it was.
    let mut alias_params = String::new();
    for v in 1..=layout.views.len() {
        alias_params.push_str(&format!(",\n\t.param .u64 p_view{v}"));
    }
    for t in 0..layout.textures.len() {
        alias_params.push_str(&format!(",\n\t.param .u64 p_tex{t}"));
    }
    // Likewise only tests with host memory or host threads take their
    // buffers.
    if !layout.host_slots.is_empty() {
        alias_params.push_str(&format!(",\n\t.param .u64 {HOST_MEMORY}"));
    }
    if layout.has_start_flag() {
        alias_params.push_str(&format!(",\n\t.param .u64 {HOST_START}"));
        alias_params.push_str(&format!(",\n\t.param .u64 {START_TARGET}"));
    }
    if layout.multi_gpu() {
        alias_params.push_str(&format!(",\n\t.param .u64 {LOGICAL_GPU}"));
        for g in layout.launching() {
            alias_params.push_str(&format!(",\n\t.param .u64 {}", relay_param(g)));
        }
    }
    // And only a test with a location off GPU 0 takes that GPU's buffer.
    for g in layout.remote_homes() {
        alias_params.push_str(&format!(",\n\t.param .u64 {}", gpu_memory_param(g)));
    }
    alias_params.push_str(&knob_words_param(layout));
    format!(
        ".visible .entry {TEST_KERNEL}(\n\t.param .u64 p_mem,\n\t.param .u64 p_regs,\n\t.param .u64 p_shfinal,\n\t.param .u64 p_status,\n\t.param .u64 p_knobs,\n\t.param .u64 p_place,\n\t.param .u64 p_scratch,\n\t.param .u64 p_launch{alias_params}\n){cluster}"
    )
}

/// Every role this thread plays. All address arithmetic and knob loads
/// first, then the roles' bodies back to back, then the stores of their
/// registers: nothing between two roles waits on memory, so the roles of
/// one instance, which run in different threads, overlap in time as closely
/// as the hardware allows.
fn play_roles(
    test: &Test,
    layout: &Layout,
    common: &Common,
    out: &mut Emitter,
) -> Result<(), PtxError> {
    match (&layout.mode, &common.rpw) {
        (Mode::RolePerWarp { roles_of, .. }, Some((d, warp))) => {
            play_role_per_warp(test, layout, common, roles_of, (d, warp), out)
        }
        _ => play_every_role(test, layout, common, out),
    }
}

/// Role-per-warp mode: each warp runs only its own role.
fn play_role_per_warp(
    test: &Test,
    layout: &Layout,
    common: &Common,
    roles_of: &[Vec<usize>],
    (d, warp): (&str, &str),
    out: &mut Emitter,
) -> Result<(), PtxError> {
    for (offset, group) in roles_of.iter().enumerate() {
        for (w, &k) in group.iter().enumerate() {
            let skip = out.fresh_label(&format!("not_role{k}"));
            let (pd, pw) = (out.pred(), out.pred());
            out.ins(format!("setp.ne.u32 {pd}, {d}, {offset}"));
            out.ins(format!("setp.ne.u32 {pw}, {warp}, {w}"));
            out.ins(format!("or.pred {pd}, {pd}, {pw}"));
            out.ins(format!("@{pd} bra {skip}"));
            gpu_gate(layout, common, k, &skip, out);
            let plan = setup_role(test, layout, common, k, out)?;
            role_body(test, layout, common, k, &plan, out)?;
            store_registers(layout, common, k, &plan, out);
            out.label(&skip);
        }
    }
    Ok(())
}

/// Whether every thread plays every role (not role-per-warp mode).
fn every_role(layout: &Layout, common: &Common) -> bool {
    !matches!(
        (&layout.mode, &common.rpw),
        (Mode::RolePerWarp { .. }, Some(_))
    )
}

/// Every-role mode: the set-ups of all GPU roles, then their bodies, then
/// their register stores.
fn play_every_role(
    test: &Test,
    layout: &Layout,
    common: &Common,
    out: &mut Emitter,
) -> Result<(), PtxError> {
    let plans = setup_every_role(test, layout, common, out)?;
    run_every_role(test, layout, common, &plans, out)
}

/// Every-role mode: the set-ups of all GPU roles (host roles are the host
/// threads' to play).
fn setup_every_role(
    test: &Test,
    layout: &Layout,
    common: &Common,
    out: &mut Emitter,
) -> Result<Vec<(usize, RolePlan)>, PtxError> {
    let mut plans = Vec::new();
    for k in (0..test.threads.len()).filter(|k| !layout.roles[*k].host) {
        let skip = role_gate(layout, common, k, out);
        plans.push((k, setup_role(test, layout, common, k, out)?));
        end_gate(out, skip);
    }
    Ok(plans)
}

/// Every-role mode: the bodies of the set-up roles, then their register
/// stores.
fn run_every_role(
    test: &Test,
    layout: &Layout,
    common: &Common,
    plans: &[(usize, RolePlan)],
    out: &mut Emitter,
) -> Result<(), PtxError> {
    for (k, plan) in plans {
        let skip = role_gate(layout, common, *k, out);
        role_body(test, layout, common, *k, plan, out)?;
        end_gate(out, skip);
    }
    for (k, plan) in plans {
        let skip = role_gate(layout, common, *k, out);
        store_registers(layout, common, *k, plan, out);
        end_gate(out, skip);
    }
    Ok(())
}

/// Skips role `k` where this CTA or launch does not play it: in a cluster,
/// a CTA plays the roles of its rank only; on several GPUs, a launch the
/// roles of its GPU only. Returns the label to close with [`end_gate`].
fn role_gate(layout: &Layout, common: &Common, k: usize, out: &mut Emitter) -> Option<String> {
    if layout.cluster_size == 1 && !layout.multi_gpu() {
        return None;
    }
    let skip = match layout.cluster_size {
        1 => out.fresh_label(&format!("other_gpu{k}")),
        _ => out.fresh_label(&format!("other_rank{k}")),
    };
    if layout.cluster_size > 1 {
        let p = out.pred();
        out.ins(format!(
            "setp.ne.u32 {p}, {}, {}",
            common.rank, layout.roles[k].rank
        ));
        out.ins(format!("@{p} bra {skip}"));
    }
    gpu_gate(layout, common, k, &skip, out);
    Some(skip)
}

/// Closes a [`role_gate`].
fn end_gate(out: &mut Emitter, skip: Option<String>) {
    if let Some(label) = skip {
        out.label(&label);
    }
}

/// In a test on several GPUs: skips to `skip` unless this launch's GPU is
/// role `k`'s.
fn gpu_gate(layout: &Layout, c: &Common, k: usize, skip: &str, out: &mut Emitter) {
    let Some(gpu) = &c.gpu else { return };
    let p = out.pred();
    out.ins(format!("setp.ne.u32 {p}, {gpu}, {}", layout.roles[k].gpu));
    out.ins(format!("@{p} bra {skip}"));
}

/// Once every role of every instance in this CTA (cluster) is done: the
/// final values of the shared locations, published for the classifier.
fn publish_shared(layout: &Layout, common: &Common, shfinal: &str, out: &mut Emitter) {
    if layout.shared_locs.is_empty() {
        return;
    }
    sync_shared(layout, out);
    shared_slots(layout, common, out, |out, addr, s| {
        // An mbarrier's word is the hardware's encoding of its phase, no
        // value of the test (the layout refuses a condition on one).
        if layout.shared_locs[s].mbarrier.is_some() {
            return;
        }
        let skip = out.fresh_label("not_here");
        skip_unless_holder(layout, common, s, &skip, out);
        let v = out.r32();
        out.ins(format!("ld.shared.u32 {v}, [{addr}]"));
        let home = out.r32();
        let inst = out.r32();
        let slot = out.r32();
        out.ins(format!(
            "add.u32 {home}, {}, {}",
            common.unit,
            home_offset(layout, layout.shared_locs[s].cluster_offset)
        ));
        out.ins(format!(
            "and.b32 {home}, {home}, {}",
            common.knob[&knob::CTA_MASK]
        ));
        out.ins(format!(
            "shl.b32 {inst}, {home}, {}",
            common.knob[&knob::LOG_T]
        ));
        out.ins(format!("or.b32 {inst}, {inst}, {}", common.tid));
        out.ins(format!(
            "mad.lo.u32 {slot}, {}, {s}, {inst}",
            common.knob[&knob::N]
        ));
        let a = out.r64();
        out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
        out.ins(format!("add.u64 {a}, {a}, {shfinal}"));
        out.ins(format!("st.global.u32 [{a}], {v}"));
        out.label(&skip);
    });
}

/// Waits until every thread that may touch this CTA's shared slots is
/// there: the CTA, or the whole cluster when a location lives in
/// distributed shared memory (other CTAs reach into it).
fn sync_shared(layout: &Layout, out: &mut Emitter) {
    if layout
        .shared_locs
        .iter()
        .any(|l| l.space == Space::SharedCluster)
    {
        out.ins("barrier.cluster.arrive.release");
        out.ins("barrier.cluster.wait.acquire");
    } else if !layout.shared_locs.is_empty() {
        out.ins(format!("bar.sync {HARNESS_BARRIER}"));
    }
}

/// The role's instructions, after the optional spin barrier. A role that
/// loops past the bound marks its instance unfinished.
fn role_body(
    test: &Test,
    layout: &Layout,
    c: &Common,
    k: usize,
    plan: &RolePlan,
    out: &mut Emitter,
) -> Result<(), PtxError> {
    let thread = &test.threads[k];
    let RolePlan { inst, ctx, end } = plan;
    out.comment(format!("role {k}: thread {}", thread.name));
    spin_barrier(layout, c, inst, out);
    for (i, ins) in thread.body.iter().enumerate() {
        // Which lines are which test instruction, for readers of the text
        // and for tools that map the compiled code back to the test
        // (litmus-toolchain's SASS listing reads `tK.I:` and `role K end`).
        out.comment(format!("t{k}.{i}: {}", text::print_instr(&ins.kind, test)));
        emit_instr(ctx, i, &ins.kind, out)?;
    }
    out.comment(format!("role {k} end"));
    out.ins(format!("bra.uni {end}"));
    out.label(&ctx.giveup);
    let sa = out.r64();
    out.ins(format!("mul.wide.u32 {sa}, {inst}, 4"));
    out.ins(format!("add.u64 {sa}, {sa}, {}", c.status));
    out.ins(format!("st.global.u32 [{sa}], 1"));
    out.label(end);
    Ok(())
}

/// Stores the registers of role `k` that the classifier needs.
fn store_registers(layout: &Layout, c: &Common, k: usize, plan: &RolePlan, out: &mut Emitter) {
    let RolePlan { inst, ctx, .. } = plan;

    // The registers the classifier needs.
    let r = layout.stored_regs.len();
    for (idx, (t, name)) in layout.stored_regs.iter().enumerate() {
        if *t != k {
            continue;
        }
        let Some(ptx) = ctx.regs.get(name) else {
            continue;
        };
        let slot = out.r32();
        let a = out.r64();
        out.ins(format!("mad.lo.u32 {slot}, {inst}, {r}, {idx}"));
        out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
        out.ins(format!("add.u64 {a}, {a}, {}", c.regs));
        out.ins(format!("st.global.u32 [{a}], {ptx}"));
    }
}

/// The spin barrier for the whole grid, when [`knob::SPIN_GRID`] is set
/// and this launch drew the spin barrier: the published harnesses line
/// every testing thread up on one word before its roles, which both starts
/// the roles of a launch together and makes that word the most contended
/// in the GPU for a while. Each thread counts in once, then polls until
/// every testing thread is in or [`knob::SPIN`] polls have gone by (not
/// every CTA of a large grid is resident at once). Returns the predicate
/// of the per-instance barrier before each role: this launch's draw, off
/// when the grid's is on.
fn grid_spin_barrier(layout: &Layout, c: &Common, out: &mut Emitter) -> String {
    let target = &c.knob[&knob::SPIN_GRID];
    let (grid, on) = (out.pred(), out.pred());
    let (instance, per_instance) = (out.pred(), out.pred());
    out.ins(format!("setp.ne.u32 {grid}, {target}, 0"));
    out.ins(format!("setp.eq.u32 {instance}, {target}, 0"));
    out.ins(format!("and.pred {on}, {}, {grid}", c.spin));
    out.ins(format!("and.pred {per_instance}, {}, {instance}", c.spin));
    let skip = out.fresh_label("nogridspin");
    let lp = out.fresh_label("gridspin");
    out.ins(format!("@!{on} bra {skip}"));
    let (a, v, polls) = (out.r64(), out.r32(), out.r32());
    // Status word 2·N, past the instances' status and spin words.
    out.ins(format!("mul.wide.u32 {a}, {}, 8", c.knob[&knob::N]));
    out.ins(format!("add.u64 {a}, {a}, {}", c.status));
    count_in_and_poll(layout, c, (&a, &v, &polls), target, &lp, out);
    out.label(&skip);
    per_instance
}

/// Counts this thread in on the word at `a` and polls it (into `v`,
/// counting in `polls`) until it reaches `target` or [`knob::SPIN`] polls
/// have gone by, so that it can never hang: the loop of both spin
/// barriers, from its label `lp` on.
fn count_in_and_poll(
    layout: &Layout,
    c: &Common,
    (a, v, polls): (&str, &str, &str),
    target: &str,
    lp: &str,
    out: &mut Emitter,
) {
    // Roles on several GPUs meet in GPU 0's memory: only `.sys` scope
    // makes the count coherent across devices.
    let scope = if layout.multi_gpu() { "sys" } else { "gpu" };
    out.ins(format!("red.relaxed.{scope}.global.add.u32 [{a}], 1"));
    out.ins(format!("mov.u32 {polls}, 0"));
    out.label(lp);
    out.ins(format!("ld.relaxed.{scope}.global.u32 {v}, [{a}]"));
    out.ins(format!("add.u32 {polls}, {polls}, 1"));
    let (wait, more) = (out.pred(), out.pred());
    out.ins(format!("setp.lt.u32 {wait}, {v}, {target}"));
    out.ins(format!(
        "setp.lt.u32 {more}, {polls}, {}",
        c.knob[&knob::SPIN]
    ));
    out.ins(format!("and.pred {wait}, {wait}, {more}"));
    out.ins(format!("@{wait} bra {lp}"));
}

/// The optional bounded spin barrier: each role of an instance announces
/// itself on the instance's counter and polls until all roles are there or
/// the polls run out, so it can never hang.
fn spin_barrier(layout: &Layout, c: &Common, inst: &str, out: &mut Emitter) {
    let skip = out.fresh_label("nospin");
    let lp = out.fresh_label("spin");
    out.ins(format!("@!{} bra {skip}", c.spin));
    let slot = out.r32();
    let a = out.r64();
    let v = out.r32();
    let polls = out.r32();
    out.ins(format!("add.u32 {slot}, {inst}, {}", c.knob[&knob::N]));
    out.ins(format!("mul.wide.u32 {a}, {slot}, 4"));
    out.ins(format!("add.u64 {a}, {a}, {}", c.status));
    // Host roles do not announce themselves: they cannot reach the
    // status words in GPU memory.
    let target = layout.gpu_roles().to_string();
    count_in_and_poll(layout, c, (&a, &v, &polls), &target, &lp, out);
    out.label(&skip);
}
