//! What the reader makes of each form of the dialect, and what the writer
//! makes of each IR node: Dat3M's forms and the extensions.

use litmus_core::instr::{
    Access, AtomOp, BarrierKind, BinOp, BranchCond, CacheOp, FenceSpelling, Instr, InstrKind,
    Scope, Sem,
};
use litmus_core::ir::*;
use litmus_text as text;

const EXTENSIONS: &str = include_str!("data/extensions.litmus");
const CONTROL: &str = include_str!("data/control.litmus");

fn n(s: &str) -> Name {
    Name::new(s, Origin::NONE)
}

fn imm(v: Value) -> Imm {
    Imm::new(v, Origin::NONE)
}

fn reg(s: &str) -> Operand {
    Operand::Reg(n(s))
}

fn val(v: Value) -> Operand {
    Operand::Imm(imm(v))
}

fn i(kind: InstrKind) -> Instr {
    Instr::new(kind, Origin::NONE)
}

fn cmp(lhs: Term, op: CmpOp, rhs: Term) -> Expr {
    Expr::Cmp { lhs, op, rhs }
}

fn r(thread: &str, r: &str) -> Term {
    Term::Reg {
        thread: n(thread),
        reg: n(r),
    }
}

/// The body of the one thread of a test around `rows`.
fn body(rows: &str) -> Vec<Instr> {
    let rows: String = rows.lines().map(|l| format!(" {l} ;\n")).collect();
    let src = format!("PTX t\n{{ x=0; P0:r1=0; }}\n P0@cta 0,gpu 0 ;\n{rows}exists (x == 0)");
    let test = text::parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    test.threads.into_iter().next().unwrap().body
}

/// Parses, prints, parses again: the IR must survive.
fn round_trip(src: &str) -> (Test, String) {
    let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("<src>")));
    let printed = text::print(&test);
    let again = text::parse(&printed).unwrap_or_else(|e| panic!("{e}\n{printed}"));
    assert_eq!(again, test, "{printed}");
    (test, printed)
}

#[test]
fn message_passing_equals_hand_built_ir() {
    let src = "PTX MP\n\"doc\"\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1, gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\nexists\n(P1:r0 == 1 /\\ 1:r1 = 0)";
    let mut want = Test::new("MP");
    for x in ["x", "y"] {
        want.locations.push(Location {
            name: n(x),
            space: Space::Global,
            gpu: 0,
            init: imm(0),
            alias: None,
        });
    }
    let thread = |name: &str, cta, body| Thread {
        name: n(name),
        placement: Placement::cta(cta),
        init: vec![],
        body,
    };
    want.threads.push(thread(
        "P0",
        0,
        vec![
            i(InstrKind::Store {
                loc: n("x"),
                value: val(1),
                access: Access::WEAK,
                cache: None,
            }),
            i(InstrKind::Store {
                loc: n("y"),
                value: val(1),
                access: Access::new(Sem::Release, Scope::Gpu),
                cache: None,
            }),
        ],
    ));
    want.threads.push(thread(
        "P1",
        1,
        vec![
            i(InstrKind::Load {
                dst: n("r0"),
                loc: n("y"),
                access: Access::new(Sem::Acquire, Scope::Gpu),
                cache: None,
            }),
            i(InstrKind::Load {
                dst: n("r1"),
                loc: n("x"),
                access: Access::WEAK,
                cache: None,
            }),
        ],
    ));
    want.condition.expr = Expr::And(
        Box::new(cmp(r("P1", "r0"), CmpOp::Eq, Term::Imm(imm(1)))),
        Box::new(cmp(r("P1", "r1"), CmpOp::Eq, Term::Imm(imm(0)))),
    );
    let got = text::parse(src).unwrap();
    assert_eq!(got, want);
    assert_eq!(got.doc.0, ["doc"]);
    // Origins are byte offsets of what they name.
    assert_eq!(
        got.threads[1].body[0].origin,
        Origin(src.find("ld.acquire").unwrap() as u32)
    );
}

#[test]
fn ld_without_qualifier_is_an_assignment_unless_it_names_a_location() {
    assert_eq!(
        body("ld r0, 1\nld r2, r1\nld r3, x"),
        [
            i(InstrKind::Mov {
                dst: n("r0"),
                src: val(1)
            }),
            i(InstrKind::Mov {
                dst: n("r2"),
                src: reg("r1")
            }),
            i(InstrKind::Load {
                dst: n("r3"),
                loc: n("x"),
                access: Access::WEAK,
                cache: None
            }),
        ]
    );
}

#[test]
fn fences_and_membar() {
    let fence = |sem, scope, spelling| {
        i(InstrKind::Fence {
            sem,
            scope,
            spelling,
        })
    };
    assert_eq!(
        body("fence.sc.cta\nfence.acq_rel.gpu\nfence.acquire.sys\nfence.release.gpu\nmembar.cta\nmembar.gl\nmembar.sys"),
        [
            fence(Sem::Sc, Scope::Cta, FenceSpelling::Fence),
            fence(Sem::AcqRel, Scope::Gpu, FenceSpelling::Fence),
            fence(Sem::Acquire, Scope::Sys, FenceSpelling::Fence),
            fence(Sem::Release, Scope::Gpu, FenceSpelling::Fence),
            fence(Sem::Sc, Scope::Cta, FenceSpelling::Membar),
            fence(Sem::Sc, Scope::Gpu, FenceSpelling::Membar),
            fence(Sem::Sc, Scope::Sys, FenceSpelling::Membar),
        ]
    );
}

#[test]
fn atomics_default_to_relaxed_gpu() {
    let atom = |dst: Option<&str>, op, access, operand, new| {
        i(InstrKind::Atom {
            dst: dst.map(n),
            op,
            loc: n("x"),
            access,
            operand,
            new,
        })
    };
    let relaxed_gpu = Access::new(Sem::Relaxed, Scope::Gpu);
    assert_eq!(
        body("atom.add r0, x, 1\natom.cta.exch r2, x, r1\natom.acquire.cas r3, x, 0, 1\nred.release.sys.sub x, 2\nred.max x, r1"),
        [
            atom(Some("r0"), AtomOp::Add, relaxed_gpu, val(1), None),
            atom(
                Some("r2"),
                AtomOp::Exch,
                Access::new(Sem::Relaxed, Scope::Cta),
                reg("r1"),
                None
            ),
            atom(
                Some("r3"),
                AtomOp::Cas,
                Access::new(Sem::Acquire, Scope::Gpu),
                val(0),
                Some(val(1))
            ),
            atom(
                None,
                AtomOp::Sub,
                Access::new(Sem::Release, Scope::Sys),
                val(2),
                None
            ),
            atom(None, AtomOp::Max, relaxed_gpu, reg("r1"), None),
        ]
    );
    // The defaults are written out when printed.
    let (_, printed) =
        round_trip("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.add r0, x, 1 ;\nexists (P0:r0 == 0)");
    assert!(
        printed.contains("atom.relaxed.gpu.add r0, x, 1"),
        "{printed}"
    );
}

#[test]
fn barriers() {
    let bar = |kind, instance, id, quorum| {
        i(InstrKind::Barrier {
            kind,
            instance: imm(instance),
            id,
            quorum,
        })
    };
    assert_eq!(
        body("bar.cta.sync 1\nbar.cta.sync 1, r1\nbar.cta.arrive 2, 3, 4\nbar.sync 0, 64\nbar.arrive 5\nbar.warp.sync\nbar.warp.sync 0xffffffff"),
        [
            bar(BarrierKind::Sync, 1, None, None),
            bar(BarrierKind::Sync, 1, Some(reg("r1")), None),
            bar(BarrierKind::Arrive, 2, Some(val(3)), Some(val(4))),
            bar(BarrierKind::Sync, 0, None, Some(val(64))),
            bar(BarrierKind::Arrive, 5, None, None),
            i(InstrKind::WarpSync),
            i(InstrKind::WarpSync),
        ]
    );
}

#[test]
fn control_flow_and_arithmetic() {
    assert_eq!(
        body("L0:\nadd r1, r1, 1\nsub r2, r1, -1\nmul r3, r2, 0x10\nbeq r1, 3, L1\nbne r1, r2, L0\ngoto L0\nL1:"),
        [
            i(InstrKind::Label(n("L0"))),
            i(InstrKind::BinOp {
                dst: n("r1"),
                op: BinOp::Add,
                a: reg("r1"),
                b: val(1)
            }),
            i(InstrKind::BinOp {
                dst: n("r2"),
                op: BinOp::Sub,
                a: reg("r1"),
                b: val(-1)
            }),
            i(InstrKind::BinOp {
                dst: n("r3"),
                op: BinOp::Mul,
                a: reg("r2"),
                b: val(16)
            }),
            i(InstrKind::Branch {
                cond: Some((BranchCond::Eq, reg("r1"), val(3))),
                target: n("L1")
            }),
            i(InstrKind::Branch {
                cond: Some((BranchCond::Ne, reg("r1"), reg("r2"))),
                target: n("L0")
            }),
            i(InstrKind::Branch {
                cond: None,
                target: n("L0")
            }),
            i(InstrKind::Label(n("L1"))),
        ]
    );
}

#[test]
fn condition_precedence_and_grouping() {
    let cond = |c: &str| {
        let src =
            format!("PTX t\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists {c}");
        text::parse(&src).unwrap().condition
    };
    let a = || cmp(Term::Loc(n("x")), CmpOp::Eq, Term::Imm(imm(1)));
    let b = || cmp(r("P0", "r0"), CmpOp::Ne, Term::Loc(n("y")));
    // `/\` binds tighter than `\/`; `~` tighter than both; left grouping.
    assert_eq!(
        cond("(x == 1 \\/ P0:r0 != y /\\ x = 1)").expr,
        Expr::Or(
            Box::new(a()),
            Box::new(Expr::And(Box::new(b()), Box::new(a())))
        )
    );
    assert_eq!(
        cond("(~x == 1 /\\ x == 1 /\\ P0:r0 != y)").expr,
        Expr::And(
            Box::new(Expr::And(Box::new(Expr::Not(Box::new(a()))), Box::new(a()))),
            Box::new(b())
        )
    );
    assert_eq!(cond("(true)").expr, Expr::True);
}

#[test]
fn quantifiers() {
    for (q, want) in [
        ("exists", Quantifier::Exists),
        ("~exists", Quantifier::NotExists),
        ("~ exists", Quantifier::NotExists),
        ("forall", Quantifier::Forall),
    ] {
        let src = format!("PTX t\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n{q} (x == 1)");
        assert_eq!(text::parse(&src).unwrap().condition.quantifier, want);
    }
}

#[test]
fn printed_conditions_keep_their_tree() {
    // Right-nested operators and negations need parentheses to survive.
    let src = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n\
               exists (x == 1 /\\ (x == 2 /\\ x == 3) \\/ (x == 4 \\/ x == 5) /\\ ~~(x == 6) \\/ ~(x == 7 \\/ true))";
    let (_, printed) = round_trip(src);
    assert!(
        printed.contains("exists (x == 1 /\\ (x == 2 /\\ x == 3) \\/ (x == 4 \\/ x == 5) /\\ ~~(x == 6) \\/ ~(x == 7 \\/ true))"),
        "{printed}"
    );
}

#[test]
fn extensions_read() {
    let (test, _) = round_trip(EXTENSIONS);
    assert_eq!(test.name.text, "MP shared, two clusters");
    assert_eq!(test.doc.0.len(), 3);
    let spaces: Vec<Space> = test.locations.iter().map(|l| l.space).collect();
    assert_eq!(spaces, [Space::Global, Space::Shared, Space::SharedCluster]);
    let names: Vec<&str> = test.threads.iter().map(|t| t.name.text.as_str()).collect();
    assert_eq!(names, ["t0", "t1", "t2"]);
    assert_eq!(
        test.threads[1].placement,
        Placement {
            host: false,
            gpu: 0,
            cluster: Some(0),
            cta: 0,
            warp: Some(1)
        }
    );
    assert_eq!(test.threads[2].placement.warp, None);
    assert_eq!(
        test.threads[1].init,
        [RegInit {
            reg: n("r9"),
            value: imm(7)
        }]
    );
    let caches: Vec<CacheOp> = test
        .threads
        .iter()
        .flat_map(|t| &t.body)
        .filter_map(|i| match i.kind {
            InstrKind::Load { cache, .. } | InstrKind::Store { cache, .. } => cache,
            _ => None,
        })
        .collect();
    assert_eq!(
        caches,
        [
            CacheOp::Wt,
            CacheOp::Cs,
            CacheOp::Ca,
            CacheOp::Cg,
            CacheOp::Cv
        ]
    );
    assert_eq!(test.threads[0].body[2].kind, InstrKind::WarpSync);
    assert_eq!(
        test.threads[1].body[2].kind,
        InstrKind::Mov {
            dst: n("r2"),
            src: reg("r9")
        }
    );
    assert_eq!(test.verdict.map(|v| v.verdict), Some(Verdict::Allowed));
}

#[test]
fn extensions_printed() {
    let (_, printed) = round_trip(EXTENSIONS);
    for form in [
        "PTX \"MP shared, two clusters\"\n",
        "\nshared f=0;\n",
        "\nshared::cluster d=0;\n",
        "t1@cta 0,gpu 0,warp 1,cluster 0",
        "t2@cta 1,gpu 0,cluster 0 ",
        "st.weak.wt x, 1",
        "ld.weak.ca r1, x",
        "bar.warp.sync",
        "bar.sync 1, 64",
        "t1:r9=7;",
        "exists (t1:r0 == 1 /\\ t1:r1 == 0) => allowed\n",
    ] {
        assert!(printed.contains(form), "{form:?} not in\n{printed}");
    }
    // `mov` only where `ld` would read a location.
    assert!(printed.contains("ld r2, r9"), "{printed}");
}

#[test]
fn mov_printed_where_ld_would_load() {
    // A register named like a location: `ld r1, x` would load from `x`.
    let src = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak x, x ;\n mov r1, x ;\nexists (P0:r1 == 0) => forbidden";
    let (test, printed) = round_trip(src);
    assert!(printed.contains("mov r1, x"), "{printed}");
    assert_eq!(test.verdict.map(|v| v.verdict), Some(Verdict::Forbidden));
}

#[test]
fn dat3m_control_flow_fixture() {
    let (test, printed) = round_trip(CONTROL);
    assert_eq!(test.threads[1].init.len(), 1, "`1:r0=2` belongs to P1");
    assert_eq!(test.threads[2].placement.gpu, 1);
    assert_eq!(test.condition.quantifier, Quantifier::Forall);
    // `0x10` and `1:r1` are read, then written in one canonical form.
    assert!(printed.contains("xor r1, r0, 16"), "{printed}");
    assert!(printed.contains("P1:r1 == 0"), "{printed}");
}

#[test]
fn names_that_are_not_identifiers() {
    for name in [
        "SB+sc-gpu",
        "_Atom-plus-location",
        "a\"b",
        "two words",
        "",
        "\"q\"",
        "back\\slash x",
    ] {
        let mut test =
            text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)")
                .unwrap();
        test.name.text = name.to_string();
        let again = text::parse_unvalidated(&text::print(&test)).unwrap();
        assert_eq!(again.name.text, name);
    }
}

#[test]
fn extensions_unused_for_dat3m_tests() {
    // A test Dat3M can express prints in Dat3M's syntax only.
    let (_, printed) = round_trip(
        "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 | ld r1, 2 ;\nexists (P1:r1 == 2)",
    );
    for ext in [
        "=>", "shared", "warp", "cluster", "mov", "\"", ".ca", "bar.warp",
    ] {
        assert!(!printed.contains(ext), "{ext} in\n{printed}");
    }
    assert!(printed.contains("ld r1, 2"), "{printed}");
}

#[test]
fn placement_defaults() {
    let test = text::parse(
        "PTX t\n{ x=0; }\n P0 | P1@cta 2 | P2@gpu 1,cta 3 ;\n st.weak x, 1 | | ;\nexists (x == 1)",
    )
    .unwrap();
    let p: Vec<(u32, u32)> = test
        .threads
        .iter()
        .map(|t| (t.placement.cta, t.placement.gpu))
        .collect();
    assert_eq!(p, [(0, 0), (2, 0), (3, 1)]);
}

#[test]
fn invalid_tests_print_and_read_back() {
    // Well formed, not valid: a duplicate thread name whose registers are
    // given by index, and an undeclared location.
    let src = "PTX t\n{ x=0; 1:r0=2; }\n P0@cta 0,gpu 0 | P0@cta 1,gpu 0 ;\n ld.weak r1, y | st.weak x, r0 ;\nexists (1:r0 == 2)";
    assert!(text::parse(src).is_err());
    let test = text::parse_unvalidated(src).unwrap();
    assert_eq!(test.threads[1].init.len(), 1);
    let printed = text::print(&test);
    assert!(printed.contains("\n1:r0=2;\n"), "{printed}");
    assert_eq!(text::parse_unvalidated(&printed).unwrap(), test);
}
