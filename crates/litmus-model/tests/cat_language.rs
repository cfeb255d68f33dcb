//! The cat language as the interpreter reads it: errors with file, line
//! and column; `include` relative to the including file; `let rec`; the
//! operators; `flag`; explanations that name the failing check.

mod common;

use std::path::{Path, PathBuf};

use litmus_model::cat::{CatError, CatErrorKind, CatModel};
use litmus_model::{check, explain_condition, model_by_name, Model, Options};

fn compile(src: &str) -> Result<CatModel, CatError> {
    CatModel::from_source(Path::new("t.cat"), src, &mut |p| {
        Err(format!("no file {}", p.display()).into())
    })
}

fn error_at(src: &str) -> (usize, usize, CatErrorKind) {
    match compile(src).unwrap_err() {
        CatError::At { file, pos, kind } => {
            assert_eq!(file, "t.cat");
            (pos.line as usize, pos.column as usize, kind)
        }
        e => panic!("{e}"),
    }
}

#[test]
fn unknown_names_type_errors_and_syntax_errors_say_where() {
    let (l, c, k) = error_at("let a = po\n\nacyclic a | rff as x");
    assert_eq!((l, c), (3, 13));
    assert!(
        matches!(&k, CatErrorKind::UnknownName(n, _) if n == "rff"),
        "{k}"
    );

    // A set where a relation is needed.
    let (l, c, k) = error_at("let a = po\nacyclic a; W");
    assert_eq!((l, c), (2, 9));
    assert!(matches!(k, CatErrorKind::Type(_)), "{k}");
    let (_, _, k) = error_at("let s = R * po");
    assert!(k.to_string().contains("product"), "{k}");
    let (l, c, _) = error_at("let x = [po]");
    assert_eq!((l, c), (1, 9));
    let (_, _, k) = error_at("acyclic W");
    assert!(k.to_string().contains("acyclic"), "{k}");

    let (l, c, k) = error_at("let a = (po | rf\nlet b = a");
    assert_eq!((l, c), (2, 1));
    assert!(matches!(k, CatErrorKind::Syntax(_)), "{k}");
    let (l, c, _) = error_at("let a = po\n  (* never closed");
    assert_eq!((l, c), (2, 3));
    let (_, _, k) = error_at("let f(x) = x");
    assert!(matches!(k, CatErrorKind::Unsupported(_)), "{k}");
    let (l, c, k) = error_at("let a = po\n  procedure p() = acyclic a end");
    assert_eq!((l, c), (2, 3));
    assert!(matches!(k, CatErrorKind::Unsupported(_)), "{k}");
    // A name is defined only after its `let`.
    let (l, c, _) = error_at("let a = b\nlet b = po");
    assert_eq!((l, c), (1, 9));

    let whole = compile("acyclic po | nope").unwrap_err().to_string();
    assert!(
        whole.starts_with("t.cat:1:14: unknown name `nope`"),
        "{whole}"
    );
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("litmus-cat-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(d.join("lib")).unwrap();
    d
}

#[test]
fn include_is_relative_to_the_including_file_and_refuses_cycles() {
    let d = temp_dir("include");
    std::fs::write(
        d.join("main.cat"),
        "\"m\"\ninclude \"lib/defs.cat\"\nacyclic com | po as sc\n",
    )
    .unwrap();
    std::fs::write(
        d.join("lib/defs.cat"),
        "include \"more.cat\"\nlet com = rf | co | fr2\n",
    )
    .unwrap();
    std::fs::write(d.join("lib/more.cat"), "let fr2 = rf^-1; co\n").unwrap();
    let m = litmus_model::cat::load(&d.join("main.cat")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.check_names(), ["sc"]);

    std::fs::write(d.join("lib/more.cat"), "include \"defs.cat\"\n").unwrap();
    let e = litmus_model::cat::load(&d.join("main.cat"))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("cycle of includes") && e.contains("more.cat:1:1"),
        "{e}"
    );
    // The same cycle through a path spelled differently.
    std::fs::write(d.join("lib/more.cat"), "include \"../lib/./defs.cat\"\n").unwrap();
    let e = litmus_model::cat::load(&d.join("main.cat"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("cycle of includes"), "{e}");

    std::fs::write(d.join("lib/defs.cat"), "\n  include \"gone.cat\"\n").unwrap();
    let e = litmus_model::cat::load(&d.join("main.cat"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("defs.cat:2:3") && e.contains("gone.cat"), "{e}");
    std::fs::remove_dir_all(&d).ok();
}

const MP: &str = "PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)";

fn outcomes(m: &dyn Model, src: &str) -> usize {
    check(&common::parse(src), m, &Options::default())
        .unwrap()
        .allowed
        .len()
}

#[test]
fn let_rec_is_the_least_fixed_point_with_mutual_recursion() {
    // a = po+ and b = a, computed by mutual recursion from the empty set;
    // a wrong fixed point (empty, or anything but po+) breaks a check and
    // leaves no outcome.
    let m = compile(
        "let rec a = po | (b; po) and b = a\n\
         empty a \\ po as below\nempty po \\ b as above\nempty a \\ po+ as exact",
    )
    .unwrap();
    assert_eq!(outcomes(&m, MP), 4);
    let wrong = compile("let rec a = po | (a; po)\nempty po \\ (a; a) as above").unwrap();
    assert_eq!(outcomes(&wrong, MP), 0);
}

#[test]
fn every_operator_spells_sc_the_same_way() {
    // SC written with closures, products, complements, domain/range,
    // `toid`, `0`, `_`, `id` and `?`: the same outcomes as the built-in.
    let m = compile(
        "\"sc, the long way\"\n\
         let com = rf | co | fr | 0\n\
         let events = domain(po | com | id) | range(id)\n\
         let bar-order = (toid(_ \\ BAR); (po?; syncbar; po?); [~BAR]) \\ id\n\
         let hb = (po | com | bar-order)^+\n\
         irreflexive hb & (events * events) as sc\n\
         acyclic ((po | com)* \\ id) as sc-star\n\
         empty ((fr; co) & rmw) | (id & ~id) as atomicity\n\
         empty ([M] \\ (id & (M * M))) | ([W] \\ [W & M]) as sets\n\
         empty R & W as kinds\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let files = common::repo_litmus_files();
    common::assert_same_outcomes(&files, &m, model_by_name("sc").unwrap());
}

#[test]
fn flags_are_reported_and_never_reject() {
    let m = compile(
        "flag ~empty rf & ext as cross-thread-read\n\
         flag ~empty [F] as has-fence\n\
         acyclic po | rf | co | fr as sc",
    )
    .unwrap();
    assert_eq!(outcomes(&m, MP), 3);
    assert_eq!(m.raised_flags(), ["cross-thread-read"]);
}

#[test]
fn explanations_name_the_check_and_give_its_cycle() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../models/ptx.cat");
    let m = model_by_name(path.to_str().unwrap()).unwrap();
    let test = common::parse(
        "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)",
    );
    let e = explain_condition(&test, m, &Options::default()).unwrap();
    assert!(e.forbidden());
    let first = &e.rejections[0];
    assert_eq!(first.axiom, "Causality", "{}", e.to_text(5));
    let labels: Vec<&str> = first.witness.iter().map(|w| w.label).collect();
    // `cause` spelled out in base edges: po to the release, rf to the
    // acquire, po to the read.
    assert_eq!(labels, ["fr", "po", "rf", "po"], "{}", e.to_text(5));
    let w = &first.witness;
    for i in 0..w.len() {
        assert_eq!(w[i].to, w[(i + 1) % w.len()].from, "not a cycle: {w:?}");
    }
}

#[test]
fn a_bad_cat_path_is_an_error_that_names_the_file() {
    let e = model_by_name("no/such/model.cat").unwrap_err().to_string();
    assert!(e.contains("cannot load model `no/such/model.cat`"), "{e}");
    assert!(e.contains("cannot read cat file no/such/model.cat"), "{e}");
}

#[test]
fn recursion_through_a_complement_and_runaway_nesting_are_errors() {
    let (l, c, k) = error_at("let x = po\nlet rec a = po | ~a");
    assert_eq!((l, c), (2, 9));
    assert!(k.to_string().contains("least fixed point"), "{k}");
    let (_, _, k) = error_at("let rec a = po \\ (a; po)");
    assert!(matches!(k, CatErrorKind::Type(_)), "{k}");
    // Through the right of a difference twice is growing again.
    assert!(compile("let rec a = po \\ (po \\ a)").is_ok());

    let deep = format!("let a = {}po{}", "(".repeat(5000), ")".repeat(5000));
    let (_, _, k) = error_at(&deep);
    assert!(matches!(k, CatErrorKind::Limit(_)), "{k}");
    let chain: String = (0..1000)
        .map(|i| format!("let a{} = a{i}; po\n", i + 1))
        .collect();
    let (_, _, k) = error_at(&format!("let a0 = po\n{chain}"));
    assert!(matches!(k, CatErrorKind::Limit(_)), "{k}");
}
