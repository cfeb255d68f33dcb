//! herd7's GPU_PTX dialect (the ASPLOS'15 corpus's): the held-in corpus
//! in `data/gpu_ptx/` (with `asplos15/`, tests in the ASPLOS'15 paper's
//! `T0 | T1` form) reads, validates, and prints in the PTX dialect to
//! text that reads back to the same IR; and what each form becomes. That
//! each file has PTX is litmus-ptx's `tests/ptx_front_ends.rs`. The errors are in `text_gpu_ptx_errors.rs`, the verdicts under
//! `ptx-2015` in litmus-model's `tests/gpu_ptx.rs`.

use std::path::PathBuf;

use litmus_core::instr::{
    Access, AtomOp, BinOp, BranchCond, CacheOp, FenceSpelling, InstrKind, Scope, Sem,
};
use litmus_core::ir::*;
use litmus_text as text;

fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gpu_ptx")
}

/// The `.litmus` files of `sub` (under the corpus folder), named by
/// their path from the corpus folder.
fn files_in(sub: &str) -> Vec<(String, String)> {
    let dir = corpus_dir().join(sub);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "litmus"))
        .map(|p| {
            let name = p.strip_prefix(corpus_dir()).unwrap();
            let name = name.to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    files.sort();
    files
}

/// The corpus: herd's form, then the paper's (`asplos15/`).
fn corpus() -> Vec<(String, String)> {
    let mut files = files_in("");
    files.extend(files_in("asplos15"));
    files
}

fn file(name: &str) -> Test {
    let (_, src) = corpus()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no corpus file {name}"));
    text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(name)))
}

fn kinds(t: &Test, thread: usize) -> Vec<InstrKind> {
    t.threads[thread]
        .body
        .iter()
        .map(|i| i.kind.clone())
        .collect()
}

fn n(s: &str) -> Name {
    Name::new(s, Origin::NONE)
}

fn reg(s: &str) -> Operand {
    Operand::Reg(n(s))
}

fn val(v: Value) -> Operand {
    Operand::Imm(Imm::new(v, Origin::NONE))
}

#[test]
fn the_corpus_reads_validates_and_round_trips() {
    let files = corpus();
    assert!(files.len() >= 25, "{} files", files.len());
    for (name, src) in files {
        let test = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&name)));
        assert_eq!(
            Some(format!("{}.litmus", test.name.text).as_str()),
            name.rsplit('/').next(),
            "the header names the file"
        );
        litmus_core::validate(&test).unwrap();
        // Printed in Dat3M's dialect, read again: the same IR, and a fixed
        // point of printing.
        let printed = text::print(&test);
        assert!(printed.starts_with("PTX "), "{printed}");
        let again = text::parse(&printed).unwrap_or_else(|e| panic!("{name}: {e}\n{printed}"));
        assert_eq!(again, test, "{name}:\n{printed}");
        assert_eq!(text::print(&again), printed, "{name}");
    }
}

#[test]
fn corr_resolves_addresses_and_keeps_the_cache_operator() {
    let t = file("CoRR.litmus");
    assert_eq!(t.name.text, "CoRR");
    assert_eq!(
        t.doc.0,
        ["Two reads of one location, in program order, see its writes out of order"]
    );
    assert_eq!(t.locations.len(), 1);
    assert_eq!(
        (t.locations[0].name.text.as_str(), t.locations[0].space),
        ("x", Space::Global)
    );
    let cg_load = |dst: &str| InstrKind::Load {
        dst: n(dst),
        loc: n("x"),
        access: Access::WEAK,
        cache: Some(CacheOp::Cg),
    };
    assert_eq!(kinds(&t, 1), [cg_load("r0"), cg_load("r2")]);
    assert_eq!(
        kinds(&t, 0),
        [
            InstrKind::Mov {
                dst: n("r5"),
                src: val(1)
            },
            InstrKind::Store {
                loc: n("x"),
                value: reg("r5"),
                access: Access::WEAK,
                cache: Some(CacheOp::Cg)
            },
        ]
    );
    // Address registers are resolved away; value registers start at 0.
    let inits: Vec<(&str, Value)> = t.threads[1]
        .init
        .iter()
        .map(|i| (i.reg.text.as_str(), i.value.value))
        .collect();
    assert_eq!(inits, [("r0", 0), ("r2", 0)]);
    // The location an access names is written where its register is.
    let origin = match &t.threads[1].body[0].kind {
        InstrKind::Load { loc, .. } => loc.origin,
        other => panic!("{other:?}"),
    };
    let src = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/gpu_ptx/CoRR.litmus"),
    )
    .unwrap();
    assert_eq!(text::position(&src, origin).unwrap().to_string(), "12:36");
    assert_eq!(t.condition.quantifier, Quantifier::Exists,);
    assert_eq!(
        t.threads[0].placement,
        Placement {
            warp: Some(0),
            ..Placement::cta(0)
        }
    );
    assert_eq!(
        t.threads[1].placement,
        Placement {
            warp: Some(0),
            ..Placement::cta(1)
        }
    );
}

#[test]
fn membar_levels_are_fences_spelled_membar() {
    let fence = |scope| InstrKind::Fence {
        sem: Sem::Sc,
        scope,
        spelling: FenceSpelling::Membar,
    };
    assert_eq!(kinds(&file("MP+membar.gl.litmus"), 1)[1], fence(Scope::Gpu));
    assert_eq!(
        kinds(&file("MP+membar.cta.litmus"), 1)[1],
        fence(Scope::Cta)
    );
    assert_eq!(
        kinds(&file("MP+membar.sys+2gpus.litmus"), 1)[1],
        fence(Scope::Sys)
    );
}

#[test]
fn volatile_shared_and_cache_operators() {
    let t = file("SB+membar.cta+shared.litmus");
    assert!(t.locations.iter().all(|l| l.space == Space::Shared));
    let volatile = Access {
        sem: Sem::Volatile,
        scope: None,
    };
    assert_eq!(
        kinds(&t, 0)[2],
        InstrKind::Load {
            dst: n("r0"),
            loc: n("b"),
            access: volatile,
            cache: None
        }
    );
    let t = file("MP+membar.gl+ca.litmus");
    assert!(matches!(
        kinds(&t, 0)[0],
        InstrKind::Store {
            cache: Some(CacheOp::Wt),
            ..
        }
    ));
    assert!(matches!(
        kinds(&t, 1)[0],
        InstrKind::Load {
            cache: Some(CacheOp::Ca),
            ..
        }
    ));
}

#[test]
fn atomics_are_relaxed_at_gpu_scope() {
    let t = file("CAS+exch.litmus");
    let relaxed = Access::new(Sem::Relaxed, Scope::Gpu);
    assert_eq!(
        kinds(&t, 0),
        [InstrKind::Atom {
            dst: Some(n("r0")),
            op: AtomOp::Cas,
            loc: n("m"),
            access: relaxed,
            operand: val(0),
            new: Some(val(1)),
        }]
    );
    assert_eq!(
        kinds(&t, 1),
        [InstrKind::Atom {
            dst: Some(n("r0")),
            op: AtomOp::Exch,
            loc: n("m"),
            access: relaxed,
            operand: val(2),
            new: None,
        }]
    );
    let t = file("ATOM+add.litmus");
    assert!(matches!(
        kinds(&t, 0)[0],
        InstrKind::Atom {
            op: AtomOp::Add,
            ..
        }
    ));
    // `exists (x=1)`: a location's final value.
    assert_eq!(
        t.condition.expr,
        Expr::Cmp {
            lhs: Term::Loc(n("x")),
            op: CmpOp::Eq,
            rhs: Term::Imm(Imm::new(1, Origin::NONE)),
        }
    );
}

#[test]
fn setp_and_guarded_bra_become_conditional_branches() {
    let t = file("LB+ctrls.litmus");
    let st = |loc: &str| InstrKind::Store {
        loc: n(loc),
        value: val(1),
        access: Access::WEAK,
        cache: Some(CacheOp::Cg),
    };
    let ld = |loc: &str| InstrKind::Load {
        dst: n("r0"),
        loc: n(loc),
        access: Access::WEAK,
        cache: Some(CacheOp::Cg),
    };
    let label = |l: &str| InstrKind::Label(n(l));
    assert_eq!(
        kinds(&t, 0),
        [
            ld("x"),
            InstrKind::Branch {
                cond: Some((BranchCond::Ne, reg("r0"), val(1))),
                target: n("SKIP0")
            },
            st("y"),
            label("SKIP0"),
        ]
    );
    // `@!p0` negates the `setp.ne`.
    assert_eq!(
        kinds(&t, 1),
        [
            ld("y"),
            InstrKind::Branch {
                cond: Some((BranchCond::Eq, reg("r0"), val(1))),
                target: n("GO1")
            },
            InstrKind::Branch {
                cond: None,
                target: n("DONE1")
            },
            label("GO1"),
            st("x"),
            label("DONE1"),
        ]
    );
}

#[test]
fn scope_trees_with_levels_left_out() {
    // `(device (cta P0 P1) (cta P2))`: P0 and P1 in two warps of CTA 0.
    let t = file("MP+membar.cta+warps.litmus");
    let placements: Vec<Placement> = t.threads.iter().map(|t| t.placement).collect();
    assert_eq!(
        placements,
        [
            Placement {
                warp: Some(0),
                ..Placement::cta(0)
            },
            Placement {
                warp: Some(1),
                ..Placement::cta(0)
            },
            Placement {
                warp: Some(0),
                ..Placement::cta(1)
            },
        ]
    );
    assert_eq!(
        kinds(&t, 0)[3],
        InstrKind::BinOp {
            dst: n("r0"),
            op: BinOp::Add,
            a: reg("r0"),
            b: val(0)
        }
    );
    // `(device P0) (device P1)`: two GPUs.
    let t = file("MP+membar.sys+2gpus.litmus");
    assert_eq!(
        (t.threads[0].placement.gpu, t.threads[1].placement.gpu),
        (0, 1)
    );
    assert_eq!(t.condition.quantifier, Quantifier::NotExists);
}

/// A small test around `code` (rows of two threads) and `tree`, for the
/// forms the corpus does not hold.
fn two_threads(init: &str, code: &str, tree: &str, cond: &str) -> String {
    format!("GPU_PTX t\n{{\n{init}\n}}\n P0 | P1 ;\n{code}\nscopeTree\n{tree}\n{cond}\n")
}

#[test]
fn more_forms() {
    let src = two_threads(
        "x=3; P0:r1=x; 0:r2=5; 1:.reg .u32 r0 = 0x10; 1:.reg .b64 r9 = x;",
        " cvt.u32.s32 r3,r2 | atom.min.u32 r4,[r9],r0 ;\n xor.b32 r5,r3,1 | mul.lo.s32 r6,r4,2 ;\n or.b32 r7,r5,r5 | sub.s32 r8,r6,1 ;",
        "(device (kernel (cta (warp P0 P1))))",
        "forall (0:r7=6 \\/ ~(1:r8=1) /\\ x=3)",
    );
    let t = text::parse(&src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.locations[0].init.value, 3);
    assert_eq!(
        kinds(&t, 0)[0],
        InstrKind::Mov {
            dst: n("r3"),
            src: reg("r2")
        }
    );
    assert!(matches!(
        kinds(&t, 1)[0],
        InstrKind::Atom {
            op: AtomOp::Min,
            ..
        }
    ));
    assert!(matches!(
        kinds(&t, 1)[1],
        InstrKind::BinOp { op: BinOp::Mul, .. }
    ));
    // Both in one warp of one CTA.
    assert_eq!(t.threads[0].placement, t.threads[1].placement);
    assert_eq!(t.threads[1].init[0].value.value, 0x10);
    assert_eq!(t.condition.quantifier, Quantifier::Forall);
}

/// The ASPLOS'15 listings' spelling reads too: threads `T<n>` in the
/// header row and the scope tree, `ScopeTree`, a `grid` for the device.
/// The IR names the threads `P<n>` either way (the printed text must be
/// one herd7 reads), so the two spellings read to equal tests.
#[test]
fn the_asplos_listings_spelling_reads_as_herds() {
    let src = |header: &str, tree: &str, cond: &str| {
        format!("GPU_PTX CoRR-grid\n{{\n0:.reg .b64 r1 = x;\n1:.reg .s32 r0;\n1:.reg .s32 r2;\n1:.reg .b64 r1 = x;\n}}\n {header} ;\n st.cg.s32 [r1],1 | ld.cg.s32 r0,[r1] ;\n | ld.cg.s32 r2,[r1] ;\n\n{tree}\n\nexists ({cond})\n")
    };
    let parse = |s: String| text::parse(&s).unwrap_or_else(|e| panic!("{}", e.render("t")));
    let herd = parse(src(
        "P0 | P1",
        "scopeTree (device (cta (warp P0) (warp P1)))",
        "1:r0=1 /\\ P1:r2=0",
    ));
    let listing = parse(src(
        "T0 | T1",
        "ScopeTree (grid (cta (warp T0) (warp T1)))",
        "1:r0=1 /\\ T1:r2=0",
    ));
    assert_eq!(listing, herd);
    let names: Vec<&str> = listing
        .threads
        .iter()
        .map(|t| t.name.text.as_str())
        .collect();
    assert_eq!(names, ["P0", "P1"]);
    let p = &listing.threads[1].placement;
    assert_eq!((p.gpu, p.cta, p.warp), (0, 0, Some(1)));
    // `T1:r2` is thread 1's register, as `1:r2` is.
    let Expr::And(_, r2) = &listing.condition.expr else {
        panic!("{:?}", listing.condition.expr)
    };
    assert!(
        matches!(&**r2, Expr::Cmp { lhs: Term::Reg { thread, reg }, .. } if thread.text == "P1" && reg.text == "r2"),
        "{r2:?}"
    );
    // Printed, the threads are herd's `P<n>`, which herd7 reads.
    let printed = text::print(&listing);
    assert!(
        printed.contains(" P0@cta 0,gpu 0,warp 0 | P1@cta 0,gpu 0,warp 1 ;"),
        "{printed}"
    );
    assert!(
        !printed.contains("T0") && !printed.contains("T1"),
        "{printed}"
    );
}

/// Each test of `asplos15/` (the paper's `T0 | T1` form) reads to the
/// same IR as its twin in herd's `P0 | P1` form, the file of the same
/// name one folder up; their `ptx-2015` verdicts are compared in
/// litmus-model's `tests/gpu_ptx.rs`.
#[test]
fn the_papers_form_reads_as_its_herd_twin() {
    let twins = files_in("asplos15");
    let names: Vec<&str> = twins.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "asplos15/CoRR.litmus",
            "asplos15/IRIW.litmus",
            "asplos15/MP.litmus",
            "asplos15/SB.litmus"
        ]
    );
    for (name, src) in twins {
        // The paper's form for real: no `P<n>` thread, `T<n>` ones.
        assert!(
            src.contains("\n T0 ") && src.contains("ScopeTree(grid("),
            "{name}"
        );
        assert!(!src.contains(" P0") && !src.contains("(warp P"), "{name}");
        let twin = name.trim_start_matches("asplos15/");
        let herd_src = std::fs::read_to_string(corpus_dir().join(twin)).unwrap();
        assert!(herd_src.contains("\n P0 "), "{twin}");
        let paper = text::parse(&src).unwrap_or_else(|e| panic!("{}", e.render(&name)));
        let herd = text::parse(&herd_src).unwrap_or_else(|e| panic!("{}", e.render(twin)));
        assert_eq!(paper, herd, "{name} and {twin}");
    }
}
