//! One test's state in the family-wide search ([`super`]): what it
//! tried, what it owes each configuration in this pass, and which trial it
//! takes next.

use std::collections::BTreeSet;
use std::time::Duration;

use litmus_hw::{GpuError, HwResult, Knobs};

use super::{Found, Subject};
use crate::overrun::Overrun;
use crate::search::Trial;

/// A test's state during the search.
pub(super) struct State {
    /// Its trial per pool configuration (`None`: not tried yet).
    trials: Vec<Option<Trial>>,
    /// Pool indices in this test's tie-breaking order.
    order: Vec<usize>,
    /// Passes over the pool finished (the slice is doubled per pass).
    pass: u32,
    /// Per pool index, the GPU time asked of it in the current pass.
    given: Vec<u64>,
    pub(super) runs: usize,
    pub(super) weak: u64,
    instances: u64,
    gpu: Duration,
    /// Every outcome its trials showed.
    outcomes: BTreeSet<Vec<u32>>,
    /// GPU time spent since the weak outcome first showed.
    refining: Duration,
    /// Set when the test is done: seen and refined, or every trial failed.
    pub(super) done: bool,
    /// Pool indices whose trial failed for this test: not tried again.
    failed: BTreeSet<usize>,
    last_error: Option<GpuError>,
}

impl State {
    pub(super) fn new(pool: usize, seed: u64) -> State {
        // The base first for every test (it is what runs without tuning,
        // and the campaign compares against it), then a shuffled order.
        let mut order: Vec<usize> = (1..pool).collect();
        let mut s = seed;
        for i in (1..order.len()).rev() {
            let j = (litmus_hw::splitmix(&mut s) % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        order.insert(0, 0);
        State {
            trials: vec![None; pool],
            order,
            pass: 0,
            given: vec![0; pool],
            runs: 0,
            weak: 0,
            instances: 0,
            gpu: Duration::ZERO,
            outcomes: BTreeSet::new(),
            refining: Duration::ZERO,
            done: false,
            failed: BTreeSet::new(),
            last_error: None,
        }
    }

    /// The next trial: the pool configuration and its slice. While unseen:
    /// of the configurations still owed time in this pass, the one of most
    /// credit, ties in this test's order, none that `overrun` left out. A
    /// configuration is owed `slices[c]` slices a pass (what it showed in
    /// the kin, [`crate::credit::Credit::slices`]), less what this pass
    /// gave it; one that shows the kin after this test tried it is owed the
    /// difference, and is tried again at once if it is owed a whole slice
    /// more. A finished pass starts the next with twice the slice. Once
    /// seen: its configurations that showed the weak outcome, best first,
    /// at twice the slice they last ran.
    ///
    /// Why owed rather than tried once a pass: the credit grows while a
    /// pass runs, and a rare variant shows where its kin shows, at a
    /// lower rate; tried once a pass, a configuration that showed the kin
    /// after the test tried it waited a whole pass for its slices
    /// (`docs/tuning-and-campaigns.md`, "Owed, not tried once").
    pub(super) fn next(
        &mut self,
        credit: &[f64],
        slices: &[f64],
        overrun: &Overrun,
        slice_ms: u64,
    ) -> Option<(usize, u64)> {
        if self.weak > 0 {
            return self.next_refinement(slice_ms);
        }
        let usable: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|c| !self.failed.contains(c) && !overrun.dropped(*c))
            .collect();
        if usable.is_empty() {
            return None;
        }
        let owed = |given: &[u64], pass: u32, c: usize| {
            let slice = slice_ms << pass.min(10);
            let want = (slice as f64 * slices[c]).round() as u64;
            Some(want.saturating_sub(given[c])).filter(|&ms| ms >= slice)
        };
        if usable
            .iter()
            .all(|&c| owed(&self.given, self.pass, c).is_none())
        {
            self.pass += 1;
            self.given.iter_mut().for_each(|g| *g = 0);
        }
        let (c, ms) = usable
            .into_iter()
            .filter_map(|c| owed(&self.given, self.pass, c).map(|ms| (c, ms)))
            .enumerate()
            .max_by(|(ia, (a, _)), (ib, (b, _))| credit[*a].total_cmp(&credit[*b]).then(ib.cmp(ia)))
            .map(|(_, cm)| cm)?;
        self.given[c] += ms;
        Some((c, ms))
    }

    /// A seen test's refinement: its best configuration that showed the
    /// weak outcome, again for twice as long as it has run so far.
    fn next_refinement(&self, slice_ms: u64) -> Option<(usize, u64)> {
        let (c, t) = self
            .trials
            .iter()
            .enumerate()
            .filter_map(|(c, t)| t.as_ref().filter(|t| t.weak > 0).map(|t| (c, t)))
            .max_by(|a, b| a.1.score().total_cmp(&b.1.score()))?;
        let ms = (t.gpu.as_millis() as u64).max(slice_ms) * 2;
        Some((c, ms))
    }

    /// Adds a run's counts; says whether the run showed the weak outcome.
    pub(super) fn record(
        &mut self,
        c: usize,
        knobs: &Knobs,
        r: &HwResult,
        subject: &Subject,
    ) -> bool {
        let was_seen = self.weak > 0;
        let trial = self.trials[c].get_or_insert_with(|| Trial {
            knobs: knobs.clone(),
            weak: 0,
            instances: 0,
            gpu: Duration::ZERO,
            device: String::new(),
            build: String::new(),
        });
        let weak: u64 = r
            .histogram
            .iter()
            .filter(|(v, _)| subject.target.hits(subject.test, v))
            .map(|(_, n)| n)
            .sum();
        trial.weak += weak;
        trial.instances += r.instances;
        trial.gpu += r.wall;
        trial.device.clone_from(&r.device);
        trial.build = r.build.to_string();
        self.runs += 1;
        self.weak += weak;
        self.instances += r.instances;
        self.outcomes.extend(
            r.histogram
                .iter()
                .filter(|(_, n)| *n > 0)
                .map(|(v, _)| v.clone()),
        );
        self.gpu += r.wall;
        if was_seen {
            self.refining += r.wall;
        }
        weak > 0
    }

    /// A failed trial: the configuration does not fit the test (or the
    /// GPU faulted in it); it is not tried again for this test.
    pub(super) fn fail(&mut self, c: usize, e: GpuError) {
        self.failed.insert(c);
        self.runs += 1;
        self.last_error = Some(e);
    }

    /// Marks the test done when it is seen and refined.
    pub(super) fn settle(&mut self, refine: Duration) {
        if self.weak > 0 && self.refining >= refine {
            self.done = true;
        }
    }

    pub(super) fn found(&self) -> Found {
        let ran: Vec<&Trial> = self.trials.iter().flatten().collect();
        let best = ran
            .iter()
            .max_by(|a, b| {
                a.score()
                    .total_cmp(&b.score())
                    .then(a.weak.cmp(&b.weak))
                    .then(a.rate().total_cmp(&b.rate()))
            })
            .map(|t| (*t).clone());
        Found {
            best: best.unwrap_or_else(|| Trial {
                knobs: Knobs::default(),
                weak: 0,
                instances: 0,
                gpu: Duration::ZERO,
                device: String::new(),
                build: String::new(),
            }),
            base: self.trials[0].clone(),
            configs: ran.len(),
            trials: self.runs,
            weak: self.weak,
            instances: self.instances,
            gpu: self.gpu,
            outcomes: self.outcomes.clone(),
            error: if ran.is_empty() {
                self.last_error.clone()
            } else {
                None
            },
        }
    }
}
