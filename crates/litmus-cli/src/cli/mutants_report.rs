//! `gpu-litmus mutants`'s output: the table and the score as text (the
//! JSON object is `litmus_runner::report::json::search`'s). The judging is
//! `litmus_evidence::mutation`'s; this file only prints it.

use std::path::Path;

use litmus_evidence::mutation::{Ground, Judged, Kill, Score};
use litmus_evidence::Evidence;
use litmus_model::cat::mutate::Mutation;
use litmus_runner::report::json::search::{KillSearch, MutantsReport};

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

    /// The table, the kill tests found, the times and the score.
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
                    search.candidates, search.bound
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

    /// The JSON object (`litmus_runner::report::json::search`).
    pub fn json(&self) -> MutantsReport<'_> {
        let (m, ground, judged) = (self.m, self.ground, self.judged);
        MutantsReport::of(
            m,
            ground,
            judged,
            self.given,
            self.evidence,
            self.kill_tests,
        )
    }
}
