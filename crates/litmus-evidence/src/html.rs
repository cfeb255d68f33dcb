//! The evidence as one self-contained HTML page that a person reads from
//! the top: the totals; the observed outcomes the model forbids, in red;
//! per family a grid of placement × fences saying how many tests showed
//! the outcome their condition names (`html/summary.rs`); then one line per test
//! with that outcome, its count and rate and the devices, the full outcome
//! table folded under it (`html/lines.rs`), and a search box and filters above
//! the lines (`html/script.rs`).
//!
//! Written by hand: the page is a few tables and a few lines of script,
//! which no template or chart crate would make smaller, and it must open
//! with no network. Every outcome the hardware showed is on it; outcomes
//! the model allows but no hardware showed are left out (but for the
//! condition's), which keeps a page of a thousand tests far under 1 MB.

mod entry;
mod group;
mod lines;
pub mod mutants;
mod script;
mod style;
mod summary;

use std::collections::BTreeMap;

use litmus_model::{Model, Options};

use super::Evidence;
use crate::stats::{wilson, Z95};
use entry::Entry;
use summary::{sort_key, Groups};

/// The page for `evidence` judged by `model`.
pub fn page(evidence: &Evidence, model: &dyn Model, options: &Options) -> String {
    page_with_mutants(evidence, model, options, &[])
}

/// The page, with a section per `gpu-litmus mutants` report (their JSON,
/// checked with [`mutants::is_report`]) after the summary.
pub fn page_with_mutants(
    evidence: &Evidence,
    model: &dyn Model,
    options: &Options,
    mutant_reports: &[serde_json::Value],
) -> String {
    let entries = entry::entries(evidence, model, options);
    let groups = Groups::of(&entries);
    // Lines follow the summary's order, so that a cell's tests sit
    // together; an anchor per line lets the forbidden table link to it.
    let mut ordered: Vec<&Entry> = entries.iter().collect();
    ordered.sort_by(|a, b| (sort_key(&a.group), &a.name).cmp(&(sort_key(&b.group), &b.name)));
    let ids: BTreeMap<&str, usize> = ordered
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let mut devices: Vec<&str> = evidence.records.iter().map(|r| r.device.as_str()).collect();
    devices.sort_unstable();
    devices.dedup();
    // About 600 bytes a test: one allocation for most pages.
    let mut h = String::with_capacity(16_384 + 640 * entries.len());
    h.push_str(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>gpu-litmus: hardware evidence</title>\n<style>\n",
    );
    h.push_str(style::CSS);
    h.push_str("</style>\n</head>\n<body>\n");
    summary::header(&mut h, evidence, &entries, model);
    summary::forbidden(&mut h, &entries, &ids);
    summary::problems(&mut h, evidence);
    summary::grids(&mut h, &entries, &groups);
    for report in mutant_reports {
        mutants::section(&mut h, report);
    }
    lines::filters(&mut h, &ordered, &devices);
    lines::lines(&mut h, &ordered, &groups, &devices, &ids);
    h.push_str("<script>\n");
    h.push_str(script::JS);
    h.push_str("</script>\n</body>\n</html>\n");
    h
}

/// `hits / trials` with its 95% Wilson interval: `1.00e-3 [5e-4, 2e-3]`.
fn rate(hits: u64, trials: u64) -> String {
    if trials == 0 {
        return "no instances".into();
    }
    format!(
        "{:.2e} {}",
        hits as f64 / trials as f64,
        wilson_interval(hits, trials)
    )
}

/// The 95% Wilson interval of `hits / trials`: `[5.00e-4, 2.00e-3]`.
fn wilson_interval(hits: u64, trials: u64) -> String {
    if trials == 0 {
        return "none (no instances)".into();
    }
    let (lo, hi) = wilson(hits, trials, Z95);
    format!("[{lo:.2e}, {hi:.2e}]")
}

/// `text` with HTML's special characters escaped: safe in text and in
/// quoted attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
