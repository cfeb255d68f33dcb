//! `gpu-litmus mutants`'s output: the table and the score as text, and the
//! JSON object. The judging is `litmus_evidence::mutation`'s; this file
//! only prints it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use litmus_evidence::mutation::{Ground, Judged, Kill, Score};
use litmus_evidence::Evidence;
use litmus_model::cat::mutate::Mutation;
use serde_json::{json, Value};

/// What the kill-test search found for one surviving mutant.
pub struct KillTests {
    pub mutant: usize,
    /// The tests written, smallest first.
    pub files: Vec<PathBuf>,
}

/// The kill-test search: how many candidates it had, what it left out,
/// and what it found per mutant.
pub struct KillSearch {
    /// Candidate tests (0 when no mutant needed the search).
    pub candidates: usize,
    /// Shapes the family options do not fit, one line each.
    pub left_out: Vec<String>,
    pub found: Vec<KillTests>,
}

/// Everything the command prints.
pub struct Report<'a> {
    pub m: &'a Mutation,
    pub ground: &'a Ground<'a>,
    pub judged: &'a [Judged],
    /// Tests read from the FILE|DIR given.
    pub given: usize,
    pub paths_given: bool,
    pub evidence: &'a Evidence,
    pub kill_tests: Option<&'a KillSearch>,
    pub bound: String,
    /// The enumeration of the kill-test search, as JSON.
    pub enumeration: Value,
    /// Where the time went, for the text's last line.
    pub times: String,
}

impl Report<'_> {
    fn score(&self) -> Score {
        Score::of(self.judged)
    }

    fn test_name(&self, t: usize) -> &str {
        &self.ground.subjects[t].test.name.text
    }

    /// The first killing test, as the table shows it.
    fn killer(&self, kill: &Kill) -> String {
        match kill {
            Kill::Evidence(v) => format!("{} ({})", self.test_name(v[0].test), v[0].count),
            Kill::Verdict(v) => format!(
                "{} (declared {})",
                self.test_name(v[0].test),
                v[0].declared.as_str()
            ),
            Kill::Survived => String::new(),
        }
    }

    fn base_failures(&self) -> usize {
        self.ground.base_failure_count()
    }

    fn tests_line(&self) -> String {
        let total = self.ground.subjects.len();
        let recorded = total - self.given;
        if self.paths_given {
            format!(
                "{total} tests: {} from the files given, {recorded} more recorded in the evidence",
                self.given
            )
        } else {
            format!(
                "{total} tests, all recorded in the evidence (no FILE|DIR given, so nothing else)"
            )
        }
    }

    fn base_line(&self) -> String {
        let records: usize = self.evidence.records.len();
        match self.base_failures() {
            0 => format!(
                "the model passes the gate: no outcome of the {records} evidence records is forbidden"
            ),
            n => format!(
                "the model FAILS the gate: {n} observed outcome{} forbidden (see `gpu-litmus gate --model {}`); mutants scored anyway",
                if n == 1 { " is" } else { "s are" },
                litmus_core::shell::quote(&self.m.path.display().to_string())
            ),
        }
    }

    fn score_line(&self) -> String {
        let s = self.score();
        let value = match s.value() {
            Some(v) => format!(
                "{}/{} = {v:.3}",
                s.by_evidence + s.by_verdicts,
                s.mutants - s.equivalent
            ),
            None => "undefined (every mutant is equivalent)".to_string(),
        };
        format!(
            "mutants: {} ({} equivalent on these tests), killed by evidence {}, by verdicts {}, survived {}; score = killed / (N - E) = {value}",
            s.mutants, s.equivalent, s.by_evidence, s.by_verdicts, s.survived
        )
    }

    pub fn text(&self) -> String {
        let m = self.m;
        let mut s = format!(
            "mutants of {}: {} ({} do not compile, {} duplicates dropped)\n{}\n{}\n\n",
            m.path.display(),
            m.mutants.len(),
            m.skipped.len(),
            m.duplicates,
            self.tests_line(),
            self.base_line()
        );
        let locations: Vec<String> = m
            .mutants
            .iter()
            .map(|x| format!("{}:{}:{}", x.file, x.pos.line, x.pos.column))
            .collect();
        let width = locations.iter().map(|l| l.len()).max().unwrap_or(8).max(8);
        let killers: Vec<String> = self.judged.iter().map(|j| self.killer(&j.kill)).collect();
        let kwidth = killers
            .iter()
            .map(|k| k.chars().count())
            .max()
            .unwrap_or(4)
            .max(4);
        // The operators' names decide the column's width: the composite
        // ones (`relaxed-as-release-acquire`) are the longest.
        let owidth = m
            .mutants
            .iter()
            .map(|x| x.operator.name().len())
            .max()
            .unwrap_or(8)
            .max(8);
        s.push_str(&format!(
            "{:>4}  {:<owidth$}  {:<width$}  {:<12}  {:<9}  {:<kwidth$}  edit\n",
            "#", "operator", "location", "class", "killed-by", "test"
        ));
        for (i, (x, j)) in m.mutants.iter().zip(self.judged).enumerate() {
            s.push_str(&format!(
                "{:>4}  {:<owidth$}  {:<width$}  {:<12}  {:<9}  {:<kwidth$}  {}\n",
                i + 1,
                x.operator.name(),
                locations[i],
                j.class.class.name(),
                j.kill.word(),
                killers[i],
                x.description
            ));
        }
        if let Some(search) = self.kill_tests {
            let kills = &search.found;
            if kills.is_empty() {
                s.push_str("\nkill tests: no surviving mutant is stronger or incomparable\n");
            } else {
                s.push_str(&format!(
                    "\nkill tests for the surviving stronger and incomparable mutants, among {} candidate tests (bound: {}):\n",
                    search.candidates, self.bound
                ));
            }
            for note in &search.left_out {
                s.push_str(&format!("  note: {note}\n"));
            }
            for k in kills {
                match k.files.first() {
                    None => s.push_str(&format!("  #{}: none within the bound\n", k.mutant + 1)),
                    Some(f) => s.push_str(&format!(
                        "  #{}: {} test{} in {} (first: {})\n",
                        k.mutant + 1,
                        k.files.len(),
                        if k.files.len() == 1 { "" } else { "s" },
                        f.parent().unwrap_or(Path::new(".")).display(),
                        f.file_name().unwrap_or_default().to_string_lossy()
                    )),
                }
            }
        }
        s.push('\n');
        s.push_str(&self.times);
        s.push('\n');
        s.push_str(&self.score_line());
        s.push('\n');
        s
    }

    pub fn json(&self) -> Value {
        let subjects = self.ground.subjects;
        let test = |t: usize| json!({"file": subjects[t].file, "test": self.test_name(t)});
        let mutants: Vec<Value> = self
            .m
            .mutants
            .iter()
            .zip(self.judged)
            .enumerate()
            .map(|(i, (x, j))| {
                let kills: Vec<Value> = match &j.kill {
                    Kill::Evidence(v) => v
                        .iter()
                        .map(|k| {
                            let mut o = test(k.test);
                            o["count"] = json!(k.count);
                            o["outcomes"] = json!(k.outcomes);
                            o
                        })
                        .collect(),
                    Kill::Verdict(v) => v
                        .iter()
                        .map(|k| {
                            let mut o = test(k.test);
                            o["declared"] = json!(k.declared.as_str());
                            o
                        })
                        .collect(),
                    Kill::Survived => Vec::new(),
                };
                let kill_tests = self.kill_tests.and_then(|k| {
                    k.found.iter().find(|k| k.mutant == i).map(|k| {
                        k.files
                            .iter()
                            .map(|f| f.display().to_string())
                            .collect::<Vec<_>>()
                    })
                });
                json!({
                    "number": i + 1,
                    "operator": x.operator.name(),
                    "description": x.description,
                    "file": x.file,
                    "line": x.pos.line,
                    "column": x.pos.column,
                    "direction": x.direction.name(),
                    "class": j.class.class.name(),
                    "differences": j.class.differences.len(),
                    "errors": j.class.errors.iter().map(|(t, e)| {
                        let mut o = test(*t);
                        o["message"] = json!(e);
                        o
                    }).collect::<Vec<_>>(),
                    "killed_by": match j.kill {
                        Kill::Evidence(_) => Value::from("evidence"),
                        Kill::Verdict(_) => Value::from("verdict"),
                        Kill::Survived => Value::Null,
                    },
                    "kills": kills,
                    "kill_tests": kill_tests,
                })
            })
            .collect();
        let skipped: Vec<Value> = self
            .m
            .skipped
            .iter()
            .map(|x| {
                json!({
                    "operator": x.operator.name(),
                    "description": x.description,
                    "file": x.file,
                    "line": x.pos.line,
                    "column": x.pos.column,
                    "error": x.error.to_string(),
                })
            })
            .collect();
        let base_failures: Vec<Value> = self
            .ground
            .base_failures
            .iter()
            .enumerate()
            .flat_map(|(t, fs)| {
                fs.iter().map(move |v| {
                    let shown = self.ground.seen[t].iter().find(|s| &s.values == v);
                    json!({
                        "file": subjects[t].file,
                        "test": subjects[t].test.name.text,
                        "outcome": shown.map(|s| s.text.clone()),
                        "count": shown.map(|s| s.count),
                    })
                })
            })
            .collect();
        let s = self.score();
        let devices: BTreeSet<&str> = self
            .evidence
            .records
            .iter()
            .map(|r| r.device.as_str())
            .collect();
        json!({
            "model": self.m.path.display().to_string(),
            "tests": {
                "total": subjects.len(),
                "given": self.given,
                "recorded": subjects.len() - self.given,
            },
            "evidence": {
                "records": self.evidence.records.len(),
                "devices": devices,
                "problems": self.evidence.problems.iter().map(|p| p.to_string()).collect::<Vec<_>>(),
            },
            "base": {
                "passes_gate": base_failures.is_empty(),
                "gate_failures": base_failures,
            },
            "mutants": mutants,
            "skipped": skipped,
            "duplicates": self.m.duplicates,
            "kill_tests_search": self.kill_tests.map(|k| json!({
                "bound": self.bound,
                "enumeration": self.enumeration,
                "candidates": k.candidates,
                "left_out": k.left_out,
            })),
            "summary": {
                "mutants": s.mutants,
                "equivalent": s.equivalent,
                "killed_by_evidence": s.by_evidence,
                "killed_by_verdicts": s.by_verdicts,
                "survived": s.survived,
                "score": s.value(),
            },
        })
    }
}
