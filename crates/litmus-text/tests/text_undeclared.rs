//! The reader's one departure from validation: a location used but not
//! declared in the init block is a global location initialised to 0, as
//! herd7 and Dat3M read it. (The `litmus!` macro refuses it on purpose:
//! tests/ui/fail/unknown_location.rs.)

use litmus_core::ir::Space;
use litmus_text as text;

const MP_Y_UNDECLARED: &str = "PTX MP\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)";

#[test]
fn an_undeclared_location_is_global_and_starts_at_zero() {
    let test = text::parse(MP_Y_UNDECLARED).unwrap();
    let names: Vec<&str> = test
        .locations
        .iter()
        .map(|l| l.name.text.as_str())
        .collect();
    assert_eq!(names, ["x", "y"]);
    assert_eq!(
        (test.locations[1].space, test.locations[1].init.value),
        (Space::Global, 0)
    );
    // Its origin is its first use, thread by thread: P0's `st.weak y, 1`.
    let first_use = text::position(MP_Y_UNDECLARED, test.locations[1].name.origin).unwrap();
    assert_eq!(first_use.to_string(), "5:10");
}

#[test]
fn it_prints_declared_and_reads_back_the_same() {
    let test = text::parse(MP_Y_UNDECLARED).unwrap();
    let printed = text::print(&test);
    assert!(printed.contains("{\nx=0;\ny=0;\n}"), "{printed}");
    assert_eq!(text::parse(&printed).unwrap(), test);
}

#[test]
fn the_declared_version_reads_to_the_same_test() {
    let declared = MP_Y_UNDECLARED.replace("{ x=0; }", "{ x=0; y=0; }");
    assert_eq!(
        text::parse(&declared).unwrap(),
        text::parse(MP_Y_UNDECLARED).unwrap()
    );
}

#[test]
fn locations_are_declared_in_the_order_of_first_use() {
    // Thread by thread, then the condition.
    // No init block items at all; `z` appears only in the condition.
    let src = "PTX t\n{ }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak b, 1 | red.relaxed.gpu.add a, 1 ;\n ld.weak r0, a | st.weak b, 2 ;\nexists (P0:r0 == 0 /\\ z == 0)";
    let test = text::parse(src).unwrap();
    let names: Vec<&str> = test
        .locations
        .iter()
        .map(|l| l.name.text.as_str())
        .collect();
    assert_eq!(names, ["b", "a", "z"]);
    assert!(text::print(&test).contains("{\nb=0;\na=0;\nz=0;\n}"));
}

#[test]
fn an_unqualified_ld_from_an_undeclared_name_stays_a_register_copy() {
    // `ld r0, y` with no qualifier copies register `y` unless `y` is a
    // declared location; here it is not, and `y` was never written.
    let src = "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld r0, y ;\nexists (P0:r0 == 0)";
    assert_eq!(
        text::parse(src).unwrap_err().to_string(),
        "4:9: register `y` is read before any write in thread `P0` (initialise it or write it first)"
    );
}
