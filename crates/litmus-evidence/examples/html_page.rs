//! The evidence page of a synthetic campaign: 1,314 tests of twelve
//! generated families (see `tests/html_support`), recorded as an H100
//! shows such tests, or with `every` as a GPU that showed every outcome
//! the model allows (the worst case); written as an evidence folder for
//! `gpu-litmus report` and as the page itself; prints the page's size.
//!
//! `cargo run --release -p litmus-evidence --example html_page [DIR] [every]`
//! (default: a folder under the system's temporary folder). Then
//! `gpu-litmus report --evidence DIR/evidence --html page.html` writes the
//! same page.

#[path = "../tests/html_support/mod.rs"]
mod html_support;

use std::path::PathBuf;

use litmus_evidence::store::Writer;
use litmus_evidence::{html, Evidence};

fn main() {
    let dir = std::env::args().nth(1).map_or_else(
        || std::env::temp_dir().join("gpu-litmus-html-page"),
        PathBuf::from,
    );
    let shows = match std::env::args().nth(2).as_deref() {
        Some("every") => html_support::Shows::EveryAllowed,
        None => html_support::Shows::LikeHardware,
        Some(other) => panic!("`{other}`: the second argument is `every` or nothing"),
    };
    let tests = html_support::tests();
    let evidence = html_support::evidence(&tests, shows, true);
    let folder = dir.join("evidence");
    // A folder left by an earlier run would count its records twice.
    let _ = std::fs::remove_dir_all(&folder);
    let mut writer = Writer::create(&folder).expect("the evidence folder");
    for r in &evidence.records {
        writer.append(r.clone()).expect("a record written");
    }
    drop(writer);
    let read = Evidence::read(std::slice::from_ref(&folder)).expect("the evidence reads back");
    let ptx = litmus_model::model_by_name("ptx").expect("ptx is built in");
    let page = html::page(&read, ptx, &litmus_model::Options::default());
    let path = dir.join("page.html");
    std::fs::write(&path, &page).expect("the page written");
    println!(
        "{} tests, {} records in {}; page {}: {} bytes ({} a test)",
        tests.len(),
        read.records.len(),
        folder.display(),
        path.display(),
        page.len(),
        page.len() / tests.len()
    );
}
