//! Spreading a set of tests over the GPUs of a node: one lane per device
//! (each device's runs go to its own GPU worker, `litmus_hw::run_on`), a
//! test on one GPU on whichever device is free, a test whose threads span
//! `k` GPUs on `k` devices held at once, and the results handed on in the
//! tests' order, so that `run`, `campaign` and `tune` print one stream and
//! one summary however many devices ran it.
//!
//! Devices are handed out in the tests' order: a test waiting for `k`
//! devices is not overtaken by the tests after it (which would keep taking
//! the devices it waits for), at the cost of devices idling while it
//! gathers them. A test on more GPUs than the pool has gets no device and
//! runs at once: its run says in one line why it cannot run here, as on a
//! machine with one GPU.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};

use litmus_core::ir::Test;
use litmus_hw::{self as gpu, GpuError, Knobs};
use litmus_ptx::Layout;

use crate::config::Config;

/// The devices a set run with `config` spreads over: every device of
/// [`litmus_hw::devices`] (`LITMUS_DEVICES`'s, else every visible one)
/// when the hardware half runs and there is a GPU; none otherwise, and
/// the tests then run one at a time, each hardware half saying why (it
/// skipped, or the driver's failure). `Err` only for a `LITMUS_DEVICES`
/// that names a device the machine lacks: the caller's command line is
/// wrong, before anything runs.
pub fn devices_for(config: &Config) -> Result<Vec<u32>, GpuError> {
    if !config.hardware {
        return Ok(Vec::new());
    }
    match gpu::devices() {
        Ok(devices) => Ok(devices.iter().map(|g| g.ordinal).collect()),
        Err(e @ GpuError::Knob { .. }) => Err(e),
        Err(_) => Ok(Vec::new()),
    }
}

/// The devices one test needs at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Need {
    /// Any `k` devices of the pool: a test on `k` GPUs.
    Any(usize),
    /// These devices: an explicit device map (`LITMUS_GPU_MAP`) pins the
    /// test to them. Those outside the pool are the map's to answer for:
    /// they are not held.
    These(Vec<u32>),
    /// No device: the test does not reach a GPU (it has no PTX, or only
    /// its model runs).
    Nothing,
}

impl Need {
    /// What a run of `test` with `knobs` needs: its logical GPUs' worth of
    /// devices, or those its explicit map names. A test the harness cannot
    /// lay out needs nothing: its run says why at once.
    pub fn of(test: &Test, knobs: &Knobs) -> Need {
        let Ok(layout) = Layout::of(test) else {
            return Need::Nothing;
        };
        let gpus = layout.gpus.max(1) as usize;
        match &knobs.gpu_map {
            Some(map) => {
                let mut these: Vec<u32> = Vec::new();
                for &d in map.iter().take(gpus) {
                    if !these.contains(&d) {
                        these.push(d);
                    }
                }
                Need::These(these)
            }
            None => Need::Any(gpus),
        }
    }
}

/// The pool's state: which devices are held, and whose turn it is to take
/// some (tests take devices in their order).
struct Held {
    busy: Vec<bool>,
    turn: usize,
}

/// The devices of a [`spread`], and who holds them.
struct Pool<'d> {
    devices: &'d [u32],
    held: Mutex<Held>,
    changed: Condvar,
}

impl Pool<'_> {
    /// Waits for test `i`'s turn and for the devices it needs, takes them
    /// and passes the turn on; returns their places in the pool.
    fn take(&self, i: usize, need: &Need) -> Vec<usize> {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if held.turn == i {
                if let Some(places) = self.free_for(&held.busy, need) {
                    for &p in &places {
                        held.busy[p] = true;
                    }
                    held.turn += 1;
                    self.changed.notify_all();
                    return places;
                }
            }
            held = self.changed.wait(held).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// The places `need` would take now, if they are free.
    fn free_for(&self, busy: &[bool], need: &Need) -> Option<Vec<usize>> {
        match need {
            Need::Nothing => Some(Vec::new()),
            // Never met here: run without devices (see the module's doc).
            Need::Any(k) if *k > self.devices.len() => Some(Vec::new()),
            Need::Any(k) => {
                let free: Vec<usize> = (0..busy.len()).filter(|&p| !busy[p]).take(*k).collect();
                (free.len() == *k).then_some(free)
            }
            Need::These(these) => {
                let places: Vec<usize> = these
                    .iter()
                    .filter_map(|d| self.devices.iter().position(|x| x == d))
                    .collect();
                places.iter().all(|&p| !busy[p]).then_some(places)
            }
        }
    }

    fn give_back(&self, places: &[usize]) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        for &p in places {
            held.busy[p] = false;
        }
        self.changed.notify_all();
    }
}

/// Gives a test's devices back however its work ends (a panic included),
/// so that the other lanes never wait for them for ever.
struct Claim<'p, 'd> {
    pool: &'p Pool<'d>,
    places: Vec<usize>,
}

impl Drop for Claim<'_, '_> {
    fn drop(&mut self) {
        self.pool.give_back(&self.places);
    }
}

/// Runs tests `0..n` over `devices`: for each, `prepare(i)` says what it
/// needs (and hands `work` what it prepared, a loaded test say), then
/// `work(i, prepared, claim)` runs it holding the devices of `claim`
/// (logical GPU `g` on `claim[g]`; empty for a test that needs none or
/// more than the pool has). Each result goes to `emit` in the order of
/// `i`, as soon as it and every one before it are done; `emit` returns
/// false to stop (the tests running finish, no other starts). One lane
/// per device, at least one: without devices the tests run one at a time,
/// with empty claims.
///
/// A failing test is `work`'s result like any other, so a device that
/// fails its tests loses no one else's. A panic in `prepare` or `work`
/// stops the set and is raised again here once the lanes have ended.
pub fn spread<P, T: Send>(
    devices: &[u32],
    n: usize,
    prepare: impl Fn(usize) -> (Need, P) + Sync,
    work: impl Fn(usize, P, &[u32]) -> T + Sync,
    mut emit: impl FnMut(usize, T) -> bool,
) {
    let pool = Pool {
        devices,
        held: Mutex::new(Held {
            busy: vec![false; devices.len()],
            turn: 0,
        }),
        changed: Condvar::new(),
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let panicked = Mutex::new(None);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..devices.len().max(1).min(n) {
            let tx = tx.clone();
            let (pool, next, stop, panicked) = (&pool, &next, &stop, &panicked);
            let (prepare, work) = (&prepare, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= n {
                    return;
                }
                let ran = catch_unwind(AssertUnwindSafe(|| {
                    if stop.load(Ordering::SeqCst) {
                        // Its turn still comes and goes: the tests after
                        // it wait for it.
                        drop(pool.take(i, &Need::Nothing));
                        return None;
                    }
                    let (need, prepared) = match catch_unwind(AssertUnwindSafe(|| prepare(i))) {
                        Ok(p) => p,
                        Err(payload) => {
                            pool.take(i, &Need::Nothing);
                            resume_unwind(payload)
                        }
                    };
                    let claim = Claim {
                        places: pool.take(i, &need),
                        pool,
                    };
                    let on: Vec<u32> = claim.places.iter().map(|&p| devices[p]).collect();
                    Some(work(i, prepared, &on))
                }));
                match ran {
                    Ok(Some(result)) => {
                        if tx.send((i, result)).is_err() {
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                    Ok(None) => {}
                    Err(payload) => {
                        stop.store(true, Ordering::SeqCst);
                        panicked
                            .lock()
                            .unwrap_or_else(|p| p.into_inner())
                            .get_or_insert(payload);
                    }
                }
            });
        }
        drop(tx);
        let mut order = crate::in_order::InOrder::new(n);
        for (i, result) in rx {
            if !order.put(i, result, &mut emit) {
                stop.store(true, Ordering::SeqCst);
                return;
            }
        }
    });
    if let Some(payload) = panicked.into_inner().unwrap_or_else(|p| p.into_inner()) {
        resume_unwind(payload);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::collections::BTreeSet;
    use std::time::Duration;

    /// Runs `needs` over `devices`; each test sleeps `ms` while it holds
    /// its claim. Returns what was emitted, in order: (index, claim), and
    /// fails if two tests ever held one device at once.
    fn run(devices: &[u32], needs: &[Need], ms: u64) -> Vec<(usize, Vec<u32>)> {
        let in_use = Mutex::new(BTreeSet::new());
        let mut out = Vec::new();
        spread(
            devices,
            needs.len(),
            |i| (needs[i].clone(), ()),
            |i, (), claim| {
                for d in claim {
                    assert!(
                        in_use.lock().unwrap().insert(*d),
                        "device {d} held twice (test {i})"
                    );
                }
                // Later tests finish first: the order must come from the
                // scheduler, not from the timing.
                std::thread::sleep(Duration::from_millis(ms + (needs.len() - i) as u64));
                for d in claim {
                    in_use.lock().unwrap().remove(d);
                }
                claim.to_vec()
            },
            |i, claim| {
                out.push((i, claim));
                true
            },
        );
        out
    }

    #[test]
    fn tests_on_one_gpu_spread_over_every_device_and_come_back_in_order() {
        let needs = vec![Need::Any(1); 12];
        let start = std::time::Instant::now();
        let got = run(&[0, 1, 2, 3], &needs, 40);
        assert_eq!(
            got.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            (0..12).collect::<Vec<_>>()
        );
        let used: BTreeSet<u32> = got.iter().flat_map(|(_, c)| c.clone()).collect();
        assert_eq!(used, BTreeSet::from([0, 1, 2, 3]));
        assert!(got.iter().all(|(_, c)| c.len() == 1));
        // Four at a time: three rounds of about 50 ms, not twelve.
        assert!(
            start.elapsed() < Duration::from_millis(12 * 40),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_test_on_k_gpus_holds_k_devices_and_no_one_shares_them() {
        let needs = vec![
            Need::Any(1),
            Need::Any(2),
            Need::Any(1),
            Need::Any(4),
            Need::Any(1),
            Need::Any(3),
            Need::Any(1),
        ];
        let got = run(&[5, 6, 7, 8], &needs, 20);
        let sizes: Vec<usize> = got.iter().map(|(_, c)| c.len()).collect();
        assert_eq!(sizes, vec![1, 2, 1, 4, 1, 3, 1]);
        for (_, claim) in &got {
            let distinct: BTreeSet<&u32> = claim.iter().collect();
            assert_eq!(distinct.len(), claim.len(), "{claim:?}");
            assert!(claim.iter().all(|d| (5..=8).contains(d)));
        }
        // `run` checks that no device was held twice at once.
    }

    #[test]
    fn a_need_the_pool_cannot_meet_runs_without_devices_and_a_map_pins_its_devices() {
        let needs = vec![
            Need::Any(8),
            Need::These(vec![1]),
            Need::These(vec![1, 9]),
            Need::Nothing,
            Need::Any(2),
        ];
        let got = run(&[0, 1], &needs, 5);
        assert_eq!(
            got,
            vec![
                (0, vec![]),
                (1, vec![1]),
                (2, vec![1]),
                (3, vec![]),
                (4, vec![0, 1])
            ]
        );
    }

    #[test]
    fn without_devices_the_tests_run_one_at_a_time_on_empty_claims() {
        let got = run(&[], &[Need::Any(1), Need::Any(1), Need::Nothing], 1);
        assert_eq!(got, vec![(0, vec![]), (1, vec![]), (2, vec![])]);
    }

    #[test]
    fn a_device_whose_tests_fail_loses_no_other_test() {
        let mut got = Vec::new();
        spread(
            &[0, 1, 2],
            30,
            |i| (Need::Any(1), i),
            |_, i, claim| match claim {
                [1] => Err(format!("test {i}: device 1 faulted")),
                _ => {
                    std::thread::sleep(Duration::from_millis(3));
                    Ok(i)
                }
            },
            |i, r| {
                got.push((i, r));
                true
            },
        );
        assert_eq!(got.len(), 30);
        assert!(got.iter().enumerate().all(|(k, (i, _))| k == *i));
        let ok = got.iter().filter(|(_, r)| r.is_ok()).count();
        assert!(ok > 0 && ok < 30, "{ok} ran on the good devices");
    }

    #[test]
    fn emit_returning_false_stops_the_rest() {
        let ran = AtomicUsize::new(0);
        let mut seen = Vec::new();
        spread(
            &[0, 1],
            100,
            |_| (Need::Any(1), ()),
            |i, (), _| {
                ran.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(Duration::from_millis(2));
                i
            },
            |i, _| {
                seen.push(i);
                i < 2
            },
        );
        assert_eq!(seen, vec![0, 1, 2]);
        assert!(ran.load(Ordering::SeqCst) < 10);
    }

    #[test]
    fn a_panic_in_a_test_ends_the_set_and_is_raised_again() {
        let caught = catch_unwind(|| {
            spread(
                &[0, 1],
                20,
                |i| (Need::Any(1), i),
                |_, i, _| {
                    if i == 3 {
                        panic!("test 3 broke");
                    }
                    i
                },
                |_, _| true,
            )
        });
        let payload = caught.unwrap_err();
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"test 3 broke"));
    }

    #[test]
    fn a_test_needs_its_gpus_worth_of_devices_or_its_maps() {
        let two = litmus_text::parse("PTX MP-two\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
        let one = litmus_text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
        let plain = Knobs::default();
        assert_eq!(Need::of(&one, &plain), Need::Any(1));
        assert_eq!(Need::of(&two, &plain), Need::Any(2));
        let mapped = Knobs {
            gpu_map: Some(vec![3, 3, 1]),
            ..Knobs::default()
        };
        assert_eq!(Need::of(&two, &mapped), Need::These(vec![3]));
        assert_eq!(Need::of(&one, &mapped), Need::These(vec![3]));
    }
}
