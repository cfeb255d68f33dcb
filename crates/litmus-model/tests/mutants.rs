//! Mutants of cat models (`cat::mutate`), their classification over tests
//! (`compare`), the shared search that runs them (`cat::batch`), and model
//! diffs.

use std::path::{Path, PathBuf};

use litmus_core::corpus;
use litmus_core::ir::{Test, Verdict};
use litmus_model::cat::mutate::{mutate, mutate_file, Direction, Operator};
use litmus_model::cat::{CatError, CatModel, IncludeError};
use litmus_model::compare::{classify, diff, Class, Verdicts};
use litmus_model::{model_by_name, Model, Options};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn no_include(p: &Path) -> Result<String, IncludeError> {
    Err(format!("no include expected, got {}", p.display()).into())
}

fn parse(path: &Path) -> Test {
    let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    litmus_text::parse(&src).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The repository's `.litmus` files.
fn repo_tests() -> Vec<Test> {
    let mut out = Vec::new();
    for dir in ["equal", "files", "undeclared"] {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/litmus").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "litmus"))
            .collect();
        paths.sort();
        out.extend(paths.iter().map(|p| parse(p)));
    }
    out
}

fn mp() -> Test {
    parse(&repo().join("tests/litmus/files/mp_relaxed_gpu.litmus"))
}

#[test]
fn a_tiny_model_has_exactly_these_mutants_in_file_order() {
    let src =
        "\"tiny\"\nlet com = rf | co\nacyclic po | com as sc\nirreflexive [W & REL]; po? as x\n";
    let m = mutate("tiny.cat".as_ref(), src, &mut no_include).unwrap();
    let got: Vec<(&str, u32, u32, Direction, &str)> = m
        .mutants
        .iter()
        .map(|x| {
            assert_eq!(x.file, "tiny.cat");
            (
                x.operator.name(),
                x.pos.line,
                x.pos.column,
                x.direction,
                x.description.as_str(),
            )
        })
        .collect();
    use Direction::*;
    let want: Vec<(&str, u32, u32, Direction, &str)> = vec![
        (
            "drop-union-term",
            2,
            11,
            Weakening,
            "drop `rf` from the union `rf | co`",
        ),
        (
            "drop-union-term",
            2,
            16,
            Weakening,
            "drop `co` from the union `rf | co`",
        ),
        (
            "base-to-empty",
            2,
            11,
            Weakening,
            "replace `rf` by the empty relation",
        ),
        (
            "base-to-full",
            2,
            11,
            Strengthening,
            "replace `rf` by the full relation",
        ),
        (
            "base-to-empty",
            2,
            16,
            Weakening,
            "replace `co` by the empty relation",
        ),
        (
            "base-to-full",
            2,
            16,
            Strengthening,
            "replace `co` by the full relation",
        ),
        ("drop-check", 3, 1, Weakening, "drop the check `sc`"),
        (
            "acyclic-to-irreflexive",
            3,
            1,
            Weakening,
            "`acyclic` → `irreflexive` in the check `sc`",
        ),
        (
            "drop-union-term",
            3,
            9,
            Weakening,
            "drop `po` from the union `po | com`",
        ),
        (
            "drop-union-term",
            3,
            14,
            Weakening,
            "drop `com` from the union `po | com`",
        ),
        (
            "base-to-empty",
            3,
            9,
            Weakening,
            "replace `po` by the empty relation",
        ),
        (
            "base-to-full",
            3,
            9,
            Strengthening,
            "replace `po` by the full relation",
        ),
        ("drop-check", 4, 1, Weakening, "drop the check `x`"),
        (
            "irreflexive-to-acyclic",
            4,
            1,
            Strengthening,
            "`irreflexive` → `acyclic` in the check `x`",
        ),
        // `[S]` is part of the identity: dropping it can only add pairs.
        (
            "drop-seq-term",
            4,
            13,
            Strengthening,
            "drop `[W & REL]` from the sequence `[W & REL]; po?`",
        ),
        (
            "drop-seq-term",
            4,
            24,
            Unknown,
            "drop `po?` from the sequence `[W & REL]; po?`",
        ),
        (
            "drop-inter-term",
            4,
            14,
            Strengthening,
            "drop `W` from the intersection `W & REL`",
        ),
        (
            "drop-inter-term",
            4,
            18,
            Strengthening,
            "drop `REL` from the intersection `W & REL`",
        ),
        (
            "base-to-empty",
            4,
            14,
            Weakening,
            "replace `W` by the empty set",
        ),
        (
            "base-to-full",
            4,
            14,
            Strengthening,
            "replace `W` by every event",
        ),
        (
            "base-to-empty",
            4,
            18,
            Weakening,
            "replace `REL` by the empty set",
        ),
        (
            "base-to-full",
            4,
            18,
            Strengthening,
            "replace `REL` by every event",
        ),
        ("drop-opt", 4, 24, Weakening, "drop `?` from `po?`"),
        (
            "base-to-empty",
            4,
            24,
            Weakening,
            "replace `po` by the empty relation",
        ),
        (
            "base-to-full",
            4,
            24,
            Strengthening,
            "replace `po` by the full relation",
        ),
        (
            "base-everywhere-to-empty",
            3,
            9,
            Weakening,
            "replace every use of `po` (2 uses) by the empty relation",
        ),
        (
            "base-everywhere-to-full",
            3,
            9,
            Strengthening,
            "replace every use of `po` (2 uses) by the full relation",
        ),
        // The model has `REL` but no `ACQ`: no relaxed-as-release-acquire.
        // At the end of the file: the line after the last, which ends
        // in a newline.
        (
            "add-sc-axiom",
            5,
            1,
            Strengthening,
            "plain SC: add the axiom `acyclic po | rf | co | fr` at the end of the file",
        ),
    ];
    assert_eq!(got, want);
    assert_eq!((m.skipped.len(), m.duplicates), (0, 0));
    // A mutant is the model's text with one edit.
    let drop_fr = &m.mutants[1].source;
    assert!(drop_fr.contains("let com = rf\n"), "{drop_fr}");
    assert_eq!(
        m.base_source,
        "\"tiny.cat\"\nlet com = rf | co\nacyclic po | com as sc\nirreflexive [W & REL]; po? as x\n"
    );
}

#[test]
fn mutants_of_an_included_file_say_which_file() {
    let main = "include \"lib.cat\"\nacyclic po | com as sc\n";
    let mut read = |p: &Path| -> Result<String, IncludeError> {
        assert_eq!(p, Path::new("dir/lib.cat"));
        Ok("(* lib *)\nlet com = rf | co | fr\n".to_string())
    };
    let m = mutate("dir/main.cat".as_ref(), main, &mut read).unwrap();
    let in_lib: Vec<_> = m
        .mutants
        .iter()
        .filter(|x| x.file == "dir/lib.cat")
        .collect();
    assert!(in_lib
        .iter()
        .any(|x| x.operator == Operator::DropUnionTerm && (x.pos.line, x.pos.column) == (2, 21)));
    let check = m
        .mutants
        .iter()
        .find(|x| x.operator == Operator::DropCheck)
        .unwrap();
    assert_eq!(
        (check.file.as_str(), check.pos.line, check.pos.column),
        ("dir/main.cat", 2, 1)
    );
    // The mutant has no include left: it compiles without reading files.
    assert!(!m.mutants[0].source.contains("include"));
}

#[test]
fn bad_cat_text_is_the_compilers_error_with_its_position() {
    let err = mutate(
        "bad.cat".as_ref(),
        "let a = po |\nacyclic a",
        &mut no_include,
    )
    .unwrap_err();
    match &err {
        CatError::At { file, pos, .. } => {
            assert_eq!((file.as_str(), pos.line, pos.column), ("bad.cat", 2, 1));
        }
        other => panic!("{other:?}"),
    }
    let err = mutate("bad.cat".as_ref(), "acyclic W", &mut no_include).unwrap_err();
    assert!(
        err.to_string().starts_with("bad.cat:1:9: type error"),
        "{err}"
    );
    let err = mutate_file("/no/such/model.cat".as_ref()).unwrap_err();
    assert!(matches!(err, CatError::Read { .. }), "{err}");
}

#[test]
fn a_mutant_that_does_not_compile_is_counted_not_kept() {
    // `~(~a)` is monotone in `a`; dropping one `~` is not, which the
    // compiler refuses in a `let rec`.
    let m = mutate(
        "rec.cat".as_ref(),
        "let rec a = po | ~(~a)\nacyclic a\n",
        &mut no_include,
    )
    .unwrap();
    assert_eq!(m.skipped.len(), 1);
    let s = &m.skipped[0];
    assert_eq!(
        (s.operator, s.pos.line, s.pos.column),
        (Operator::DropComplement, 1, 18)
    );
    assert!(s.error.to_string().contains("under `~`"), "{}", s.error);
    assert!(m
        .mutants
        .iter()
        .all(|x| x.operator != Operator::DropComplement || x.pos.column != 18));
}

#[test]
fn identical_mutant_texts_are_kept_once() {
    // Both `po`s emptied one at a time give different texts; but `po`
    // used once makes the every-use edit the same as the one-use edit,
    // which is not generated, and `rf | rf` minus either term is `rf`.
    let m = mutate("d.cat".as_ref(), "acyclic rf | rf as a\n", &mut no_include).unwrap();
    let drops = m
        .mutants
        .iter()
        .filter(|x| x.operator == Operator::DropUnionTerm)
        .count();
    assert_eq!(drops, 1);
    assert!(m.duplicates >= 1);
    let mut texts: Vec<&str> = m.mutants.iter().map(|x| x.source.as_str()).collect();
    texts.sort();
    texts.dedup();
    assert_eq!(texts.len(), m.mutants.len());
}

/// The two hand-made mutants of more than one edit: relaxed accesses as
/// release and acquire (every `REL` and `ACQ` widened), and plain SC
/// added as an axiom. On MP with relaxed accesses and a release/acquire
/// model, both forbid what the model allows.
#[test]
fn relaxed_as_release_acquire_and_plain_sc_are_mutants_and_forbid_relaxed_mp() {
    let src = "\"ra\"\nlet sw = [W & REL]; rf; [R & ACQ]\nacyclic (po; [W & REL]) | sw | ([ACQ]; po) | fr as ra\nacyclic po-loc | rf | co | fr as coh\n";
    let m = mutate("ra.cat".as_ref(), src, &mut no_include).unwrap();
    let relaxed = m
        .mutants
        .iter()
        .find(|x| x.operator == Operator::RelaxedAsReleaseAcquire)
        .expect("the model uses REL, ACQ and RLX as base tags");
    // Every use of each tag, at the first use of `REL`.
    assert_eq!((relaxed.pos.line, relaxed.pos.column), (2, 15));
    assert_eq!(relaxed.direction, Direction::Strengthening);
    assert_eq!(
        relaxed.source.matches("REL | W & RLX").count(),
        2,
        "{}",
        relaxed.source
    );
    assert_eq!(
        relaxed.source.matches("ACQ | R & RLX").count(),
        2,
        "{}",
        relaxed.source
    );
    let sc = m
        .mutants
        .iter()
        .find(|x| x.operator == Operator::AddScAxiom)
        .expect("plain SC");
    assert!(
        sc.source.contains("acyclic po | rf | co | fr as plain-SC"),
        "{}",
        sc.source
    );
    // The end of the file, after its last newline.
    assert_eq!((sc.pos.line, sc.pos.column), (5, 1));
    // MP with relaxed accesses: the model allows its weak outcome, both
    // mutants forbid it.
    let base = CatModel::from_source("ra.cat".as_ref(), src, &mut no_include).unwrap();
    let test = mp();
    let allows = |model: &CatModel| {
        litmus_model::check(&test, model, &Options::default())
            .unwrap()
            .condition_reachable
    };
    assert!(allows(&base));
    assert!(!allows(&relaxed.model) && !allows(&sc.model));
}

#[test]
fn dropping_sequential_consistency_from_sc_cat_is_weaker_on_mp() {
    let m = mutate_file(&repo().join("models/sc.cat")).unwrap();
    let (i, drop) = m
        .mutants
        .iter()
        .enumerate()
        .find(|(_, x)| {
            x.operator == Operator::DropCheck && x.description.contains("Sequential-consistency")
        })
        .unwrap();
    assert_eq!(drop.direction, Direction::Weakening);
    let classes = m.classify(&[mp()], &Options::default(), 2);
    let c = &classes[i];
    assert_eq!(c.class, Class::Weaker);
    assert_eq!(c.differences.len(), 1);
    // MP's stale read (r0 = 1, r1 = 0) is what SC forbids.
    assert!(c.differences[0].only_other.contains(&vec![1, 0]), "{c:?}");
    assert!(c.differences[0].only_base.is_empty());
}

#[test]
fn the_shared_search_gives_each_model_its_own_allowed_outcomes() {
    // Every 5th mutant of the repository's ptx.cat on the repository's
    // tests, judged together and one by one: the same sets.
    let m = mutate_file(&repo().join("models/ptx.cat")).unwrap();
    let tests = repo_tests();
    let opts = Options::default();
    let base = litmus_model::cat::load(&repo().join("models/ptx.cat")).unwrap();
    let mut batch = litmus_model::cat::batch::Batch::default();
    let mut models: Vec<&dyn Model> = vec![base];
    batch.add(&m.path, &m.base_source, &mut no_include).unwrap();
    for x in m.mutants.iter().step_by(5) {
        batch
            .add(Model::name(&x.model).as_ref(), &x.source, &mut no_include)
            .unwrap();
        models.push(&x.model);
    }
    let together = batch.verdicts(&tests, &opts, 2);
    let alone = Verdicts::of(&tests, &models, &opts, 2);
    assert_eq!(together.allowed, alone.allowed);
    // And the mutants are not all alike on these tests.
    let classes: std::collections::HashSet<Class> = together.allowed[1..]
        .iter()
        .map(|row| classify(&together.allowed[0], row).class)
        .collect();
    assert!(
        classes.contains(&Class::Weaker) && classes.contains(&Class::Stronger),
        "{classes:?}"
    );
}

#[test]
fn scopes_ignored_in_dat3m_ptx_v6_is_stronger_on_its_corpus() {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV).map(PathBuf::from) else {
        println!("mutants of ptx-v6.0.cat: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let m = mutate_file(&dir.join("cat/ptx-v6.0.cat")).unwrap();
    let scopes = m
        .mutants
        .iter()
        .find(|x| x.description.starts_with("scopes ignored"))
        .unwrap();
    assert_eq!(scopes.operator, Operator::BaseToFull);
    assert_eq!((scopes.pos.line, scopes.pos.column), (35, 47));
    assert_eq!(scopes.direction, Direction::Strengthening);
    let tests: Vec<Test> = corpus::read_list(&dir, corpus::PTX_V6)
        .unwrap()
        .iter()
        .map(|e| parse(&dir.join(&e.path)))
        .collect();
    let base = CatModel::from_source(&m.path, &m.base_source, &mut no_include).unwrap();
    let v = Verdicts::of(&tests, &[&base, &scopes.model], &Options::default(), 2);
    let c = classify(&v.allowed[0], &v.allowed[1]);
    assert_eq!(c.class, Class::Stronger, "{c:?}");
    assert!(c.errors.is_empty());
    // Among the tests that catch it: a message passed between CTAs at
    // `.cta` scope, which synchronises nothing unless scopes are ignored.
    let names: Vec<&str> = c
        .differences
        .iter()
        .map(|d| tests[d.test].name.text.as_str())
        .collect();
    assert!(!names.is_empty());
}

#[test]
fn diff_lists_the_tests_that_tell_two_models_apart_smallest_first() {
    let tests = repo_tests();
    let (sc, ptx) = (model_by_name("sc").unwrap(), model_by_name("ptx").unwrap());
    let d = diff(sc, ptx, &tests, &Options::default(), 2);
    assert!(d.errors.is_empty(), "{:?}", d.errors);
    let mp = d
        .differences
        .iter()
        .find(|x| x.name == "mp_relaxed_gpu")
        .expect("sc and ptx differ on relaxed MP");
    assert_eq!((mp.old, mp.new), (Verdict::Forbidden, Verdict::Allowed));
    assert_eq!(mp.only_new, vec!["P1:r0=1; P1:r1=0".to_string()]);
    assert!(mp.only_old.is_empty());
    let keys: Vec<(usize, usize)> = d
        .differences
        .iter()
        .map(|x| (x.threads, x.instructions))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // A model does not differ from itself.
    assert!(diff(ptx, ptx, &tests, &Options::default(), 2)
        .differences
        .is_empty());
}
