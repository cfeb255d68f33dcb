//! A `.litmus` file that uses locations without declaring them checks
//! exactly as the same file with them declared (initialised to 0): the
//! reader's herd7/Dat3M reading changes nothing the model sees.

mod common;

use std::path::Path;

use common::parse;
use litmus_core::corpus;
use litmus_core::ir::{Space, Test};
use litmus_model::{check, model_by_name, CheckResult, Options};

fn checked(test: &Test) -> CheckResult {
    check(test, model_by_name("ptx").unwrap(), &Options::default())
        .unwrap_or_else(|e| panic!("{}: {e}", test.name))
}

/// `test` printed without the declarations of its global locations that
/// start at 0, and read again.
fn undeclared(test: &Test) -> Test {
    let mut stripped = test.clone();
    stripped
        .locations
        .retain(|l| !(l.space == Space::Global && l.init.value == 0));
    let text = litmus_text::print(&stripped);
    litmus_text::parse(&text).unwrap_or_else(|e| {
        panic!(
            "{} without declarations:\n{}\n{text}",
            test.name,
            e.render("")
        )
    })
}

/// The verdict, whether the claim holds, and the allowed outcomes agree.
fn assert_same_check(declared: &Test, undeclared: &Test) {
    let (a, b) = (checked(declared), checked(undeclared));
    assert_eq!(
        (a.verdict(), a.claim_holds, &a.allowed),
        (b.verdict(), b.claim_holds, &b.allowed),
        "{}",
        declared.name
    );
}

#[test]
fn mp_and_a_location_named_only_by_the_condition() {
    for declared in [
        "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)",
        "PTX CoWW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n st.weak x, 2 ;\nexists (x == 1 \\/ y == 1)",
    ] {
        let declared = parse(declared);
        let undeclared = undeclared(&declared);
        assert!(undeclared.locations.len() == 2 && undeclared.locations[1].name.text == "y");
        assert_same_check(&declared, &undeclared);
    }
}

#[test]
fn every_corpus_test_checks_the_same_without_its_declarations() {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!("conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = Path::new(&dir);
    let list = corpus::read_list(dir, corpus::PTX_V6).unwrap_or_else(|e| panic!("{e}"));
    for entry in &list {
        let path = dir.join(&entry.path);
        let src =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let declared = parse(&src);
        assert_same_check(&declared, &undeclared(&declared));
    }
    assert_eq!(list.len(), 104);
}
