//! litmus7's result block, for `gpu-litmus run --format litmus7`: the
//! hardware's histogram in the shape litmus7 prints, so that litmus7
//! result files and ours compare line by line (`mcompare7` reads both).
//!
//! ```text
//! Test MP Allowed
//! Histogram (3 states)
//! 5021  :>1:r0=0; 1:r1=0;
//! 17    *>1:r0=1; 1:r1=0;
//! 4956  :>1:r0=1; 1:r1=1;
//! Ok
//!
//! Witnesses
//! Positive: 17, Negative: 9977
//! Condition exists (1:r0=1 /\ 1:r1=0) is validated
//! Observation MP Sometimes 17 9977
//! Time MP 1.00
//!
//! ```
//!
//! Each state the hardware showed, with its count; `*>` marks the states
//! that satisfy the condition's expression, `:>` the others. The words
//! and the condition are herd7's ([`super::herd`]): `Ok`/`No` and `is
//! validated`/`is NOT validated` say whether the claim held on the
//! hardware; `Positive`/`Negative` count instances (swapped for
//! `~exists`); `Observation` counts instances satisfying the expression
//! and not. No `Hash=` line (litmus7 hashes its own reading of the file).
//! Only a run whose hardware half ran has a block.

use litmus_core::ir::Test;
use litmus_core::outcome::observables;

use super::herd;
use crate::runner::{Hardware, TestReport};

/// litmus7's block for `report` (a run of `test`), ending with an empty
/// line; `None` when the hardware did not run.
pub fn block(test: &Test, report: &TestReport) -> Option<String> {
    let Hardware::Ran(hw) = &report.hardware else {
        return None;
    };
    let name = &test.name.text;
    let q = test.condition.quantifier;
    let obs = observables(test);
    let mut seen: Vec<_> = report
        .rows
        .iter()
        .filter(|r| r.seen.unwrap_or(0) > 0)
        .collect();
    seen.sort_by(|a, b| a.values.cmp(&b.values));
    let mut out = format!("Test {name} {}\n", herd::kind(q));
    out.push_str(&format!("Histogram ({} states)\n", seen.len()));
    let (mut pos, mut neg) = (0, 0);
    for row in &seen {
        let count = row.seen.unwrap_or(0);
        let mark = if row.satisfies_condition {
            pos += count;
            '*'
        } else {
            neg += count;
            ':'
        };
        out.push_str(&format!(
            "{count:<6}{mark}>{}\n",
            herd::state(test, &obs, &row.values)
        ));
    }
    let ok = herd::ok_word(q, pos, neg);
    out.push_str(&format!("{ok}\n\nWitnesses\n"));
    let (wit_pos, wit_neg) = herd::witnesses(q, pos, neg);
    out.push_str(&format!("Positive: {wit_pos}, Negative: {wit_neg}\n"));
    let not = if ok == "Ok" { "" } else { "NOT " };
    out.push_str(&format!(
        "Condition {} is {not}validated\n",
        herd::condition(test)
    ));
    out.push_str(&herd::observation(name, pos, neg));
    out.push_str(&format!("Time {name} {:.2}\n\n", hw.wall.as_secs_f64()));
    Some(out)
}
