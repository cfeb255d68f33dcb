//! An outcome as a person or litmus7 writes it (`litmus_core::outcome::parse_written`),
//! read against a test that this crate reads from its text.

use litmus_core::ir::Test;
use litmus_core::outcome::parse_written;

fn mp() -> Test {
    litmus_text::parse(
        "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ x == 1)\n",
    )
    .unwrap()
}

#[test]
fn separators_and_orders() {
    let t = mp();
    for text in [
        "P1:r0=1; P1:r1=0; x=1",
        "P1:r1 == 0 /\\ x == 1 /\\ P1:r0 == 1",
        "(P1:r0=1, P1:r1=0, x=0x1)",
        " x=1;P1:r1=0;P1:r0=1; ",
    ] {
        assert_eq!(parse_written(&t, text), Ok(vec![1, 0, 1]), "{text}");
    }
}

#[test]
fn negative_values_wrap_as_the_model_reads_them() {
    let t = mp();
    assert_eq!(
        parse_written(&t, "P1:r0=-1; P1:r1=0xffffffff; x=-2147483648"),
        Ok(vec![u32::MAX, u32::MAX, 1 << 31])
    );
}

#[test]
fn errors_say_what_is_wrong() {
    let t = mp();
    let err = |text| parse_written(&t, text).unwrap_err().to_string();
    assert_eq!(
        err("P2:r0=1; P1:r1=0; x=1"),
        "unknown observable `P2:r0`; the observables are: P1:r0, P1:r1, x"
    );
    assert_eq!(
        err("P1:r0=1"),
        "the outcome must give every observable; missing: P1:r1, x (the observables are: P1:r0, P1:r1, x)"
    );
    assert_eq!(
        err("P1:r0=one; P1:r1=0; x=1"),
        "bad value `one` for P1:r0: expected a whole number from -2147483648 to 4294967295 (decimal or 0x hexadecimal)"
    );
    assert!(err("P1:r0=4294967296; P1:r1=0; x=1").starts_with("bad value `4294967296`"));
    assert!(err("P1:r0=-2147483649; P1:r1=0; x=1").starts_with("bad value `-2147483649`"));
    assert!(err("P1:r0=- 1; P1:r1=0; x=1").starts_with("bad value `- 1`"));
    assert_eq!(err("P1:r0 1"), "expected `NAME=VALUE`, found `P1:r0 1`");
    assert_eq!(err("x=1; x=2"), "x is given twice");
}
