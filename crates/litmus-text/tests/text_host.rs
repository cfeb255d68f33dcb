//! Host threads (`P1@host`) and host memory (`host x=0;`) in the text
//! format: what the reader makes of them, that the writer writes them back,
//! and every mistake with its `line:column`. What the PTX back end makes of
//! them (and refuses) is litmus-ptx's `tests/ptx_front_ends.rs`.

use litmus_core::instr::{InstrKind, Scope, Sem};
use litmus_core::ir::{Placement, Space, Test};
use litmus_text as text;

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

const MP: &str = "PTX mp-host\n{ host x=0; host y=0; g=0; }\n P0@cta 0,gpu 0      | P1@host          ;\n st.weak x, 1        | ld.acquire r0, y ;\n st.release.sys y, 1 | ld.weak r1, x    ;\n                     | fence.acq_rel.sys ;\n                     | atom.acq_rel.sys.exch r2, g, 1 ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)";

fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("<src>")))
}

#[test]
fn host_memory_and_host_threads_are_read() {
    let t = parse(MP);
    assert_eq!(t.locations[0].space, Space::Host);
    assert_eq!(t.locations[1].space, Space::Host);
    assert_eq!(t.locations[2].space, Space::Global);
    assert_eq!(t.threads[0].placement, Placement::cta(0));
    assert_eq!(t.threads[1].placement, Placement::host());
    // The acquire load keeps "no scope": the model reads it as `.sys`.
    let InstrKind::Load { access, .. } = &t.threads[1].body[0].kind else {
        panic!("{:?}", t.threads[1].body[0]);
    };
    assert_eq!((access.sem, access.scope), (Sem::Acquire, None));
}

#[test]
fn host_forms_print_and_read_back() {
    let t = parse(MP);
    let printed = text::print(&t);
    assert!(printed.contains("host x=0;"), "{printed}");
    assert!(printed.contains("P1@host"), "{printed}");
    assert!(printed.contains("ld.acquire r0, y"), "{printed}");
    assert_eq!(parse(&printed), t, "{printed}");
}

#[test]
fn host_is_still_a_name() {
    // The keyword counts only before a location name: `host=0` declares a
    // location called `host`, and a thread may be called `host`.
    let t = parse("PTX t\n{ host=0; host:r0=1; }\n host@cta 0,gpu 0 ;\n st.weak host, r0 ;\nexists (host == 1)");
    assert_eq!(t.locations[0].name.text, "host");
    assert_eq!(t.locations[0].space, Space::Global);
    assert_eq!(t.threads[0].name.text, "host");
    assert!(!t.threads[0].placement.host);
}

#[test]
fn host_stands_alone_in_a_placement() {
    assert_eq!(
        errors("PTX t\n{ x=0; }\n P0@host,cta 1 | P1@cta 0,host ;\n st.weak x, 1 | st.weak x, 2 ;\nexists (x == 1)"),
        "3:9: expected `|` or `;` after `@host` (a host thread has no GPU placement), found `,`\n\
         3:27: expected `cta`, `gpu`, `cluster` or `warp` (`host` stands alone), found `host`"
    );
}

#[test]
fn gpu_only_forms_on_a_host_thread_are_each_reported() {
    let src = "PTX t\n{ shared s=0; x=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.weak s, 1 | ld.acquire.gpu r0, x ;\n | ld.volatile r1, x ;\n | ld.relaxed r2, s ;\n | bar.cta.sync 0 ;\n | bar.warp.sync ;\n | fence.acquire.sys ;\n | membar.gl ;\n | st.weak.wt x, 1 ;\n | red.relaxed.cta.add x, 1 ;\n | atom.gpu.add r3, x, 1 ;\nexists (P1:r0 == 1)";
    assert_eq!(
        errors(src),
        "4:17: thread `P1` runs on the host: scope `.gpu` is GPU-only (a host thread's accesses and fences are `.sys`; no scope written means `.sys`)\n\
         5:4: thread `P1` runs on the host: `ld.volatile` has no C++ counterpart (host loads take .weak, .relaxed or .acquire, stores .weak, .relaxed or .release, fences .sc or .acq_rel)\n\
         6:19: thread `P1` runs on the host: `s` is shared memory, which only GPU threads of its CTA (or cluster) reach\n\
         7:4: thread `P1` runs on the host: a CTA barrier is GPU-only\n\
         8:4: thread `P1` runs on the host: `bar.warp.sync` is GPU-only\n\
         9:4: thread `P1` runs on the host: `fence.acquire` has no C++ counterpart (host loads take .weak, .relaxed or .acquire, stores .weak, .relaxed or .release, fences .sc or .acq_rel)\n\
         10:4: thread `P1` runs on the host: scope `.gpu` is GPU-only (a host thread's accesses and fences are `.sys`; no scope written means `.sys`)\n\
         11:4: thread `P1` runs on the host: a cache operator is GPU-only\n\
         12:4: thread `P1` runs on the host: scope `.cta` is GPU-only (a host thread's accesses and fences are `.sys`; no scope written means `.sys`)\n\
         13:4: thread `P1` runs on the host: scope `.gpu` is GPU-only (a host thread's accesses and fences are `.sys`; no scope written means `.sys`)"
    );
}

#[test]
fn a_gpu_thread_still_needs_a_scope() {
    assert_eq!(
        errors("PTX t\n{ host x=0; }\n P0@cta 0,gpu 0 ;\n ld.acquire r0, x ;\nexists (P0:r0 == 0)"),
        "4:2: `ld.acquire` needs a scope (.cta, .cluster, .gpu or .sys)"
    );
}

#[test]
fn gpu_coordinates_on_a_built_host_thread_are_refused() {
    // The text cannot say it (`host` stands alone); built IR can.
    let mut t = parse(MP);
    t.threads[1].placement.cta = 2;
    t.threads[1].placement.warp = Some(1);
    let errs: Vec<String> = litmus_core::validate(&t)
        .unwrap_err()
        .iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errs,
        [
            "thread `P1` runs on the host, which has no CTA: place a host thread `@host` alone",
            "thread `P1` runs on the host, which has no warp: place a host thread `@host` alone",
        ]
    );
}

#[test]
fn generic_alias_of_host_memory_is_allowed() {
    let t = parse("PTX t\n{ host x=0; y @ generic aliases x; }\n P0@host ;\n st.relaxed y, 1 ;\nexists (x == 1)");
    assert_eq!(t.locations[1].alias.as_ref().unwrap().target.text, "x");
}

#[test]
fn host_scope_written_out_is_accepted() {
    let t = parse("PTX t\n{ x=0; }\n P0@host ;\n st.release.sys x, 1 ;\n fence.sc.sys ;\n membar.sys ;\nexists (x == 1)");
    let InstrKind::Store { access, .. } = &t.threads[0].body[0].kind else {
        panic!();
    };
    assert_eq!(access.scope, Some(Scope::Sys));
}

#[test]
fn an_atomic_with_no_scope_is_sys_on_a_host_thread_and_gpu_elsewhere() {
    // PTX's default for `atom` is `.gpu`; a host thread's RMWs are C++
    // atomics, system-wide.
    let t = parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@host ;\n atom.add r0, x, 1 | atom.add r0, x, 1 ;\n | red.release.inc x, 1 ;\nexists (x == 2)");
    let scope = |thread: usize, i: usize| match &t.threads[thread].body[i].kind {
        InstrKind::Atom { access, .. } => access.scope,
        other => panic!("{other:?}"),
    };
    assert_eq!(scope(0, 0), Some(Scope::Gpu));
    assert_eq!(scope(1, 0), Some(Scope::Sys));
    assert_eq!(scope(1, 1), Some(Scope::Sys));
    let printed = text::print(&t);
    assert!(
        printed.contains("atom.relaxed.sys.add r0, x, 1"),
        "{printed}"
    );
    assert_eq!(parse(&printed), t, "{printed}");
}
