//! The CPU threads that play a run's host roles, started once per run
//! rather than once per launch.
//!
//! Starting the threads, meeting them and joining them again cost a launch
//! of 131,072 instances with 14 CPU threads about a third of its 1.2 ms on
//! the H100's host. A crew starts with the run, waits between launches on
//! a launch counter (spinning briefly, then yielding, then sleeping; see
//! [`Pause`]), plays its shares when the counter moves, and stops when the
//! run is over. Each CPU thread is pinned to a CPU of its own where there
//! are enough (`affinity.rs`), so the thread that plays a share is not
//! moved between CPUs in the middle of it.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread::{Scope, ScopedJoinHandle};
use std::time::{Duration, Instant};

use super::{affinity, host_error, meet, HostRoles, Play};
use crate::GpuError;

/// What the run's thread and its crew share.
#[derive(Default)]
pub(crate) struct Muster {
    /// Launches called so far; a CPU thread plays its share once each time
    /// it moves.
    launch: AtomicU64,
    /// CPU threads that have woken for the current launch (`meet`).
    ready: AtomicU32,
    /// CPU threads done with the current launch.
    finished: AtomicU32,
    /// Set when the run is over (or its start failed): the crew leaves.
    stop: AtomicBool,
    /// The instances in which a host role gave up on a loop, this launch.
    gave_up: Mutex<Vec<u32>>,
    /// The first error of this launch.
    failed: Mutex<Option<GpuError>>,
}

/// A run's CPU threads, ready to play each launch's host roles.
pub(crate) struct Crew<'scope> {
    muster: &'scope Muster,
    go: &'scope [AtomicU32],
    threads: Vec<ScopedJoinHandle<'scope, ()>>,
}

impl<'scope> Crew<'scope> {
    /// Starts `play.threads` CPU threads per host role in scope `s`.
    pub(crate) fn start<'env>(
        s: &'scope Scope<'scope, 'env>,
        roles: &'env HostRoles,
        play: &'env Play<'env>,
        muster: &'env Muster,
    ) -> Result<Crew<'scope>, GpuError>
    where
        'env: 'scope,
    {
        if play.threads == 0 {
            super::raise(play.go);
            return Err(host_error("no CPU threads to play the host roles"));
        }
        let total = roles.cpu_threads(play.threads);
        let cpus = affinity::cpus_for(total);
        let mut crew = Crew {
            muster,
            go: play.go,
            threads: Vec::with_capacity(total),
        };
        for (r, role) in roles.roles.iter().enumerate() {
            for t in 0..play.threads {
                // What this thread's placement records name.
                let cpu = r * play.threads + t;
                let pin = cpus.as_ref().map(|c| c[cpu]);
                let worker = std::thread::Builder::new()
                    .name(format!("litmus-host-{}-{t}", role.k))
                    .spawn_scoped(s, move || {
                        if let Some(c) = pin {
                            affinity::pin(c);
                        }
                        let share = play.n.div_ceil(play.threads);
                        let first = (t * share).min(play.n);
                        let last = (first + share).min(play.n);
                        let mut seen = 0;
                        while let Some(launch) = muster.next_launch(seen) {
                            seen = launch;
                            meet(&muster.ready, total, &muster.stop);
                            // Each thread raises the flag itself: the first
                            // to get here starts the GPU roles.
                            super::raise(play.go);
                            match roles.play_share(role, play, first..last, cpu as u32) {
                                Ok(mut g) if !g.is_empty() => lock(&muster.gave_up).append(&mut g),
                                Ok(_) => {}
                                Err(e) => {
                                    lock(&muster.failed).get_or_insert(e);
                                }
                            }
                            muster.finished.fetch_add(1, Ordering::AcqRel);
                        }
                    });
                match worker {
                    Ok(h) => crew.threads.push(h),
                    // Dropping the crew stops the threads already started.
                    Err(e) => return Err(host_error(format!("cannot start a host thread: {e}"))),
                }
            }
        }
        Ok(crew)
    }

    /// Plays one launch's host roles and returns, sorted, the instances in
    /// which one gave up on a loop. The start flag is up when this returns,
    /// whatever happened, so the GPU roles never wait on a host that
    /// failed.
    pub(crate) fn launch(&self) -> Result<Vec<u32>, GpuError> {
        let m = self.muster;
        m.ready.store(0, Ordering::Relaxed);
        m.finished.store(0, Ordering::Relaxed);
        m.launch.fetch_add(1, Ordering::AcqRel);
        let mut pause = Pause::new();
        while (m.finished.load(Ordering::Acquire) as usize) < self.threads.len() {
            // A thread that ended mid-launch panicked: it will never count
            // itself finished.
            if self.threads.iter().any(ScopedJoinHandle::is_finished) {
                super::raise(self.go);
                return Err(host_error("a host thread panicked"));
            }
            pause.pause();
        }
        super::raise(self.go);
        if let Some(e) = lock(&m.failed).take() {
            return Err(e);
        }
        let mut gave_up = std::mem::take(&mut *lock(&m.gave_up));
        gave_up.sort_unstable();
        gave_up.dedup();
        Ok(gave_up)
    }
}

impl Drop for Crew<'_> {
    fn drop(&mut self) {
        self.muster.stop.store(true, Ordering::Release);
    }
}

impl Muster {
    /// Waits until the launch counter moves past `seen` and returns it, or
    /// `None` once the run is over.
    fn next_launch(&self, seen: u64) -> Option<u64> {
        let mut pause = Pause::new();
        loop {
            if self.stop.load(Ordering::Acquire) {
                return None;
            }
            let now = self.launch.load(Ordering::Acquire);
            if now != seen {
                return Some(now);
            }
            pause.pause();
        }
    }
}

/// A lock that a panicked holder does not poison for the rest: the data
/// (a list, an error) is whole after every step.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How a thread waits for another: spins first (a launch's turn-around is
/// tens of microseconds), then yields (more threads than CPUs must let the
/// others run), then sleeps (a long wait, such as the run's set-up or the
/// placement check, must not hold CPUs).
struct Pause {
    spins: u32,
    since: Instant,
}

/// Spins before a waiting thread starts yielding.
const SPINS: u32 = 1 << 12;
/// Yielding before a waiting thread starts sleeping.
const YIELD_FOR: Duration = Duration::from_millis(2);
/// One sleep of a long wait.
const NAP: Duration = Duration::from_micros(50);

impl Pause {
    fn new() -> Pause {
        Pause {
            spins: 0,
            since: Instant::now(),
        }
    }

    fn pause(&mut self) {
        if self.spins < SPINS {
            self.spins += 1;
            std::hint::spin_loop();
        } else if self.since.elapsed() < YIELD_FOR {
            std::thread::yield_now();
        } else {
            std::thread::sleep(NAP);
        }
    }
}
