//! PTX 7.5 proxy tests: the built-in and cat models have no proxies or
//! virtual addresses, so they refuse such a test with a message naming
//! what it uses, rather than reading an alias as memory of its own (which
//! would allow outcomes no PTX 7.5 execution has, or forbid real ones).

use litmus_core::text;
use litmus_model::budget::Options;
use litmus_model::check::{check_with, CheckError};

/// A single-thread alias test that a proxy-blind model would get wrong:
/// read as two locations, `y` would stay 0 after the store to `x`.
const ALIAS: &str = "PTX alias\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 42 ;\n fence.proxy.alias ;\n ld.weak r0, y ;\nforall (P0:r0 == 42)";

#[test]
fn every_built_in_model_refuses_a_proxy_test() {
    let test = text::parse(ALIAS).unwrap();
    for model in ["ptx", "sc", "ptx-2015"] {
        let e = check_with(&test, model, &Options::default()).unwrap_err();
        assert!(matches!(e, CheckError::Paths(_)), "{model}: {e}");
        assert_eq!(
            e.to_string(),
            "location `y` is a generic alias of `x`: the model checker has no PTX 7.5 proxies or aliases yet, so it cannot check this test",
            "{model}"
        );
    }
}

#[test]
fn a_proxy_instruction_without_an_alias_is_refused_too() {
    // Only the fence uses a proxy: still not a PTX 6.0 test.
    let src = "PTX fence\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.texture ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)";
    let test = text::parse(src).unwrap();
    let e = check_with(&test, "ptx", &Options::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("`fence.proxy.texture` in thread `P0`: the model checker has no PTX 7.5 proxies"),
        "{e}"
    );
}
