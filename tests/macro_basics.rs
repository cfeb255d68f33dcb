//! What each form of the `litmus!` grammar builds: `litmus_ir!` against IR
//! written out by hand.

use gpu_litmus::core::instr::*;
use gpu_litmus::core::ir::*;
use gpu_litmus::{litmus, litmus_ir};

fn n(text: &str) -> Name {
    Name::new(text, Origin::NONE)
}

fn imm(v: i64) -> Imm {
    Imm::new(v, Origin::NONE)
}

fn reg(text: &str) -> Operand {
    Operand::Reg(n(text))
}

fn val(v: i64) -> Operand {
    Operand::Imm(imm(v))
}

fn body(t: &Test, thread: usize) -> Vec<InstrKind> {
    t.threads[thread]
        .body
        .iter()
        .map(|i| i.kind.clone())
        .collect()
}

fn cmp(lhs: Term, op: CmpOp, rhs: Term) -> Expr {
    Expr::Cmp { lhs, op, rhs }
}

fn treg(thread: &str, r: &str) -> Term {
    Term::Reg {
        thread: n(thread),
        reg: n(r),
    }
}

#[test]
fn seed_sketch_builds_the_expected_ir() {
    let got = litmus_ir! {
        /// Message passing between CTAs with block-scoped fences.
        /// Second line.
        mp_tfb_inter_cta;
        global x = 0, y = 0;
        thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
        thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
        exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
    };
    let tfb = InstrKind::Fence {
        sem: Sem::Sc,
        scope: Scope::Cta,
        spelling: FenceSpelling::Membar,
    };
    let st = |loc: &str, v| InstrKind::Store {
        loc: n(loc),
        value: val(v),
        access: Access::WEAK,
        cache: None,
    };
    let ld = |dst: &str, loc: &str| InstrKind::Load {
        dst: n(dst),
        loc: n(loc),
        access: Access::WEAK,
        cache: None,
    };
    let thread = |name: &str, cta, body: Vec<InstrKind>| Thread {
        name: n(name),
        placement: Placement::cta(cta),
        init: vec![],
        body: body
            .into_iter()
            .map(|k| Instr::new(k, Origin::NONE))
            .collect(),
    };
    let mut want = Test::new("mp_tfb_inter_cta");
    want.locations = ["x", "y"]
        .iter()
        .map(|l| Location {
            name: n(l),
            space: Space::Global,
            gpu: 0,
            init: imm(0),
            alias: None,
        })
        .collect();
    want.threads = vec![
        thread("t0", 0, vec![st("x", 1), tfb.clone(), st("y", 1)]),
        thread("t1", 1, vec![ld("r0", "y"), tfb, ld("r1", "x")]),
    ];
    want.condition.expr = Expr::And(
        Box::new(cmp(treg("t1", "r0"), CmpOp::Eq, Term::Imm(imm(1)))),
        Box::new(cmp(treg("t1", "r1"), CmpOp::Eq, Term::Imm(imm(0)))),
    );
    want.verdict = Some(DeclaredVerdict {
        verdict: Verdict::Allowed,
        origin: Origin::NONE,
    });
    assert_eq!(got, want);
    // `Doc` compares equal whatever it holds: check it by hand.
    assert_eq!(
        got.doc.0,
        [
            "Message passing between CTAs with block-scoped fences.",
            "Second line."
        ]
    );
}

#[test]
fn loads_and_stores_keep_semantics_scope_and_cache_operator() {
    let t = litmus_ir! {
        qualified_accesses;
        global x = 0;
        thread t0 @ cta 0, cluster 0 with r9 = 7 {
            St.release.gpu(x, 1);
            St.relaxed.sys(x, r9);
            St.volatile(x, -1);
            St.wt(x, 2);
            St.weak.cg(x, 3);
            r0 = Ld.acquire.gpu(x);
            r1 = Ld.relaxed.cluster(x);
            r2 = Ld.volatile(x);
            r3 = Ld.ca(x);
            r4 = Ld.weak(x);
        }
        exists (t0.r0 == 1);
    };
    let st = |sem, scope, cache, value| InstrKind::Store {
        loc: n("x"),
        value,
        access: Access { sem, scope },
        cache,
    };
    let ld = |dst: &str, sem, scope, cache| InstrKind::Load {
        dst: n(dst),
        loc: n("x"),
        access: Access { sem, scope },
        cache,
    };
    assert_eq!(
        body(&t, 0),
        vec![
            st(Sem::Release, Some(Scope::Gpu), None, val(1)),
            st(Sem::Relaxed, Some(Scope::Sys), None, reg("r9")),
            st(Sem::Volatile, None, None, val(-1)),
            st(Sem::Weak, None, Some(CacheOp::Wt), val(2)),
            st(Sem::Weak, None, Some(CacheOp::Cg), val(3)),
            ld("r0", Sem::Acquire, Some(Scope::Gpu), None),
            ld("r1", Sem::Relaxed, Some(Scope::Cluster), None),
            ld("r2", Sem::Volatile, None, None),
            ld("r3", Sem::Weak, None, Some(CacheOp::Ca)),
            ld("r4", Sem::Weak, None, None),
        ]
    );
    assert_eq!(t.verdict, None, "litmus_ir! leaves a missing verdict out");
}

#[test]
fn fences_of_every_spelling() {
    let t = litmus_ir! {
        fences;
        global x = 0;
        thread t0 @ cta 0, cluster 0 {
            TF; TFB; TFS;
            Fence.sc.gpu; Fence.acq_rel.cta; Fence.acquire.cluster; Fence.release.sys;
            Membar.cta; Membar.gl; Membar.sys;
        }
        exists (x == 0) => allowed;
    };
    let f = |sem, scope, spelling| InstrKind::Fence {
        sem,
        scope,
        spelling,
    };
    use FenceSpelling::{Fence, Membar};
    assert_eq!(
        body(&t, 0),
        vec![
            f(Sem::Sc, Scope::Gpu, Membar),
            f(Sem::Sc, Scope::Cta, Membar),
            f(Sem::Sc, Scope::Sys, Membar),
            f(Sem::Sc, Scope::Gpu, Fence),
            f(Sem::AcqRel, Scope::Cta, Fence),
            f(Sem::Acquire, Scope::Cluster, Fence),
            f(Sem::Release, Scope::Sys, Fence),
            f(Sem::Sc, Scope::Cta, Membar),
            f(Sem::Sc, Scope::Gpu, Membar),
            f(Sem::Sc, Scope::Sys, Membar),
        ]
    );
}

#[test]
fn atomics_and_reductions() {
    let t = litmus_ir! {
        atomics;
        global x = 0, m = 0;
        thread t0 @ cta 0 {
            r0 = Atom.relaxed.gpu.add(x, 1);
            r1 = Atom.acq_rel.gpu.cas(m, 0, r0);
            r2 = Atom.acquire.sys.exch(x, -5);
            Red.release.gpu.add(x, 1);
            Red.relaxed.cta.max(m, r2);
            r3 = Atom.add(x, 1);
            Red.release.inc(x, 1);
            r4 = Atom.cta.exch(x, 1);
        }
        exists (t0.r0 == 0) => allowed;
    };
    let atom = |dst: Option<&str>, op, loc: &str, sem, scope, operand, new| InstrKind::Atom {
        dst: dst.map(n),
        op,
        loc: n(loc),
        access: Access::new(sem, scope),
        operand,
        new,
    };
    assert_eq!(
        body(&t, 0),
        vec![
            atom(
                Some("r0"),
                AtomOp::Add,
                "x",
                Sem::Relaxed,
                Scope::Gpu,
                val(1),
                None
            ),
            atom(
                Some("r1"),
                AtomOp::Cas,
                "m",
                Sem::AcqRel,
                Scope::Gpu,
                val(0),
                Some(reg("r0"))
            ),
            atom(
                Some("r2"),
                AtomOp::Exch,
                "x",
                Sem::Acquire,
                Scope::Sys,
                val(-5),
                None
            ),
            atom(
                None,
                AtomOp::Add,
                "x",
                Sem::Release,
                Scope::Gpu,
                val(1),
                None
            ),
            atom(
                None,
                AtomOp::Max,
                "m",
                Sem::Relaxed,
                Scope::Cta,
                reg("r2"),
                None
            ),
            // As in PTX: no semantics is `.relaxed`, no scope `.gpu`.
            atom(
                Some("r3"),
                AtomOp::Add,
                "x",
                Sem::Relaxed,
                Scope::Gpu,
                val(1),
                None
            ),
            atom(
                None,
                AtomOp::Inc,
                "x",
                Sem::Release,
                Scope::Gpu,
                val(1),
                None
            ),
            atom(
                Some("r4"),
                AtomOp::Exch,
                "x",
                Sem::Relaxed,
                Scope::Cta,
                val(1),
                None
            ),
        ]
    );
}

#[test]
fn barriers_in_isa_and_corpus_forms() {
    let t = litmus_ir! {
        barriers;
        global x = 0;
        thread t0 @ cta 0, warp 0 with r2 = 1 {
            BarSync(1);
            BarSync(1, 64);
            BarArrive(2, 64);
            Bar.sync(1, r2, 2);
            Bar.cta.sync(0);
            Bar.arrive(1);
            SyncWarp;
        }
        exists (x == 0) => allowed;
    };
    let bar = |kind, instance, id, quorum| InstrKind::Barrier {
        kind,
        instance: imm(instance),
        id,
        quorum,
    };
    use BarrierKind::{Arrive, Sync};
    assert_eq!(
        body(&t, 0),
        vec![
            bar(Sync, 1, None, None),
            bar(Sync, 1, None, Some(val(64))),
            bar(Arrive, 2, None, Some(val(64))),
            bar(Sync, 1, Some(reg("r2")), Some(val(2))),
            bar(Sync, 0, None, None),
            bar(Arrive, 1, None, None),
            InstrKind::WarpSync,
        ]
    );
    assert_eq!(
        t.threads[0].init,
        vec![RegInit {
            reg: n("r2"),
            value: imm(1)
        }]
    );
}

#[test]
fn registers_labels_and_branches() {
    let t = litmus_ir! {
        control;
        global x = 0;
        thread t0 @ cta 0 {
            r0 = 5;
            r1 = r0;
            r2 = r1 + 1; r2 = r2 - r0; r2 = r2 * 3; r2 = r2 & 7; r2 = r2 | 8; r2 = r2 ^ -1;
        L0:
            r3 = Ld(x);
            beq(r3, 0, L0);
            bne(r3, r1, L1);
            goto L0;
        L1: L2:
            St(x, r2);
        }
        exists (t0.r3 == 1) => allowed;
    };
    let bin = |dst: &str, op, a, b| InstrKind::BinOp {
        dst: n(dst),
        op,
        a,
        b,
    };
    let label = |l: &str| InstrKind::Label(n(l));
    assert_eq!(
        body(&t, 0),
        vec![
            InstrKind::Mov {
                dst: n("r0"),
                src: val(5)
            },
            InstrKind::Mov {
                dst: n("r1"),
                src: reg("r0")
            },
            bin("r2", BinOp::Add, reg("r1"), val(1)),
            bin("r2", BinOp::Sub, reg("r2"), reg("r0")),
            bin("r2", BinOp::Mul, reg("r2"), val(3)),
            bin("r2", BinOp::And, reg("r2"), val(7)),
            bin("r2", BinOp::Or, reg("r2"), val(8)),
            bin("r2", BinOp::Xor, reg("r2"), val(-1)),
            label("L0"),
            InstrKind::Load {
                dst: n("r3"),
                loc: n("x"),
                access: Access::WEAK,
                cache: None
            },
            InstrKind::Branch {
                cond: Some((BranchCond::Eq, reg("r3"), val(0))),
                target: n("L0")
            },
            InstrKind::Branch {
                cond: Some((BranchCond::Ne, reg("r3"), reg("r1"))),
                target: n("L1")
            },
            InstrKind::Branch {
                cond: None,
                target: n("L0")
            },
            label("L1"),
            label("L2"),
            InstrKind::Store {
                loc: n("x"),
                value: reg("r2"),
                access: Access::WEAK,
                cache: None
            },
        ]
    );
}

#[test]
fn spaces_and_placements() {
    let t = litmus_ir! {
        spaces;
        global g;
        shared s = 1;
        cluster_shared d = -2;
        thread a @ cta 3 { r0 = Ld(s); }
        thread b @ warp 1, cta 3, gpu 0 { St(s, 1); }
        thread c @ gpu 1, cluster 2, cta 4 { r0 = Ld(d); St(g, 1); }
        exists (a.r0 == 1) => allowed;
    };
    let loc = |name: &str, space, init| Location {
        name: n(name),
        space,
        gpu: 0,
        init: imm(init),
        alias: None,
    };
    assert_eq!(
        t.locations,
        vec![
            loc("g", Space::Global, 0),
            loc("s", Space::Shared, 1),
            loc("d", Space::SharedCluster, -2),
        ]
    );
    let places: Vec<Placement> = t.threads.iter().map(|t| t.placement).collect();
    assert_eq!(
        places,
        vec![
            Placement::cta(3),
            Placement {
                host: false,
                gpu: 0,
                cluster: None,
                cta: 3,
                warp: Some(1)
            },
            Placement {
                host: false,
                gpu: 1,
                cluster: Some(2),
                cta: 4,
                warp: None
            },
        ]
    );
}

#[test]
fn conditions_bind_like_rust() {
    let t = litmus_ir! {
        conditions;
        global x = 0, y = 0;
        thread t0 @ cta 0 { r0 = Ld(x); }
        ~exists t0.r0 == 1 || x != -1 && !(y == 2 || 3 == t0.r0) => forbidden;
    };
    let one = cmp(treg("t0", "r0"), CmpOp::Eq, Term::Imm(imm(1)));
    let x = cmp(Term::Loc(n("x")), CmpOp::Ne, Term::Imm(imm(-1)));
    let y = cmp(Term::Loc(n("y")), CmpOp::Eq, Term::Imm(imm(2)));
    let three = cmp(Term::Imm(imm(3)), CmpOp::Eq, treg("t0", "r0"));
    let not = Expr::Not(Box::new(Expr::Or(Box::new(y), Box::new(three))));
    let want = Expr::Or(
        Box::new(one),
        Box::new(Expr::And(Box::new(x), Box::new(not))),
    );
    assert_eq!(t.condition.quantifier, Quantifier::NotExists);
    assert_eq!(t.condition.expr, want);
    assert_eq!(t.verdict.map(|v| v.verdict), Some(Verdict::Forbidden));

    let t = litmus_ir! {
        quantifiers;
        global x = 0;
        thread t0 @ cta 0 { St(x, 1); }
        not exists (true) => forbidden;
    };
    assert_eq!(t.condition.quantifier, Quantifier::NotExists);
    assert_eq!(t.condition.expr, Expr::True);
    let t = litmus_ir! {
        quantifiers;
        global x = 0;
        thread t0 @ cta 0 { St(x, 1); }
        forall (x == 1) => allowed;
    };
    assert_eq!(t.condition.quantifier, Quantifier::Forall);
}

// A compile-only check of `litmus!`'s expansion: the runtime cannot check a
// test yet (`run_litmus` panics "not implemented"), so the generated test is
// ignored; the check is that it exists, under the test's name, as a `fn()`.
litmus! {
    /// The seed sketch as a cargo test.
    #[ignore = "the runtime cannot check tests yet"]
    mp_tfb_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
    thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

#[test]
fn litmus_expands_to_a_test_function_named_after_the_test() {
    let f: fn() = mp_tfb_inter_cta;
    let _ = f;
}
