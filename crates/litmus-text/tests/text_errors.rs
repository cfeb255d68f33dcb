//! Every kind of mistake the text reader reports, with its `line:column`
//! and message: syntax errors from the reader, validation errors from
//! `litmus_core::validate`, all through `text::parse`.

use litmus_core::ir::Origin;
use litmus_core::ValidationErrorKind;
use litmus_text::{self as text, DiagnosticKind, SyntaxError};

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

/// A one-thread test around `body` (one instruction row per line), with
/// `x` declared; instructions start on line 4, column 2.
fn one_thread(body: &str, cond: &str) -> String {
    let rows: String = body.lines().map(|l| format!(" {l} ;\n")).collect();
    format!("PTX t\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n{rows}exists ({cond})")
}

// ---- validation errors, positioned by the origins the reader stores ----

#[test]
fn an_undeclared_location_is_no_error() {
    // herd7 and Dat3M read it as 0 (see `text_undeclared.rs`); the macro
    // refuses it (tests/ui/fail/unknown_location.rs).
    let test = text::parse(&one_thread("ld.weak r0, y", "P0:r0 == 0")).unwrap();
    assert_eq!(test.locations[1].name.text, "y");
}

#[test]
fn read_before_write() {
    assert_eq!(
        errors(&one_thread("st.weak x, r1", "x == 0")),
        "4:13: register `r1` is read before any write in thread `P0` (initialise it or write it first)"
    );
}

#[test]
fn register_in_init_block_counts_as_written() {
    let src = "PTX t\n{ x=0; P0:r1=3; }\n P0@cta 0,gpu 0 ;\n st.weak x, r1 ;\nexists (P0:r1 == 3)";
    text::parse(src).unwrap();
}

#[test]
fn bad_semantics() {
    assert_eq!(
        errors(&one_thread("ld.release.gpu r0, x\nst.acquire.gpu x, 1\nfence.relaxed.gpu", "P0:r0 == 0")),
        "4:2: `ld` does not take `.release` semantics; loads take .weak, .relaxed, .acquire or .volatile\n\
         5:2: `st` does not take `.acquire` semantics; stores take .weak, .relaxed, .release or .volatile\n\
         6:2: `fence` does not take `.relaxed` semantics; fences take .sc, .acq_rel, .acquire or .release"
    );
}

#[test]
fn bad_atom_semantics() {
    assert_eq!(
        errors(&one_thread("atom.weak.gpu.add r0, x, 1", "x == 0")),
        "4:2: `atom` does not take `.weak` semantics; atomics take .relaxed, .acquire, .release or .acq_rel"
    );
}

#[test]
fn scope_missing_or_unexpected() {
    assert_eq!(
        errors(&one_thread("st.relaxed x, 1\nld.weak.gpu r0, x", "x == 0")),
        "4:2: `st.relaxed` needs a scope (.cta, .cluster, .gpu or .sys)\n\
         5:2: `ld.weak` takes no scope, found `.gpu`"
    );
}

#[test]
fn missing_label() {
    assert_eq!(
        errors(&one_thread("goto L1", "x == 0")),
        "4:7: branch to missing label `L1`"
    );
}

#[test]
fn duplicate_label() {
    assert_eq!(
        errors(&one_thread("L:\nL:", "x == 0")),
        "5:2: label `L` is defined twice in one thread"
    );
}

#[test]
fn value_out_of_32_bits() {
    let src = "PTX t\n{ x=4294967296; }\n P0@cta 0,gpu 0 ;\n st.weak x, -2147483649 ;\nexists (x == 4294967295)";
    assert_eq!(
        errors(src),
        "2:5: value 4294967296 does not fit 32 bits (expected -2147483648 ..= 4294967295)\n\
         4:13: value -2147483649 does not fit 32 bits (expected -2147483648 ..= 4294967295)"
    );
}

#[test]
fn shared_location_across_ctas() {
    let src = "PTX t\n{ shared x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (x == 0)";
    assert_eq!(
        errors(src),
        "4:29: shared location `x` is used by threads in different CTAs (`P0` and `P1`): shared memory belongs to one CTA"
    );
}

#[test]
fn warp_past_the_last_one_of_a_cta() {
    let src =
        "PTX t\n{ x=0; }\n P0@cta 0,gpu 0,warp 4294967295 ;\n st.weak x, 1 ;\nexists (x == 1)";
    assert_eq!(
        errors(src),
        "3:2: thread `P0` is placed in warp 4294967295, but a CTA holds at most 32 warps (0 to 31)"
    );
}

#[test]
fn cluster_shared_location_across_clusters() {
    let src = "PTX t\n{ shared::cluster x=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 1 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (x == 0)";
    assert_eq!(
        errors(src),
        "4:29: cluster-shared location `x` is used by threads in different clusters (`P0` and `P1`)"
    );
}

#[test]
fn duplicate_thread() {
    let src = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P0@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak x, 2 ;\nexists (x == 0)";
    assert_eq!(errors(src), "3:19: duplicate thread name `P0`");
}

#[test]
fn duplicate_location_and_register_init() {
    let src = "PTX t\n{ x=0; x=1; P0:r0=1; P0:r0=2; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)";
    assert_eq!(
        errors(src),
        "2:8: duplicate location `x`\n2:25: register `r0` of thread `P0` is initialised twice"
    );
}

#[test]
fn unknown_condition_register_and_thread() {
    assert_eq!(
        errors(&one_thread("st.weak x, 1", "P0:r5 == 0 \\/ P9:r0 == 1")),
        "5:12: the condition names register `r5`, which thread `P0` never writes\n\
         5:23: unknown thread `P9`"
    );
}

#[test]
fn cache_operators() {
    assert_eq!(
        errors(&one_thread(
            "st.weak.ca x, 1\nld.acquire.gpu.ca r0, x",
            "x == 0"
        )),
        "4:2: cache operator `.ca` is not allowed on stores; stores take .wb, .cg, .cs or .wt\n\
         5:2: cache operator on a `.acquire` access: only weak loads and stores take one"
    );
}

#[test]
fn cluster_scope_without_clusters_and_membar_cluster() {
    assert_eq!(
        errors(&one_thread("fence.sc.cluster\nmembar.cluster", "x == 0")),
        "4:2: the scope `.cluster` needs threads placed in clusters\n\
         5:2: `membar` has no `.cluster` level (use `fence.sc.cluster`)\n\
         5:2: the scope `.cluster` needs threads placed in clusters"
    );
}

#[test]
fn cas_operands() {
    assert_eq!(
        errors(&one_thread(
            "atom.relaxed.gpu.cas r0, x, 1\natom.relaxed.gpu.add r1, x, 1, 2",
            "x == 0"
        )),
        "4:2: `cas` needs a compare value and a new value\n\
         5:33: only `cas` takes a second value, `add` does not"
    );
}

#[test]
fn no_threads() {
    assert_eq!(
        errors("PTX empty\n{ x=0; }\nexists (x == 0)"),
        "1:5: the test has no threads"
    );
}

#[test]
fn all_validation_errors_at_once() {
    let err = text::parse(&one_thread(
        "ld.release.gpu r0, x\nst.weak x, r7\ngoto L",
        "P0:r3 == 0",
    ))
    .unwrap_err();
    let kinds: Vec<_> = err.diagnostics.iter().map(|d| &d.kind).collect();
    assert!(matches!(
        kinds.as_slice(),
        [
            DiagnosticKind::Invalid(ValidationErrorKind::BadSemantics { .. }),
            DiagnosticKind::Invalid(ValidationErrorKind::RegisterReadBeforeWrite { .. }),
            DiagnosticKind::Invalid(ValidationErrorKind::MissingLabel(_)),
            DiagnosticKind::Invalid(ValidationErrorKind::UnknownConditionRegister { .. }),
        ]
    ));
}

// ---- syntax errors ----

#[test]
fn unexpected_token() {
    assert_eq!(
        errors(&one_thread("st.weak x, 1 x", "x == 0")),
        "4:15: expected `,` between operands, or `|` or `;` after the instruction, found `x`"
    );
}

#[test]
fn unexpected_character() {
    assert_eq!(
        errors(&one_thread("st.weak x, 1 #", "x == 0")),
        "4:15: unexpected character '#'"
    );
}

#[test]
fn unterminated_string() {
    // Nothing more: the string ate the rest of the file.
    assert_eq!(
        errors("PTX t\n\"unterminated\n{ x=0; }"),
        "2:1: unterminated string: expected a closing `\"`"
    );
}

#[test]
fn unknown_instruction_and_qualifiers() {
    assert_eq!(
        errors(&one_thread("foo r0, x\nld.bogus r0, x\nld.weak.relaxed r0, x\nadd.s32 r0, r0, 1", "x == 0")),
        "4:2: unknown instruction `foo`: expected ld, st, suld, sust, tld, cold, mov, fence, membar, atom, red, bar, cp, mbarrier, add, sub, mul, and, or, xor, goto, beq, bne or a label `L:`\n\
         5:5: unknown qualifier `.bogus` on `ld`: expected semantics (.weak, .relaxed, .acquire, .release, .volatile), a scope (.cta, .cluster, .gpu, .sys) or a cache operator (.ca, .cg, .cs, .lu, .cv, .wb, .wt)\n\
         6:10: `ld` has two semantics qualifiers, `.weak` and `.relaxed`\n\
         7:6: unknown qualifier `.s32` on `add`: expected no qualifiers"
    );
}

#[test]
fn missing_qualifiers() {
    assert_eq!(
        errors(&one_thread("fence.sc\nfence.gpu\nmembar.gpu\natom.relaxed.gpu r0, x, 1\nbar 1", "x == 0")),
        "4:2: `fence` needs a scope (.cta, .cluster, .gpu or .sys)\n\
         5:2: `fence` needs semantics (.sc, .acq_rel, .acquire or .release)\n\
         6:9: unknown qualifier `.gpu` on `membar`: expected a level (.cta, .gl or .sys)\n\
         7:2: `atom` needs an operation (.exch, .add, .sub, .and, .or, .xor, .min, .max, .inc, .dec or .cas)\n\
         8:2: `bar` needs `bar.cta.sync`, `bar.cta.arrive`, `bar.sync`, `bar.arrive` or `bar.warp.sync`"
    );
}

#[test]
fn operands() {
    assert_eq!(
        errors(&one_thread("ld.weak r0\nst.weak 1, x\nbar.cta.sync r0\nbar.warp.sync 3\nred.relaxed.gpu.add r0, x, 1\nbeq r0, 0, 5", "x == 0")),
        "4:2: `ld` takes 2 operands (`ld.<sem>.<scope> r, x`), found 1\n\
         5:10: expected a location as operand 1 of `st`, found the number `1`\n\
         6:15: expected a number as operand 1 of `bar`, found `r0`\n\
         7:16: `bar.warp.sync` takes only the full mask 0xffffffff, found 3\n\
         8:2: `red` takes 2 operands (`red.<sem>.<scope>.<op> x, v`; `atom` has a result register), found 3\n\
         9:13: expected a label as operand 3 of `beq`, found the number `5`"
    );
}

#[test]
fn numbers() {
    assert_eq!(
        errors(&one_thread(
            "st.weak x, 12ab\nst.weak x, 0x",
            "x == 99999999999999999999"
        )),
        "4:13: invalid number `12ab`: expected decimal digits or 0x and hex digits\n\
         5:13: invalid number `0x`: expected decimal digits or 0x and hex digits\n\
         6:14: number `99999999999999999999` is too large (expected -2147483648 ..= 4294967295)"
    );
}

#[test]
fn header() {
    assert_eq!(
        errors("hello\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"),
        "1:1: expected `PTX <name>` or `GPU_PTX <name>` at the start of the file, found `hello`"
    );
    assert_eq!(
        errors("PTX\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"),
        "1:4: expected the test name after `PTX`, found end of line"
    );
    assert_eq!(
        errors(""),
        "1:1: expected `PTX <name>` or `GPU_PTX <name>` at the start of the file, found end of file"
    );
}

#[test]
fn init_block() {
    assert_eq!(
        errors("PTX t\n{ x=0 y=0; z; P0:r0=w; 1:=0 }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"),
        "2:7: expected `;` or `}` after an initialisation, found `y`\n\
         2:13: expected `=` and an initial value, found `;`\n\
         2:21: expected a number after `=`, found `w`\n\
         2:26: expected a register name after `:`, found `=`"
    );
    assert_eq!(
        errors("PTX t\n x=0;\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"),
        "2:2: expected `{` to open the init block, found `x`"
    );
}

#[test]
fn init_block_thread_references() {
    assert_eq!(
        errors(
            "PTX t\n{ x=0; P3:r0=1; 4:r0=1; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"
        ),
        "2:8: unknown thread `P3` in the init block: expected a thread of the header row\n\
         2:17: no thread has index 4: the test has 1 thread, numbered from 0"
    );
}

#[test]
fn thread_header() {
    assert_eq!(
        errors("PTX t\n{ x=0; }\n P0@cta 0,gpu 0,cta 1 | P1@cta -1 | P2@cta 0 gpu 0 | P3@block 0 ;\n | | | ;\nexists (x == 0)"),
        "3:17: `cta` is given twice in this placement\n\
         3:32: cta -1 does not fit 32 bits unsigned (expected 0 ..= 4294967295)\n\
         3:46: expected `,` and another placement, `|` or `;`, found `gpu`\n\
         3:57: expected `cta`, `gpu`, `cluster` or `warp`, found `block`"
    );
}

#[test]
fn cell_count() {
    assert_eq!(
        errors(
            "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 0)"
        ),
        "4:2: this row has 1 cell, expected 2 (one per thread)"
    );
}

#[test]
fn row_without_semicolon() {
    assert_eq!(
        errors("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1\nexists (x == 0)"),
        "5:1: expected `;` at the end of the row, found `exists`"
    );
}

#[test]
fn label_followed_by_more() {
    assert_eq!(
        errors(&one_thread("L: st.weak x, 1", "x == 0")),
        "4:5: expected `|` or `;` after the label, found `st`"
    );
}

#[test]
fn condition_errors() {
    assert_eq!(
        errors(&one_thread("st.weak x, 1", "x == 0 /\\ ")),
        "5:19: expected a register (`P0:r0`), a location or a number, found `)`"
    );
    assert_eq!(
        errors(&one_thread("st.weak x, 1", "x").replace("(x)", "((x == 0)")),
        "5:17: expected `)`, `/\\` or `\\/`, found end of file"
    );
    assert_eq!(
        errors(&one_thread("st.weak x, 1", "x 0")),
        "5:11: expected `==`, `=` or `!=`, found `0`"
    );
    assert_eq!(
        errors(&one_thread("st.weak x, 1", "2:r0 == 0")),
        "5:9: no thread has index 2: the test has 1 thread, numbered from 0"
    );
    assert_eq!(
        errors("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n"),
        "5:1: expected the condition (`exists`, `~exists` or `forall`), found end of file"
    );
}

#[test]
fn verdict_and_trailing_text() {
    assert_eq!(
        errors(&format!(
            "{} => maybe",
            one_thread("st.weak x, 1", "x == 1")
        )),
        "5:20: expected `allowed`, `forbidden`, `terminates` or `may hang` after `=>`, found `maybe`"
    );
    assert_eq!(
        errors(&format!("{} junk", one_thread("st.weak x, 1", "x == 1"))),
        "5:17: expected the end of the file after the condition, found `junk`"
    );
}

#[test]
fn several_syntax_errors_at_once() {
    // One bad cell does not hide the next: each cell is read on its own.
    let src = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.bogus r0, x | st.weak x ;\n foo | ld.weak r1, x ;\nexists (x == 0)";
    let err = text::parse(src).unwrap_err();
    let positions: Vec<String> = err
        .diagnostics
        .iter()
        .map(|d| d.position.unwrap().to_string())
        .collect();
    assert_eq!(positions, ["4:5", "4:19", "5:2"]);
    assert!(err
        .diagnostics
        .iter()
        .all(|d| matches!(d.kind, DiagnosticKind::Syntax(_))));
}

#[test]
fn error_count_is_bounded() {
    let err = text::parse(&"#\n".repeat(10_000)).unwrap_err();
    assert_eq!(err.diagnostics.len(), 101);
    assert!(matches!(
        err.diagnostics.last().unwrap().kind,
        DiagnosticKind::Syntax(SyntaxError::TooManyErrors(100))
    ));
}

// ---- rendering and positions ----

#[test]
fn render_prefixes_the_path() {
    let err = text::parse(&one_thread("ld.weak.gpu r0, x\nst.weak x, r1", "x == 0")).unwrap_err();
    assert_eq!(
        err.render("tests/mp.litmus"),
        "tests/mp.litmus:4:2: `ld.weak` takes no scope, found `.gpu`\n\
         tests/mp.litmus:5:13: register `r1` is read before any write in thread `P0` (initialise it or write it first)\n"
    );
}

#[test]
fn columns_count_characters() {
    // `é` is two bytes, one column; a tab is one column.
    let src = "PTX été\n{ x=0; }\n P0@cta 0,gpu 0 ;\n\tst.weak x, r9 ;\nexists (x == 0)";
    assert_eq!(
        errors(src),
        "4:13: register `r9` is read before any write in thread `P0` (initialise it or write it first)"
    );
    let p = text::position("é\néa", Origin(5)).unwrap();
    assert_eq!((p.line, p.column), (2, 2));
}

#[test]
fn position_never_panics() {
    let src = "aé\nb";
    for off in 0..10 {
        let p = text::position(src, Origin(off)).unwrap();
        assert!(p.line <= 2);
    }
    assert_eq!(text::position(src, Origin::NONE), None);
    assert_eq!(text::position("", Origin(0)).unwrap().to_string(), "1:1");
}
