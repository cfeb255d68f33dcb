//! The campaign's engine: what `gpu-litmus campaign` counts over its tests
//! (the [`Tally`]), the line it prints per test (text or JSON) and the
//! closing summary. The command reads files, schedules them and resumes;
//! this is what it says about each test and the set, kept here so that
//! other drivers (a script, a service) print the same lines.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Duration;

use litmus_evidence::stats::{wilson, Z95};
use serde::Serialize;

use crate::report::json::{knob_settings, SCHEMA};

use crate::figures::{failures, Figures};
use crate::runner::TestReport;
use crate::shard::Selection;

/// What a campaign counts over its tests.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// Tests counted.
    pub tests: usize,
    /// Those of them that failed.
    pub failed: usize,
    /// Tests whose condition the model allows (and that ran).
    pub allowed: usize,
    /// Those of them in which the weak outcome was seen.
    pub allowed_seen: usize,
    /// Tests in which the GPU showed an outcome the model forbids.
    pub forbidden_seen: usize,
    /// GPU time of the tests that ran.
    pub gpu: Duration,
    /// Per family (`litmus_gen::naming::family`): the
    /// tests whose condition the model allows, and those seen.
    pub families: BTreeMap<String, (usize, usize)>,
    /// With a search after the run (`campaign --tune`): the tests whose
    /// weak outcome the run did not show and the search did (counted in
    /// `allowed_seen` too); `None` without one.
    pub seen_in_search: Option<usize>,
}

/// The closing lines: with `--tune`, one per family first; then the
/// campaign's.
pub fn summary(
    out: &mut dyn Write,
    tally: &Tally,
    selection: &Selection,
    wall: Duration,
    json: bool,
    families: bool,
) -> std::io::Result<()> {
    if !json {
        if families {
            for (family, (allowed, seen)) in &tally.families {
                writeln!(
                    out,
                    "family {family}: weak outcome seen in {seen} of {allowed}"
                )?;
            }
        }
        writeln!(
            out,
            "campaign: {}, {} passed, {} failed; weak outcome seen in {} of {} tests whose condition the model allows{}; forbidden outcome seen in {} tests; GPU time {:.1} s, wall {:.1} s",
            selection.describe(),
            tally.tests - tally.failed,
            tally.failed,
            tally.allowed_seen,
            tally.allowed,
            tally
                .seen_in_search
                .map_or_else(String::new, |n| format!(" ({n} of them in the search)")),
            tally.forbidden_seen,
            tally.gpu.as_secs_f64(),
            wall.as_secs_f64()
        )
    } else {
        writeln!(
            out,
            "{}",
            serde_json::to_string(&SummaryLine {
                schema: SCHEMA,
                summary: Summary {
                    tests: tally.tests,
                    shard: selection.shard.map(|s| s.to_string()),
                    of: selection.total,
                    passed: tally.tests - tally.failed,
                    failed: tally.failed,
                    allowed: tally.allowed,
                    allowed_seen: tally.allowed_seen,
                    seen_in_search: tally.seen_in_search,
                    forbidden_seen: tally.forbidden_seen,
                    gpu_seconds: tally.gpu.as_secs_f64(),
                    wall_seconds: wall.as_secs_f64(),
                    families: tally
                        .families
                        .iter()
                        .map(|(f, &(allowed, seen))| (f.clone(), FamilyCount { allowed, seen }))
                        .collect(),
                },
            })
            .expect("a summary serializes")
        )
    }
}

/// One test's line, counted into `tally` (and into `family`'s row: the
/// family is the caller's to name, `litmus_gen::naming::family` for the
/// CLI).
pub fn line(
    file: &str,
    family: &str,
    report: &TestReport,
    unwritten: Option<String>,
    json: bool,
    tally: &mut Tally,
) -> String {
    let passed = report.passed() && unwritten.is_none();
    let figures = Figures::of(report);
    tally.count(passed, &figures);
    tally.count_family(family, &figures);
    let failures = failures(report, unwritten.as_deref());
    match (json, figures.ran) {
        (true, _) => json_line(file, report, passed, &figures, &failures),
        (false, Some(r)) => {
            let weak = figures.weak;
            let forbidden = figures.forbidden;
            let (lo, hi) = wilson(weak, r.instances, Z95);
            format!(
                "{file}: weak {weak}/{} ({:.2e} [{lo:.2e}, {hi:.2e}]) {:.2e}/s; forbidden seen {forbidden}; {}\n",
                r.instances,
                weak as f64 / r.instances.max(1) as f64,
                weak as f64 / r.wall.as_secs_f64().max(1e-9),
                if passed { "passed".to_string() } else { format!("FAILED: {failures}") }
            )
        }
        (false, None) => format!(
            "{file}: {}{}\n",
            crate::report::text::summary(report),
            if passed {
                String::new()
            } else {
                format!("; FAILED: {failures}")
            }
        ),
    }
}

impl Tally {
    /// Counts one test into its family's row.
    pub fn count_family(&mut self, family: &str, f: &Figures) {
        if !(f.condition_allowed && f.ran.is_some()) {
            return;
        }
        let row = self.families.entry(family.to_string()).or_default();
        row.0 += 1;
        row.1 += usize::from(f.weak > 0);
    }

    /// Counts a test whose weak outcome the run missed and a search after
    /// it showed (the test was counted by [`Tally::count`] already).
    pub fn count_seen_in_search(&mut self, family: &str) {
        self.allowed_seen += 1;
        *self.seen_in_search.get_or_insert(0) += 1;
        if let Some(row) = self.families.get_mut(family) {
            row.1 += 1;
        }
    }

    /// Counts a test in whose search the GPU showed an outcome the model
    /// forbids: it failed (once, however many of its stages did).
    pub fn count_forbidden_in_search(&mut self, failed_already: bool, forbidden_already: bool) {
        if !failed_already {
            self.failed += 1;
        }
        if !forbidden_already {
            self.forbidden_seen += 1;
        }
    }

    /// Counts a test that could not be read: it failed.
    pub fn count_unreadable(&mut self) {
        self.tests += 1;
        self.failed += 1;
    }

    /// Counts one test that ran.
    pub fn count(&mut self, passed: bool, f: &Figures) {
        self.tests += 1;
        if !passed {
            self.failed += 1;
        }
        if let Some(r) = f.ran {
            self.gpu += r.wall;
            if f.forbidden > 0 {
                self.forbidden_seen += 1;
            }
        }
        if f.condition_allowed && f.ran.is_some() {
            self.allowed += 1;
            if f.weak > 0 {
                self.allowed_seen += 1;
            }
        }
    }
}

/// The campaign's closing JSON line: `{"schema": ..., "summary": {...}}`.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryLine {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The counts.
    pub summary: Summary,
}

/// What a campaign counted, as its closing JSON line says it.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// Tests counted.
    pub tests: usize,
    /// `K/N` under `--shard`.
    pub shard: Option<String>,
    /// The tests selected from.
    pub of: usize,
    /// Tests that passed.
    pub passed: usize,
    /// Tests that failed.
    pub failed: usize,
    /// Tests whose condition the model allows (and that ran).
    pub allowed: usize,
    /// Those of them in which the weak outcome was seen.
    pub allowed_seen: usize,
    /// Those of them that only the search after the run showed
    /// (`campaign --tune`; null without it).
    pub seen_in_search: Option<usize>,
    /// Tests in which the GPU showed an outcome the model forbids.
    pub forbidden_seen: usize,
    /// GPU time.
    pub gpu_seconds: f64,
    /// Wall time.
    pub wall_seconds: f64,
    /// Per family: tests whose condition is allowed, and those seen.
    pub families: BTreeMap<String, FamilyCount>,
}

/// A family's row of the summary.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyCount {
    /// Tests whose condition the model allows.
    pub allowed: usize,
    /// Those of them in which the weak outcome was seen.
    pub seen: usize,
}

/// One test's campaign line in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct CampaignLine<'a> {
    /// [`SCHEMA`].
    pub schema: &'static str,
    /// The file as given.
    pub file: &'a str,
    /// The test's name.
    pub test: &'a str,
    /// Whether it passed.
    pub passed: bool,
    /// The model.
    pub model: &'static str,
    /// Whether the model allows the condition.
    pub condition_allowed: bool,
    /// Why it failed (empty when it passed).
    pub failures: &'a str,
    /// The hardware's figures, when it ran (flattened into the line).
    #[serde(flatten)]
    pub ran: Option<RanFigures<'a>>,
    /// Why the hardware did not run, when it did not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hardware: Option<String>,
}

/// A campaign line's figures from the hardware.
#[derive(Clone, Debug, Serialize)]
pub struct RanFigures<'a> {
    /// Instances that showed the weak outcome.
    pub weak: u64,
    /// Instances run.
    pub instances: u64,
    /// `weak / instances`.
    pub rate: f64,
    /// The rate's 95% Wilson interval, low end.
    pub rate_low: f64,
    /// And high end.
    pub rate_high: f64,
    /// Weak outcomes per GPU second.
    pub weak_per_s: f64,
    /// Instances that showed an outcome the model forbids.
    pub forbidden_seen: u64,
    /// GPU time.
    pub gpu_seconds: f64,
    /// The device.
    pub device: &'a str,
    /// The knobs as one line, as evidence records hold them.
    pub knobs: String,
    /// The same knobs as an object.
    pub knob_settings: BTreeMap<String, serde_json::Value>,
}

/// One test's JSON record, as a line.
pub fn json_line(
    file: &str,
    report: &TestReport,
    passed: bool,
    f: &Figures,
    failures: &str,
) -> String {
    let (weak, forbidden) = (f.weak, f.forbidden);
    let ran = f.ran.map(|r| {
        let (rate_low, rate_high) = wilson(weak, r.instances, Z95);
        let knobs = r.knobs.to_string();
        RanFigures {
            weak,
            instances: r.instances,
            rate: weak as f64 / r.instances.max(1) as f64,
            rate_low,
            rate_high,
            weak_per_s: weak as f64 / r.wall.as_secs_f64().max(1e-9),
            forbidden_seen: forbidden,
            gpu_seconds: r.wall.as_secs_f64(),
            device: &r.device,
            knob_settings: knob_settings(&knobs),
            knobs,
        }
    });
    let line = CampaignLine {
        schema: SCHEMA,
        file,
        test: &report.test,
        passed,
        model: report.model,
        condition_allowed: f.condition_allowed,
        failures,
        hardware: ran.is_none().then(|| crate::report::text::summary(report)),
        ran,
    };
    format!(
        "{}\n",
        serde_json::to_string(&line).expect("a campaign line serializes")
    )
}
