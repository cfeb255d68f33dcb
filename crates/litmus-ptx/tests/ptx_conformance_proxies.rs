//! Dat3M's PTX 7.5 proxy tests (`Nvidia/proxy`, as the PTX 7.5 verdict
//! list names them) through the PTX generator: each one generates a module
//! or is refused with one of the documented reasons (a surface alias, a
//! proxy fence PTX lacks, the constant bank).
//!
//! Run with `LITMUS_CONFORMANCE_DIR=/path/to/dat3m-ptx cargo test -p litmus-ptx`.

// The helper's list of every verdict list is for the text tests; this one
// reads the PTX 7.5 list alone.
#[allow(dead_code)]
#[path = "../../litmus-text/tests/text_support/corpus.rs"]
mod corpus;

use std::collections::BTreeMap;

use litmus_core::corpus::PTX_V75;
use litmus_ptx::{self as ptx, PtxError};
use litmus_text as text;

/// The folder this test reads, within the verdict list's paths.
const FOLDER: &str = "Nvidia/proxy/";

/// The documented reasons, by a phrase each message holds.
const REASONS: [(&str, &str); 3] = [
    (
        "surface alias",
        "CUDA surfaces bind only CUDA arrays, which have no global address",
    ),
    ("proxy fence PTX lacks", "PTX has no such instruction"),
    (
        "constant bank",
        "the constant bank is filled before a launch",
    ),
];

#[test]
fn every_proxy_test_generates_or_is_refused_with_a_documented_reason() {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!("conformance: skipped, {} is not set", corpus::CORPUS_ENV);
        return;
    };
    let files = corpus::listed_files(dir.as_ref(), &[PTX_V75]).unwrap_or_else(|e| panic!("{e}"));
    let files: Vec<_> = files
        .into_iter()
        .filter(|(p, _)| p.to_string_lossy().contains(FOLDER))
        .collect();
    assert!(
        !files.is_empty(),
        "the PTX 7.5 list names no file of {FOLDER}"
    );
    let mut generated = Vec::new();
    let mut refused: BTreeMap<&str, usize> = BTreeMap::new();
    for (path, src) in &files {
        let test = text::parse(src)
            .unwrap_or_else(|e| panic!("{}", e.render(&path.display().to_string())));
        match ptx::generate(&test) {
            Ok(p) => {
                assert!(p.contains(".entry litmus_test("), "{}", path.display());
                // Every proxy instruction it holds has its PTX form.
                if src.contains("fence.proxy.alias") {
                    assert!(p.contains("fence.proxy.alias;"), "{}", path.display());
                }
                if src.contains("tld.") {
                    assert!(p.contains("tex.1d.v4.u32.s32"), "{}", path.display());
                }
                generated.push(path.file_name().unwrap().to_string_lossy().into_owned());
            }
            Err(PtxError::Unsupported(why)) => {
                let (reason, _) = REASONS
                    .iter()
                    .find(|(_, phrase)| why.contains(phrase))
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: refused for an undocumented reason: {why}",
                            path.display()
                        )
                    });
                *refused.entry(reason).or_default() += 1;
            }
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
    println!(
        "conformance: {} of {} files of {FOLDER} generate ({}); refused: {refused:?}",
        generated.len(),
        files.len(),
        generated.join(", ")
    );
    // Dat3M's folder as of this writing: 61 files, 7 without surfaces or
    // fences PTX lacks, 46 refused for a surface, 8 for a fence. A change
    // here is worth a look.
    assert_eq!(files.len(), 61);
    assert_eq!(generated.len(), 7, "{generated:?}");
    assert_eq!(refused.get("surface alias"), Some(&46), "{refused:?}");
    assert_eq!(
        refused.get("proxy fence PTX lacks"),
        Some(&8),
        "{refused:?}"
    );
}
