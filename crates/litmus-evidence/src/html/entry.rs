//! One test of the page: its records merged, the model's verdict on every
//! outcome the hardware showed, and the outcome its condition names.

use std::collections::{BTreeMap, BTreeSet};

use litmus_core::ir::Test;
use litmus_core::outcome::{eval, observables};
use litmus_model::outcome::format_outcome;
use litmus_model::{check, Model, Options};

use super::group::Group;
use crate::gate::{seen, Seen};
use crate::record::Record;
use crate::Evidence;

/// One test, with what the model and the hardware say.
pub(super) struct Entry<'a> {
    /// The test's name; two versions of one test (edited between runs)
    /// are told apart by their IR hash: `MP [00ff...]`.
    pub name: String,
    /// Its place in the summary.
    pub group: Group,
    /// Every record of it.
    pub records: Vec<&'a Record>,
    /// Instances run, over every record.
    pub instances: u64,
    /// The devices that ran it, sorted.
    pub devices: Vec<&'a str>,
    /// The names of the values an outcome holds (`P1:r0`, `x`).
    pub observables: Vec<String>,
    /// Every outcome the hardware showed, most frequent first.
    pub rows: Vec<Row>,
    /// The outcome its condition names.
    pub condition: Condition,
    /// Why something is missing (no test text, the model failed).
    pub note: Option<String>,
}

/// One outcome the hardware showed.
pub(super) struct Row {
    /// What was seen, where and how often.
    pub seen: Seen,
    /// The model's verdict; `None`: it could not judge.
    pub allowed: Option<bool>,
    /// Whether it satisfies the test's condition (`false` when the test
    /// is unknown).
    pub satisfies: bool,
}

/// Whether the hardware showed the outcome the condition names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Some instance showed it.
    Seen,
    /// Runs, none showed it.
    Unseen,
    /// The evidence holds no readable test: the condition is unknown.
    Unknown,
}

/// The outcome(s) satisfying a test's condition.
pub(super) struct Condition {
    /// The condition as written (`exists (P1:r0 == 1 /\ P1:r1 == 0)`),
    /// when the test is known.
    pub text: Option<String>,
    /// The outcomes satisfying it among those the model allows or the
    /// hardware showed: usually one. Empty when none is (or the test is
    /// unknown); the page then names the condition instead.
    pub outcomes: Vec<String>,
    /// Whether the model allows some of them; `None`: it could not judge.
    pub allowed: Option<bool>,
    /// Instances that showed one of them, over every device.
    pub count: u64,
    /// Seen, not seen, or unknown.
    pub status: Status,
}

impl Entry<'_> {
    /// The observed outcomes the model forbids.
    pub fn forbidden_seen(&self) -> impl Iterator<Item = &Row> {
        self.rows
            .iter()
            .filter(|r| r.allowed == Some(false) && r.seen.count > 0)
    }
}

/// Every test of `evidence` judged by `model`, in name order. The checks
/// are spread over the cores: a page of a thousand generated tests is a
/// thousand model checks.
pub(super) fn entries<'a>(
    evidence: &'a Evidence,
    model: &dyn Model,
    options: &Options,
) -> Vec<Entry<'a>> {
    let mut groups: BTreeMap<(&str, &str), Vec<&Record>> = BTreeMap::new();
    for r in &evidence.records {
        groups.entry((&r.test, &r.ir_hash)).or_default().push(r);
    }
    let mut versions: BTreeMap<&str, usize> = BTreeMap::new();
    for (name, _) in groups.keys() {
        *versions.entry(name).or_default() += 1;
    }
    let jobs: Vec<(String, Vec<&Record>)> = groups
        .into_iter()
        .map(|((name, hash), records)| {
            let name = if versions[name] > 1 {
                format!("{name} [{hash}]")
            } else {
                name.to_string()
            };
            (name, records)
        })
        .collect();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = jobs.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|(name, records)| entry(name.clone(), records.clone(), model, options))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a page worker panicked"))
            .collect()
    })
}

fn entry<'a>(
    name: String,
    records: Vec<&'a Record>,
    model: &dyn Model,
    options: &Options,
) -> Entry<'a> {
    let seen = seen(&records);
    let instances = records.iter().map(|r| r.instances).sum();
    let devices: BTreeSet<&str> = records.iter().map(|r| r.device.as_str()).collect();
    let parsed = records
        .iter()
        .find_map(|r| r.text.as_deref())
        .map(litmus_text::parse);
    let (test, mut note) = match parsed {
        Some(Ok(t)) => (Some(t), None),
        Some(Err(e)) => (
            None,
            Some(format!(
                "the recorded test does not parse: {}",
                e.render("evidence").trim()
            )),
        ),
        None => (
            None,
            Some("the evidence holds no test text: no model verdicts, no condition".to_string()),
        ),
    };
    let group = Group::of(&records[0].test, test.as_ref());
    let names = match &test {
        Some(t) => observables(t).iter().map(|o| o.display(t)).collect(),
        None => records[0].observables.clone(),
    };
    let (rows, condition) = match &test {
        None => (
            rows(seen, |_| None, |_| false),
            Condition {
                text: None,
                outcomes: Vec::new(),
                allowed: None,
                count: 0,
                status: Status::Unknown,
            },
        ),
        Some(test) => {
            let allowed = match check(test, model, options) {
                Ok(result) => Some(result.allowed),
                Err(e) => {
                    note = Some(format!("the model could not check it: {e}"));
                    None
                }
            };
            judged(test, seen, allowed.as_ref())
        }
    };
    Entry {
        name,
        group,
        records,
        instances,
        devices: devices.into_iter().collect(),
        observables: names,
        rows,
        condition,
        note,
    }
}

/// The rows of `seen`, most frequent first, each with its verdict and
/// whether it satisfies the condition.
fn rows(
    seen: Vec<Seen>,
    allowed: impl Fn(&[u32]) -> Option<bool>,
    satisfies: impl Fn(&[u32]) -> bool,
) -> Vec<Row> {
    let mut rows: Vec<Row> = seen
        .into_iter()
        .map(|s| Row {
            allowed: allowed(&s.values),
            satisfies: satisfies(&s.values),
            seen: s,
        })
        .collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.seen.count));
    rows
}

/// A known test's rows and condition; `allowed` is the model's set, when
/// it could check the test.
fn judged(
    test: &Test,
    seen: Vec<Seen>,
    allowed: Option<&BTreeSet<Vec<u32>>>,
) -> (Vec<Row>, Condition) {
    let obs = observables(test);
    // A damaged record may carry outcomes of the wrong length: they
    // satisfy nothing rather than being read past their end.
    let satisfies = |v: &[u32]| v.len() == obs.len() && eval(test, &obs, v);
    let rows = rows(seen, |v| allowed.map(|a| a.contains(v)), satisfies);
    let mut outcomes = Vec::new();
    let mut count = 0;
    for r in rows.iter().filter(|r| r.satisfies) {
        outcomes.push(r.seen.text.clone());
        count += r.seen.count;
    }
    let seen_values: BTreeSet<&[u32]> = rows.iter().map(|r| r.seen.values.as_slice()).collect();
    // Outcomes the model allows that satisfy the condition but never
    // showed: the line still names what was looked for.
    if let Some(allowed) = allowed {
        for v in allowed {
            if !seen_values.contains(v.as_slice()) && satisfies(v) {
                outcomes.push(format_outcome(test, &obs, v));
            }
        }
    }
    let condition_allowed = allowed.map(|a| a.iter().any(|v| satisfies(v)));
    let status = if count > 0 {
        Status::Seen
    } else {
        Status::Unseen
    };
    (
        rows,
        Condition {
            text: Some(litmus_text::print_condition(test)),
            outcomes,
            allowed: condition_allowed,
            count,
            status,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Observation, Run};

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    fn evidence(histogram: &[(Vec<u32>, u64)], text: bool) -> Evidence {
        let test = litmus_text::parse(MP).unwrap();
        let run = Run {
            histogram,
            instances: 100,
            unfinished: 0,
            device: "gpu",
            knobs: "",
            seed: 0,
        };
        let mut r = Record::of_run(&test, &run, "mp.litmus");
        if !text {
            r.text = None;
        }
        Evidence {
            records: vec![r],
            ..Evidence::default()
        }
    }

    fn one<'a>(e: &'a Evidence, model: &str) -> Entry<'a> {
        let model = litmus_model::model_by_name(model).unwrap();
        let mut all = entries(e, model, &Options::default());
        assert_eq!(all.len(), 1);
        all.remove(0)
    }

    #[test]
    fn the_condition_outcome_is_found_counted_and_judged() {
        let e = evidence(&[(vec![0, 0], 90), (vec![1, 0], 7), (vec![1, 1], 3)], true);
        let entry = one(&e, "ptx");
        assert_eq!(entry.condition.outcomes, ["P1:r0=1; P1:r1=0"]);
        assert_eq!(entry.condition.count, 7);
        assert_eq!(entry.condition.status, Status::Seen);
        assert_eq!(entry.condition.allowed, Some(true));
        // Most frequent first, and only the condition's row satisfies it.
        let counts: Vec<(u64, bool)> = entry
            .rows
            .iter()
            .map(|r| (r.seen.count, r.satisfies))
            .collect();
        assert_eq!(counts, [(90, false), (7, true), (3, false)]);
        assert_eq!(entry.forbidden_seen().count(), 0);
        // Under SC the same outcome is forbidden, and was seen.
        let entry = one(&e, "sc");
        assert_eq!(entry.condition.allowed, Some(false));
        assert_eq!(entry.forbidden_seen().count(), 1);
    }

    #[test]
    fn an_unseen_condition_outcome_is_still_named() {
        let e = evidence(&[(vec![0, 0], 50), (vec![1, 1], 50)], true);
        let entry = one(&e, "ptx");
        assert_eq!(entry.condition.status, Status::Unseen);
        assert_eq!(entry.condition.outcomes, ["P1:r0=1; P1:r1=0"]);
        // SC forbids it: no outcome satisfies the condition, and the page
        // names the condition itself.
        let entry = one(&e, "sc");
        assert!(entry.condition.outcomes.is_empty());
        assert_eq!(
            entry.condition.text.as_deref(),
            Some("exists (P1:r0 == 1 /\\ P1:r1 == 0)")
        );
    }

    #[test]
    fn a_test_without_text_is_unknown_but_keeps_its_outcomes() {
        let e = evidence(&[(vec![1, 0], 7)], false);
        let entry = one(&e, "ptx");
        assert_eq!(entry.condition.status, Status::Unknown);
        assert_eq!(entry.rows.len(), 1);
        assert_eq!(entry.rows[0].allowed, None);
        assert!(entry.note.is_some());
    }

    #[test]
    fn outcomes_of_the_wrong_length_satisfy_nothing() {
        let mut e = evidence(&[(vec![1, 0], 7)], true);
        e.records[0].histogram.push(Observation {
            values: vec![1],
            text: "P1:r0=1".into(),
            count: 2,
        });
        let entry = one(&e, "ptx");
        assert_eq!(entry.rows.len(), 2);
        assert_eq!(entry.condition.count, 7);
    }
}
