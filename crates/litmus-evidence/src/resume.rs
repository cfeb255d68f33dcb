//! Which tests a campaign already ran: what `campaign --resume` skips.
//!
//! A campaign appends one record per test as the test finishes
//! ([`crate::store`]), so a campaign killed at any moment (SIGKILL, a GPU
//! fault, the node lost) leaves whole records for the tests it finished
//! and at most one cut-off line, which the reader reports and ignores.
//! Resuming runs every test without a campaign record of its own.

use std::collections::BTreeSet;

use crate::read::Evidence;
use crate::record::Kind;

/// A test as a campaign knows it: its name and [`crate::ir_hash`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct TestId {
    /// The test's name.
    pub name: String,
    /// Its IR hash: an edited test is another test and runs again.
    pub ir_hash: String,
}

/// For each of `tests`, whether `evidence` holds a campaign record of it
/// (same name and IR hash). Only [`Kind::Campaign`] records count: a
/// search trial ran the test under a candidate's knobs, and a `run` or a
/// cargo test is not this campaign's line for it.
pub fn already_recorded(evidence: &Evidence, tests: &[TestId]) -> Vec<bool> {
    let done: BTreeSet<(&str, &str)> = evidence
        .records
        .iter()
        .filter(|r| r.kind == Kind::Campaign)
        .map(|r| (r.test.as_str(), r.ir_hash.as_str()))
        .collect();
    tests
        .iter()
        .map(|t| done.contains(&(t.name.as_str(), t.ir_hash.as_str())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::ProblemKind;
    use crate::record::tests::sample;
    use crate::record::Record;
    use std::path::Path;

    fn record(name: &str, hash: &str, kind: Kind, seq: u64) -> Record {
        Record {
            test: name.into(),
            ir_hash: hash.into(),
            kind,
            seq,
            ..sample()
        }
    }

    fn id(name: &str, hash: &str) -> TestId {
        TestId {
            name: name.into(),
            ir_hash: hash.into(),
        }
    }

    #[test]
    fn a_resumed_campaign_skips_what_it_recorded_and_reruns_the_rest() {
        let mut file = String::new();
        for r in [
            record("a", "01", Kind::Campaign, 0),
            record("b", "02", Kind::Campaign, 1),
            // Edited since: the record is of the old `c`.
            record("c", "old", Kind::Campaign, 2),
            // Only trials and a plain run of `d`: not a campaign's.
            record("d", "04", Kind::Trial, 3),
            record("d", "04", Kind::Run, 4),
        ] {
            file.push_str(&format!("{}\n", r.to_json()));
        }
        // `e` was in flight when the run died: half its line.
        let cut = record("e", "05", Kind::Campaign, 5).to_json().to_string();
        file.push_str(&cut[..cut.len() / 2]);
        let evidence = Evidence::read_bytes(Path::new("d/run.jsonl"), file.as_bytes());
        assert_eq!(evidence.records.len(), 5);
        let [p] = evidence.problems.as_slice() else {
            panic!("{:?}", evidence.problems)
        };
        assert_eq!(p.kind, ProblemKind::Truncated);
        assert_eq!(
            p.to_string(),
            "d/run.jsonl:6: cut off (a run that died mid-write); ignored"
        );
        assert!(!p.is_error());
        let tests = [
            id("a", "01"),
            id("b", "02"),
            id("c", "03"),
            id("d", "04"),
            id("e", "05"),
            id("f", "06"),
        ];
        assert_eq!(
            already_recorded(&evidence, &tests),
            [true, true, false, false, false, false]
        );
    }
}
