//! The async proxy in the text format: bulk copies, bulk groups,
//! mbarriers and the async proxy fences read and print back, and every
//! misuse is an error at its `line:column`. That the PTX generator refuses
//! them is litmus-ptx's `tests/ptx_front_ends.rs`.

use litmus_core::async_proxy::{AsyncOp, AsyncSpace, OneWay};
use litmus_core::instr::{InstrKind, Scope, Sem};
use litmus_text as text;

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

/// Two threads of one cluster, CTAs 0 and 1, over the global `g`, `h`,
/// the shared `s` and the cluster-shared mbarrier `b`; rows start on line 4.
fn test(rows: &str) -> String {
    let rows: String = rows.lines().map(|l| format!(" {l} ;\n")).collect();
    format!(
        "PTX t\n{{ g=1; h=0; shared s=0; shared::cluster b=0; }}\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n{rows}exists (h == 0)"
    )
}

const EVERY_FORM: &str = "mbarrier.init.shared::cta.b64 [b], 2 | fence.proxy.async\n\
     fence.mbarrier_init.release.cluster | mbarrier.arrive.release.cluster.shared::cluster.b64 _, [b]\n\
     mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 [b], 16 | fence.proxy.async.global\n\
     cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] | fence.proxy.async.shared::cluster\n\
     mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 r0, [b], 0 | \n\
     mbarrier.try_wait.relaxed.cta r1, [b] | \n\
     fence.proxy.async.shared::cta | \n\
     cp.async.bulk.global.shared::cta.bulk_group [h], [s], 32 | \n\
     cp.async.bulk.commit_group | \n\
     cp.async.bulk.wait_group.read 1 | \n\
     cp.async.bulk.wait_group 0 | ";

#[test]
fn every_form_reads_and_prints_back() {
    let t = text::parse(&test(EVERY_FORM)).unwrap();
    let ops: Vec<&AsyncOp> = t
        .threads
        .iter()
        .flat_map(|th| &th.body)
        .filter_map(|i| match &i.kind {
            InstrKind::Async(op) => Some(op),
            _ => None,
        })
        .collect();
    assert_eq!(ops.len(), 15);
    assert!(matches!(ops[0], AsyncOp::MbarrierInit { count, .. } if count.value == 2));
    assert!(matches!(
        ops[2],
        AsyncOp::MbarrierArrive {
            sem: Sem::Relaxed,
            scope: Scope::Cta,
            expect_tx: Some(_),
            ..
        }
    ));
    assert!(matches!(ops[3], AsyncOp::BulkLoad { size, .. } if size.value == 16));
    assert!(matches!(
        ops[4],
        AsyncOp::MbarrierTryWait {
            sem: Sem::Acquire,
            scope: Scope::Cluster,
            parity: Some(_),
            ..
        }
    ));
    assert!(matches!(ops[9], AsyncOp::WaitGroup { read: true, .. }));
    let p1: Vec<&InstrKind> = t.threads[1].body.iter().map(|i| &i.kind).collect();
    assert!(matches!(
        p1[1],
        InstrKind::Async(AsyncOp::MbarrierArrive {
            sem: Sem::Release,
            scope: Scope::Cluster,
            expect_tx: None,
            ..
        })
    ));
    assert!(matches!(
        p1[3],
        InstrKind::Async(AsyncOp::ProxyFence(AsyncSpace::SharedCluster))
    ));
    let printed = text::print(&t);
    assert!(
        printed.contains(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b]"
        ),
        "{printed}"
    );
    assert!(printed.contains("shared::cluster b=0;"), "{printed}");
    assert_eq!(text::parse(&printed).unwrap(), t);
}

#[test]
fn misuse_is_an_error_at_its_position() {
    // A size that is not a multiple of 16, and copies the wrong way round.
    assert_eq!(
        errors(&test(
            "mbarrier.init [b], 1 | \n\
             mbarrier.arrive.expect_tx [b], 24 | \n\
             cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 24, [b] | \n\
             cp.async.bulk.global.shared::cta.bulk_group [s], [g], 16 | "
        )),
        "6:78: a bulk copy's size must be a positive multiple of 16 bytes, found 24\n\
         7:47: the destination of `cp.async.bulk.global.shared::cta.bulk_group` must be in global memory, but `s` is not\n\
         7:52: the source of `cp.async.bulk.global.shared::cta.bulk_group` must be in shared memory, but `g` is not"
    );
    // An mbarrier outside shared memory, and one used as data.
    assert_eq!(
        errors(&test(
            "mbarrier.init [h], 1 | \n\
             mbarrier.arrive [h] | \n\
             mbarrier.try_wait r0, [h] | \n\
             ld.weak r1, h | "
        )),
        "4:17: `h` is used as an mbarrier, but mbarriers live in shared memory: declare it `shared` or `cluster_shared`\n\
         5:19: `h` is used as an mbarrier, but mbarriers live in shared memory: declare it `shared` or `cluster_shared`\n\
         6:25: `h` is used as an mbarrier, but mbarriers live in shared memory: declare it `shared` or `cluster_shared`\n\
         7:14: `h` is an mbarrier: it is reached only through `mbarrier` instructions and the bulk copies that signal it"
    );
    // A wait that nothing can satisfy, and a barrier never initialised.
    assert_eq!(
        errors(&test("mbarrier.init [b], 1 | \nmbarrier.try_wait r0, [b] | ")),
        "5:25: `mbarrier.try_wait` on `b`, which nothing arrives at (no `mbarrier.arrive` and no bulk copy names it): the wait could never succeed"
    );
    assert_eq!(
        errors(&test(
            "mbarrier.arrive [b] | \nmbarrier.try_wait r0, [b] | "
        )),
        "4:19: mbarrier `b` is initialised 0 times: give it exactly one `mbarrier.init`"
    );
    // Bytes announced and bytes copied disagree; a phase other than 0.
    assert_eq!(
        errors(&test(
            "mbarrier.init [b], 1 | \n\
             cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b] | \n\
             mbarrier.try_wait.parity r0, [b], 1 | "
        )),
        "4:17: mbarrier `b` expects 0 bytes (`.expect_tx`), but the bulk copies that signal it bring 16\n\
         6:36: `.parity 1`: the model follows the first phase of each mbarrier, whose parity is 0"
    );
}

#[test]
fn unknown_forms_are_errors_at_the_instruction() {
    assert_eq!(
        errors(&test("cp.async.bulk.global.global [g], [h], 16 | ")),
        "4:2: unknown form `cp.async.bulk.global.global`: expected `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]`, `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size`, `cp.async.bulk.commit_group` or `cp.async.bulk.wait_group{.read} N`"
    );
    assert_eq!(
        errors(&test("mbarrier.arrive.acquire [b] | ")),
        "4:18: unknown qualifier `.acquire` on `mbarrier`: expected .expect_tx, .release, .relaxed, .cta, .cluster, .shared, .shared::cta, .shared::cluster or .b64"
    );
    assert_eq!(
        errors(&test("fence.proxy.async.local | ")),
        "4:20: unknown qualifier `.local` on `fence`: expected .global, .shared::cta or .shared::cluster"
    );
    assert_eq!(
        errors(&test("fence.mbarrier_init.acquire.cluster | ")),
        "4:2: unknown form `fence.mbarrier_init.acquire.cluster`: expected `fence.mbarrier_init.release.cluster`"
    );
}

#[test]
fn the_one_way_proxy_fences_read_and_print_back_and_other_forms_are_errors() {
    let src = test(
        "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster | fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
    );
    let t = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render("t")));
    let kinds: Vec<&InstrKind> = t.threads.iter().map(|th| &th.body[0].kind).collect();
    assert!(matches!(
        kinds[..],
        [
            InstrKind::Async(AsyncOp::ProxyFenceOneWay(OneWay::Release)),
            InstrKind::Async(AsyncOp::ProxyFenceOneWay(OneWay::Acquire)),
        ]
    ));
    let printed = text::print(&t);
    for w in OneWay::ALL {
        assert!(printed.contains(w.ptx()), "{printed}");
    }
    assert_eq!(text::parse(&printed).unwrap(), t);
    // The acquire form restricted to the CTA's window (the ISA pairs
    // `.release` with `shared::cta` and `.acquire` with `shared::cluster`).
    let expected = "expected `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` or `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster`";
    assert_eq!(
        errors(&test(
            "fence.proxy.async::generic.acquire.sync_restrict::shared::cta.cluster | "
        )),
        format!("4:2: unknown form `fence.proxy.async::generic.acquire.sync_restrict::shared::cta.cluster`: {expected}")
    );
    assert_eq!(
        errors(&test("fence.proxy.async::generic.release | ")),
        format!("4:2: unknown form `fence.proxy.async::generic.release`: {expected}")
    );
}
