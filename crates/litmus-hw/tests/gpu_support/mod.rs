//! What the GPU test binaries share: reading a test, deciding whether the
//! hardware half runs here, and generating a set of tests' PTX.

#![allow(dead_code)] // each test binary uses its own part of it

use litmus_core::ir::Test;
use litmus_hw as gpu;
use litmus_ptx as ptx;
use litmus_text as text;

pub fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")))
}

/// Whether to go on: says in one line when it skips, panics with the
/// reason when a GPU is required.
pub fn hardware() -> bool {
    match gpu::hardware_wanted() {
        Ok(None) => true,
        Ok(Some(why)) => {
            println!("hardware: skipped, {why}");
            false
        }
        Err(e) => panic!("hardware: {e}"),
    }
}

/// Each test read and its PTX generated: without a GPU too, so that a
/// test that cannot generate fails everywhere.
pub fn generated(srcs: &[&str]) -> Vec<(Test, String)> {
    srcs.iter()
        .map(|src| {
            let test = parse(src);
            let code = ptx::generate(&test).unwrap_or_else(|e| panic!("{}: {e}", test.name));
            (test, code)
        })
        .collect()
}

/// Runs `test` for the knobs' fixed launches and checks that nothing was
/// lost: the launches asked for ran, each with `per_launch` instances, and
/// the histogram with the unfinished instances counts every one of them.
/// `what` names the run in the messages.
pub fn counted_run(
    test: &Test,
    code: &str,
    k: &gpu::Knobs,
    per_launch: u64,
    what: &str,
) -> gpu::HwResult {
    let r = gpu::run(test, code, k).unwrap_or_else(|e| panic!("{what}: {e}"));
    let launches = k
        .launches
        .expect("a counted run has a fixed number of launches");
    assert_eq!(r.launches, launches, "{what}");
    assert_eq!(r.instances, launches * per_launch, "{what}");
    let total: u64 = r.histogram.iter().map(|(_, c)| c).sum::<u64>() + r.unfinished;
    assert_eq!(total, r.instances, "{what}: instances lost");
    r
}
