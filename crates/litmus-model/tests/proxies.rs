//! PTX 7.5 proxy tests: `ptx-7.5` checks them; the models without proxies
//! (`ptx`, `sc`, `ptx-2015`, cat files) refuse them with a message naming
//! what the test uses, rather than reading an alias as memory of its own.

mod common;

use litmus_model::budget::Options;
use litmus_model::check::{check_with, CheckError};
use litmus_text as text;

/// Read as two locations, `y` would stay 0 after the store to `x`.
const ALIAS: &str = "PTX alias\n{ x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 42 ;\n fence.proxy.alias ;\n ld.weak r0, y ;\nforall (P0:r0 == 42)";

fn claim(src: &str) -> bool {
    let test = text::parse(src).unwrap();
    check_with(&test, "ptx-7.5", &Options::default())
        .unwrap()
        .claim_holds
}

#[test]
fn models_without_proxies_refuse_a_proxy_test() {
    let test = text::parse(&ALIAS.replace(" fence.proxy.alias ;\n", "")).unwrap();
    for model in ["ptx", "sc", "ptx-2015"] {
        let e = check_with(&test, model, &Options::default()).unwrap_err();
        assert!(matches!(e, CheckError::Paths(_)), "{model}: {e}");
        assert_eq!(
            e.to_string(),
            format!("location `y` is a generic alias of `x`: model `{model}` has no PTX 7.5 proxies or aliases (model `ptx-7.5` has)"),
        );
    }
    // An alias declared but never used changes nothing.
    let unused = ALIAS
        .replace(" fence.proxy.alias ;\n", "")
        .replace("r0, y", "r0, x");
    let r = check_with(&text::parse(&unused).unwrap(), "ptx", &Options::default()).unwrap();
    assert!(r.claim_holds);
    // Only the fence uses a proxy: still not a PTX 6.0 test.
    let fence = ALIAS
        .replace("y @ generic aliases x; ", "")
        .replace("r0, y", "r0, x")
        .replace("alias ;", "texture ;");
    let e = check_with(&text::parse(&fence).unwrap(), "ptx", &Options::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("`fence.proxy.texture` in thread `P0`: model `ptx` has no PTX 7.5"),
        "{e}"
    );
}

#[test]
fn an_alias_reads_its_targets_memory_only_through_a_fence() {
    // With the alias fence, the load through `y` must see the store to `x`.
    assert!(claim(ALIAS));
    // Without it, a proxy-blind reading would say the same; PTX 7.5 lets
    // the load through the other virtual address miss the store.
    assert!(!claim(&ALIAS.replace(" fence.proxy.alias ;\n", "")));
    // Through the same virtual address, program order is enough.
    assert!(claim(
        &ALIAS
            .replace(" fence.proxy.alias ;\n", "")
            .replace("r0, y", "r0, x")
    ));
}

#[test]
fn a_texture_read_needs_the_texture_fence() {
    let tex = "PTX tex\n{ x=0; t @ texture aliases x; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\n fence.proxy.texture ;\n tld.weak r0, t ;\nforall (P0:r0 == 1)";
    assert!(claim(tex));
    // The wrong proxy's fence does not order the texture read.
    assert!(!claim(
        &tex.replace("fence.proxy.texture", "fence.proxy.surface")
    ));
}

#[test]
fn a_condition_on_an_alias_is_refused_with_the_reason() {
    let src = ALIAS.replace("forall (P0:r0 == 42)", "exists (y == 42)");
    let test = text::parse(&src).unwrap();
    let e = check_with(&test, "ptx-7.5", &Options::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the condition reads alias `y`: name the location it aliases instead"
    );
}

#[test]
fn explanations_name_the_proxy_and_the_location_as_written() {
    // Message passing from a surface store to a texture load, with both
    // proxy fences in the writer: the stale texture read is forbidden.
    let src = "PTX mp-sur-tex\n{ x=0; flag=0; s @ surface aliases x; t @ texture aliases x; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n sust.weak s, 2 | ld.acquire.cta r0, flag ;\n fence.proxy.surface | fence.proxy.texture ;\n st.release.cta flag, 1 | tld.weak r1, t ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)";
    let test = text::parse(src).unwrap();
    let model = litmus_model::model_by_name("ptx-7.5").unwrap();
    let e = litmus_model::explain_condition(&test, model, &Options::default()).unwrap();
    assert!(e.forbidden(), "{}", e.to_text(5));
    let first = &e.rejections[0];
    assert_eq!(first.axiom, "Causality", "{}", e.to_text(5));
    let fr = &first.witness[0];
    assert_eq!(fr.label, "fr");
    assert_eq!(fr.from.access, "R.weak.texture");
    assert_eq!(fr.from.location.as_deref(), Some("t"));
    assert_eq!(fr.to.access, "W.weak.surface");
    assert_eq!(fr.to.location.as_deref(), Some("s"));
    // Without the reader's texture fence the read may be stale.
    let unfenced = text::parse(&src.replace("| fence.proxy.texture ;", "| ;")).unwrap();
    let e = litmus_model::explain_condition(&unfenced, model, &Options::default()).unwrap();
    assert!(!e.forbidden(), "{}", e.to_text(5));
}

/// On a test without proxies, PTX 7.5 is PTX 6.0: `ptx-7.5` allows exactly
/// what `ptx` allows on every proxy-free `.litmus` file of the repository
/// (the corpus's 104 shared tests are checked by `conformance_ptx75`).
#[test]
fn ptx75_is_ptx_on_every_proxy_free_repo_file() {
    let files: Vec<_> = common::repo_litmus_files()
        .into_iter()
        .filter(|f| {
            let src = std::fs::read_to_string(f).unwrap_or_default();
            text::parse(&src).is_ok_and(|t| t.first_proxy_use().is_none())
        })
        .collect();
    assert!(files.len() > 10, "{} files", files.len());
    let model = |name| litmus_model::model_by_name(name).unwrap();
    common::assert_same_outcomes(&files, model("ptx"), model("ptx-7.5"));
}
