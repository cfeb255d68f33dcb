//! The docs' knob tables (`docs/running-on-gpus.md`, section "Knobs",
//! but for the run's own variables) and the knobs' table in the code name
//! the same variables with the same defaults.

use std::collections::BTreeMap;

use litmus_hw::Knobs;

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/running-on-gpus.md");

/// Each variable the section's tables name, with its default; a row that
/// names several variables gives each its own of the defaults, in order.
fn documented() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(DOCS).unwrap();
    let mut out = BTreeMap::new();
    let (mut in_knobs, mut skipped) = (false, false);
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            in_knobs = heading == "Knobs";
        }
        if let Some(heading) = line.strip_prefix("### ") {
            skipped = heading == "The run's own variables";
        }
        if !in_knobs || skipped || !line.starts_with("| `LITMUS_") {
            continue;
        }
        let cells: Vec<&str> = line.split(" | ").collect();
        let vars: Vec<&str> = cells[0]
            .trim_start_matches("| ")
            .split(", ")
            .map(|v| v.trim_matches('`'))
            .collect();
        let defaults: Vec<&str> = match vars.len() {
            1 => vec![cells[1]],
            _ => cells[1].split(", ").collect(),
        };
        assert_eq!(vars.len(), defaults.len(), "{line}");
        for (var, default) in vars.into_iter().zip(defaults) {
            if let Some(before) = out.insert(var.to_string(), default.to_string()) {
                assert_eq!(before, default, "{var} is documented twice, differently");
            }
        }
    }
    out
}

#[test]
fn the_docs_table_and_the_knobs_table_agree() {
    let docs = documented();
    let table: BTreeMap<String, String> = Knobs::table()
        .iter()
        .filter_map(|row| Some((row.var?.to_string(), row.default.to_string())))
        .collect();
    assert!(table.len() > 30, "{table:?}");
    let only_docs: Vec<&String> = docs.keys().filter(|v| !table.contains_key(*v)).collect();
    let only_table: Vec<&String> = table.keys().filter(|v| !docs.contains_key(*v)).collect();
    assert!(
        only_docs.is_empty() && only_table.is_empty(),
        "only in the docs: {only_docs:?}; only in the table: {only_table:?}"
    );
    for (var, default) in &table {
        assert_eq!(&docs[var], default, "{var}'s default");
    }
}
