//! The environment search's trials as evidence: with evidence on, every
//! GPU run is a record, the search's too. A trial ran the test under one
//! candidate's knobs; its record (through [`record_of`], as a test's own
//! run) carries those knobs and the toolchain, marked [`Kind::Trial`] so
//! that the report tells it from a campaign's run and `campaign --resume`
//! does not take it for one. The gate counts its instances like any.

use std::path::{Path, PathBuf};

use litmus_core::ir::Test;
use litmus_evidence::{Kind, Record};
use litmus_hw::HwResult;

use crate::runner::record_of;

/// Records trials into an evidence folder, or nothing without one.
#[derive(Debug, Default)]
pub struct TrialRecorder {
    dir: Option<PathBuf>,
    error: Option<String>,
}

impl TrialRecorder {
    /// A recorder into `dir` (`None`: evidence is off, nothing is written).
    pub fn new(dir: Option<&Path>) -> TrialRecorder {
        TrialRecorder {
            dir: dir.map(Path::to_path_buf),
            error: None,
        }
    }

    /// Records one trial of `test` (from `source`, its file) that ran.
    /// A failure to write is kept (the first one) rather than stopping
    /// the search: the caller says it once at the end.
    pub fn record(&mut self, test: &Test, source: &str, hw: &HwResult) {
        let Some(dir) = &self.dir else { return };
        let record = Record {
            kind: Kind::Trial,
            ..record_of(test, hw, source)
        };
        if let Err(e) = litmus_evidence::store::append(dir, record) {
            self.error
                .get_or_insert_with(|| format!("cannot record evidence in {}: {e}", dir.display()));
        }
    }

    /// The first write that failed, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_core::outcome::observables;
    use litmus_evidence::Evidence;
    use litmus_hw::{GpuError, Knobs};
    use litmus_tune::family::{search_family, FamilyPlan, Subject};
    use litmus_tune::target::Target;
    use std::time::Duration;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    /// A stand-in GPU: test 1 shows its weak outcome under any knobs,
    /// test 0 never; a million instances per millisecond of budget.
    fn fake(t: usize, k: &Knobs) -> Result<HwResult, GpuError> {
        let instances = k.budget_ms * 1_000_000;
        let weak = if t == 1 { instances / 100 } else { 0 };
        Ok(HwResult {
            histogram: vec![(vec![1, 0], weak), (vec![1, 1], instances - weak)],
            unfinished: 0,
            launches: k.budget_ms,
            instances,
            wall: Duration::from_millis(k.budget_ms),
            device: "fake".into(),
            knobs: k.clone(),
            host_threads: 0,
            build: Default::default(),
        })
    }

    #[test]
    fn with_evidence_on_every_trial_is_a_trial_record_with_its_knobs() {
        let dir = std::env::temp_dir().join(format!("litmus-trials-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tests: Vec<Test> = (0..2)
            .map(|i| {
                let mut t = litmus_text::parse(MP).unwrap();
                t.name.text = format!("mp{i}");
                t
            })
            .collect();
        let subjects: Vec<Subject> = tests
            .iter()
            .map(|t| Subject {
                test: t,
                ptx: "",
                target: Target::Condition(observables(t)),
            })
            .collect();
        let mut recorder = TrialRecorder::new(Some(&dir));
        let mut ran: Vec<(String, String)> = Vec::new();
        let plan = FamilyPlan::within(40, 4, 7);
        search_family(
            &subjects,
            &Knobs::default(),
            &plan,
            |t, s, k| {
                let r = fake(t, k);
                if let Ok(hw) = &r {
                    recorder.record(s.test, &format!("mp{t}.litmus"), hw);
                    ran.push((s.test.name.text.clone(), hw.knobs.to_string()));
                }
                r
            },
            |_, _| {},
        );
        assert_eq!(recorder.error(), None);
        // The search ran several trials: a test that is never seen tries
        // the whole pool.
        assert!(ran.len() > 4, "{ran:?}");
        let evidence = Evidence::read(std::slice::from_ref(&dir)).unwrap();
        assert!(evidence.problems.is_empty(), "{:?}", evidence.problems);
        let recorded: Vec<(String, String)> = evidence
            .records
            .iter()
            .map(|r| {
                assert_eq!(r.kind, Kind::Trial);
                assert_eq!(r.source, format!("{}.litmus", r.test));
                (r.test.clone(), r.knobs.clone().unwrap())
            })
            .collect();
        assert_eq!(recorded, ran);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
