// The catalogue, compiled again as modules of the including test, whose
// `litmus!` (in scope as `crate::litmus`, since each file says
// `use gpu_litmus::litmus` and the includer is `gpu_litmus`) turns each call
// into a comparison. Pasted with `include!` by `outcome_search.rs` and
// `cat_models_on_catalogue.rs`: one list of the catalogue's files, and one
// guard that a new file joins it.

/// What `litmus_ir!`'s expansion names as `::gpu_litmus::__private`.
pub mod __private {
    pub use library::__private::*;
}

// A catalogue file's `litmus_files!` adds nothing to an includer: the
// `.litmus` files are compared by the walks over the repository's files.
macro_rules! skip_litmus_files {
    ($($t:tt)*) => {};
}
#[allow(unused_imports)]
pub(crate) use skip_litmus_files as litmus_files;

#[path = "../catalogue_async.rs"]
mod catalogue_async;
#[path = "../catalogue_atomics.rs"]
mod catalogue_atomics;
#[path = "../catalogue_clusters.rs"]
mod catalogue_clusters;
#[path = "../catalogue_coherence.rs"]
mod catalogue_coherence;
#[path = "../catalogue_gpus.rs"]
mod catalogue_gpus;
#[path = "../catalogue_host.rs"]
mod catalogue_host;
#[path = "../catalogue_mp.rs"]
mod catalogue_mp;
#[path = "../catalogue_multi.rs"]
mod catalogue_multi;
#[path = "../catalogue_practice.rs"]
mod catalogue_practice;
#[path = "../catalogue_sb_lb.rs"]
mod catalogue_sb_lb;

#[test]
fn every_catalogue_file_is_compared() {
    let compared = [
        "catalogue_async.rs",
        "catalogue_atomics.rs",
        "catalogue_clusters.rs",
        "catalogue_coherence.rs",
        "catalogue_gpus.rs",
        "catalogue_host.rs",
        "catalogue_mp.rs",
        "catalogue_multi.rs",
        "catalogue_practice.rs",
        "catalogue_sb_lb.rs",
    ];
    let tests = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut found: Vec<String> = std::fs::read_dir(&tests)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("catalogue_") && n.ends_with(".rs"))
        .collect();
    found.sort();
    assert_eq!(
        found, compared,
        "a new catalogue file needs its `mod` line in tests/catalogue_support/modules.rs"
    );
}
