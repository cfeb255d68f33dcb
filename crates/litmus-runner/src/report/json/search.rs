//! The JSON of the searches that tell models apart: `diff --format json`
//! and `mutants --format json` (and `mutants --out FILE`, which `report
//! --mutants` reads back). One object each, not yet under the schema's
//! version. Every object's fields are in alphabetical order: the order
//! they had when these objects were built untyped, kept so that the text
//! is the same.

use std::collections::BTreeSet;
use std::path::PathBuf;

use litmus_core::ir::Test;
use litmus_evidence::mutation::{Ground, Judged, Kill, Score};
use litmus_evidence::Evidence;
use litmus_gen::enumerate::Enumeration;
use litmus_model::cat::mutate::Mutation;
use litmus_model::compare::Difference;
use serde::Serialize;

/// The cycles a search enumerated (`--cycles-up-to`): the edges as written
/// and expanded, the bound, and how many cycles each length gave.
#[derive(Clone, Debug, Serialize)]
pub struct EnumerationJson {
    /// (edges, cycles of that many edges), for every length of the bound.
    pub by_length: Vec<(usize, usize)>,
    /// Cycles in all.
    pub cycles: usize,
    /// The edges as written (`Pod**`).
    pub edges: Vec<String>,
    /// Accesses a thread, at most.
    pub max_accesses: usize,
    /// The most cycles the bound allowed.
    pub max_cycles: usize,
    /// Edges a cycle, at most.
    pub max_edges: usize,
    /// Threads a cycle, at most.
    pub max_threads: usize,
    /// The edges drawn from, `*` expanded.
    pub vocabulary: Vec<String>,
}

impl EnumerationJson {
    /// The object for `e`.
    pub fn of(e: &Enumeration) -> EnumerationJson {
        EnumerationJson {
            by_length: e.by_length(),
            cycles: e.cycles.len(),
            edges: e.written.clone(),
            max_accesses: e.bound.max_accesses,
            max_cycles: e.bound.max_cycles,
            max_edges: e.bound.max_edges,
            max_threads: e.bound.max_threads,
            vocabulary: e.vocabulary.clone(),
        }
    }
}

/// `diff --format json`: the candidates and the tests that tell the two
/// models apart.
#[derive(Clone, Debug, Serialize)]
pub struct DiffReport<'a> {
    /// The bound searched, in words.
    pub bound: &'a str,
    /// The tests the models disagree on, smallest first.
    pub differences: Vec<DiffLine<'a>>,
    /// Enumerated cycles the family options do not fit.
    pub enumerated_left_out: usize,
    /// The enumeration, when `--cycles-up-to` asked for one.
    pub enumeration: Option<EnumerationJson>,
    /// Tests one of the models could not check.
    pub errors: Vec<TestError<'a>>,
    /// The shapes the family options do not fit, one line each.
    pub left_out: &'a [String],
    /// NEW, as given.
    pub new: &'a str,
    /// OLD, as given.
    pub old: &'a str,
    /// Candidate tests checked.
    pub tests: usize,
}

/// One test that tells the models apart.
#[derive(Clone, Debug, Serialize)]
pub struct DiffLine<'a> {
    /// Where it was written (`--out`), if it was.
    pub file: Option<String>,
    /// Its instructions, over every thread.
    pub instructions: usize,
    /// NEW's verdict on the condition.
    pub new: &'static str,
    /// OLD's.
    pub old: &'static str,
    /// The outcomes only NEW allows.
    pub only_new: &'a [String],
    /// The outcomes only OLD allows.
    pub only_old: &'a [String],
    /// Its name.
    pub test: &'a str,
    /// Its threads.
    pub threads: usize,
}

/// A test that could not be checked, and why.
#[derive(Clone, Debug, Serialize)]
pub struct TestError<'a> {
    /// Why.
    pub message: &'a str,
    /// The test's name.
    pub test: &'a str,
}

impl<'a> DiffLine<'a> {
    /// The line of `x`, written to `file` when it was.
    pub fn of(x: &'a Difference, file: Option<String>) -> DiffLine<'a> {
        DiffLine {
            file,
            instructions: x.instructions,
            new: x.new.as_str(),
            old: x.old.as_str(),
            only_new: &x.only_new,
            only_old: &x.only_old,
            test: &x.name,
            threads: x.threads,
        }
    }
}

impl<'a> TestError<'a> {
    /// The errors of a comparison over `tests`: (test index, message).
    pub fn all(tests: &'a [Test], errors: &'a [(usize, String)]) -> Vec<TestError<'a>> {
        errors
            .iter()
            .map(|(t, message)| TestError {
                message,
                test: &tests[*t].name.text,
            })
            .collect()
    }
}

/// What the kill-test search (`mutants --kill-tests`) found for one
/// surviving mutant.
#[derive(Clone, Debug)]
pub struct KillTests {
    /// The mutant's index in [`Mutation::mutants`].
    pub mutant: usize,
    /// The tests written, smallest first.
    pub files: Vec<PathBuf>,
}

/// The kill-test search: its bound, how many candidates it had, what it
/// left out, and what it found per mutant.
#[derive(Clone, Debug)]
pub struct KillSearch {
    /// The bound of its candidates, in words.
    pub bound: String,
    /// The cycles it enumerated, if it did.
    pub enumeration: Option<EnumerationJson>,
    /// Candidate tests (0 when no mutant needed the search).
    pub candidates: usize,
    /// What the family options do not fit, one line each.
    pub left_out: Vec<String>,
    /// Per mutant searched for, the tests written.
    pub found: Vec<KillTests>,
}

/// `mutants --format json`: every mutant, how it was judged, and the
/// score.
#[derive(Clone, Debug, Serialize)]
pub struct MutantsReport<'a> {
    /// The model against the evidence, as the gate judges it.
    pub base: Base<'a>,
    /// Edits whose text was the model's own or another mutant's.
    pub duplicates: usize,
    /// The evidence read.
    pub evidence: EvidenceSummary<'a>,
    /// The kill-test search, when `--kill-tests` asked for one.
    pub kill_tests_search: Option<KillSearchJson<'a>>,
    /// The model's file.
    pub model: String,
    /// Every mutant that compiles, numbered from 1.
    pub mutants: Vec<MutantJson<'a>>,
    /// The mutants that do not compile.
    pub skipped: Vec<SkippedJson<'a>>,
    /// The counts and the score.
    pub summary: Summary,
    /// Where the tests came from.
    pub tests: Tests,
}

/// The model itself against the evidence.
#[derive(Clone, Debug, Serialize)]
pub struct Base<'a> {
    /// Each observed outcome the model forbids.
    pub gate_failures: Vec<GateFailure<'a>>,
    /// Whether there is none.
    pub passes_gate: bool,
}

/// An observed outcome the model forbids.
#[derive(Clone, Debug, Serialize)]
pub struct GateFailure<'a> {
    /// How often it was seen.
    pub count: Option<u64>,
    /// The test's file.
    pub file: &'a str,
    /// The outcome, as recorded.
    pub outcome: Option<&'a str>,
    /// The test's name.
    pub test: &'a str,
}

/// The evidence a score was judged on.
#[derive(Clone, Debug, Serialize)]
pub struct EvidenceSummary<'a> {
    /// The devices of its records, sorted.
    pub devices: BTreeSet<&'a str>,
    /// Every line that is not a record.
    pub problems: Vec<String>,
    /// Its records.
    pub records: usize,
}

/// The kill-test search, as the JSON says it.
#[derive(Clone, Debug, Serialize)]
pub struct KillSearchJson<'a> {
    /// The bound of its candidates, in words.
    pub bound: &'a str,
    /// Candidate tests.
    pub candidates: usize,
    /// The cycles it enumerated, if it did.
    pub enumeration: &'a Option<EnumerationJson>,
    /// What the family options do not fit.
    pub left_out: &'a [String],
}

/// One mutant, how it relates to the model, and what killed it.
#[derive(Clone, Debug, Serialize)]
pub struct MutantJson<'a> {
    /// `equivalent`, `stronger`, `weaker` or `incomparable`.
    pub class: &'static str,
    /// The edit's column.
    pub column: u32,
    /// The edit, in words.
    pub description: &'a str,
    /// Tests on which it and the model differ.
    pub differences: usize,
    /// Whether the edit strengthens or weakens the model.
    pub direction: &'static str,
    /// Tests it or the model could not check.
    pub errors: Vec<TestAt<'a>>,
    /// The edit's file.
    pub file: &'a str,
    /// The kill tests written for it, when it was searched for.
    pub kill_tests: Option<Vec<String>>,
    /// `evidence`, `verdict`, or `None`: it survived.
    pub killed_by: Option<&'static str>,
    /// What killed it, one entry a test.
    pub kills: Vec<TestAt<'a>>,
    /// The edit's line.
    pub line: u32,
    /// Its number, from 1.
    pub number: usize,
    /// The edit's operator.
    pub operator: &'static str,
}

/// Something about one test: a kill (by evidence: `count` and
/// `outcomes`; by a verdict: `declared`) or an error (`message`).
#[derive(Clone, Debug, Serialize)]
pub struct TestAt<'a> {
    /// Instances that showed the outcomes the mutant forbids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// The verdict the test declares.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub declared: Option<&'static str>,
    /// The test's file.
    pub file: &'a str,
    /// Why it could not be checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<&'a str>,
    /// The outcomes the mutant forbids that the hardware showed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<&'a [String]>,
    /// The test's name.
    pub test: &'a str,
}

/// A mutant that does not compile.
#[derive(Clone, Debug, Serialize)]
pub struct SkippedJson<'a> {
    /// The edit's column.
    pub column: u32,
    /// The edit, in words.
    pub description: &'a str,
    /// Why it does not compile.
    pub error: String,
    /// The edit's file.
    pub file: &'a str,
    /// The edit's line.
    pub line: u32,
    /// The edit's operator.
    pub operator: &'static str,
}

/// The counts and the score: killed / (mutants - equivalent).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Mutants equivalent to the model on the tests.
    pub equivalent: usize,
    /// Killed by evidence.
    pub killed_by_evidence: usize,
    /// Killed by a declared verdict.
    pub killed_by_verdicts: usize,
    /// Mutants judged.
    pub mutants: usize,
    /// The score; `None` when every mutant is equivalent.
    pub score: Option<f64>,
    /// Killed by nothing.
    pub survived: usize,
}

/// Where the tests came from.
#[derive(Clone, Debug, Serialize)]
pub struct Tests {
    /// Read from the files given.
    pub given: usize,
    /// Read from the evidence's records.
    pub recorded: usize,
    /// In all.
    pub total: usize,
}

impl<'a> MutantsReport<'a> {
    /// The report of `m`'s mutants, `judged` on `ground` (whose first
    /// `given` tests came from the files given) over `evidence`, with the
    /// kill-test search when there was one.
    pub fn of(
        m: &'a Mutation,
        ground: &'a Ground<'a>,
        judged: &'a [Judged],
        given: usize,
        evidence: &'a Evidence,
        kill: Option<&'a KillSearch>,
    ) -> MutantsReport<'a> {
        let subjects = ground.subjects;
        let at = |t: usize| TestAt {
            count: None,
            declared: None,
            file: &subjects[t].file,
            message: None,
            outcomes: None,
            test: &subjects[t].test.name.text,
        };
        let mutants = m.mutants.iter().zip(judged).enumerate().map(|(i, (x, j))| {
            let kills = match &j.kill {
                Kill::Evidence(v) => v
                    .iter()
                    .map(|k| TestAt {
                        count: Some(k.count),
                        outcomes: Some(&k.outcomes),
                        ..at(k.test)
                    })
                    .collect(),
                Kill::Verdict(v) => v
                    .iter()
                    .map(|k| TestAt {
                        declared: Some(k.declared.as_str()),
                        ..at(k.test)
                    })
                    .collect(),
                Kill::Survived => Vec::new(),
            };
            let found = kill.and_then(|k| k.found.iter().find(|k| k.mutant == i));
            MutantJson {
                class: j.class.class.name(),
                column: x.pos.column,
                description: &x.description,
                differences: j.class.differences.len(),
                direction: x.direction.name(),
                errors: j
                    .class
                    .errors
                    .iter()
                    .map(|(t, e)| TestAt {
                        message: Some(e),
                        ..at(*t)
                    })
                    .collect(),
                file: &x.file,
                kill_tests: found
                    .map(|k| k.files.iter().map(|f| f.display().to_string()).collect()),
                killed_by: match j.kill {
                    Kill::Evidence(_) => Some("evidence"),
                    Kill::Verdict(_) => Some("verdict"),
                    Kill::Survived => None,
                },
                kills,
                line: x.pos.line,
                number: i + 1,
                operator: x.operator.name(),
            }
        });
        let skipped = m.skipped.iter().map(|x| SkippedJson {
            column: x.pos.column,
            description: &x.description,
            error: x.error.to_string(),
            file: &x.file,
            line: x.pos.line,
            operator: x.operator.name(),
        });
        let gate_failures: Vec<GateFailure> = ground
            .base_failures
            .iter()
            .enumerate()
            .flat_map(|(t, fs)| {
                fs.iter().map(move |v| {
                    let shown = ground.seen[t].iter().find(|s| &s.values == v);
                    GateFailure {
                        count: shown.map(|s| s.count),
                        file: &subjects[t].file,
                        outcome: shown.map(|s| s.text.as_str()),
                        test: &subjects[t].test.name.text,
                    }
                })
            })
            .collect();
        let s = Score::of(judged);
        MutantsReport {
            base: Base {
                passes_gate: gate_failures.is_empty(),
                gate_failures,
            },
            duplicates: m.duplicates,
            evidence: EvidenceSummary {
                devices: evidence.records.iter().map(|r| r.device.as_str()).collect(),
                problems: evidence.problems.iter().map(|p| p.to_string()).collect(),
                records: evidence.records.len(),
            },
            kill_tests_search: kill.map(|k| KillSearchJson {
                bound: &k.bound,
                candidates: k.candidates,
                enumeration: &k.enumeration,
                left_out: &k.left_out,
            }),
            model: m.path.display().to_string(),
            mutants: mutants.collect(),
            skipped: skipped.collect(),
            summary: Summary {
                equivalent: s.equivalent,
                killed_by_evidence: s.by_evidence,
                killed_by_verdicts: s.by_verdicts,
                mutants: s.mutants,
                score: s.value(),
                survived: s.survived,
            },
            tests: Tests {
                given,
                recorded: subjects.len() - given,
                total: subjects.len(),
            },
        }
    }
}
