//! The persistent GPU workers: one child process per physical device,
//! each keeping its CUDA context on that device and the modules it loaded
//! across the runs of a test binary or a CLI command (`process`; off
//! Linux, one context per device kept in this process instead:
//! `crate::in_process`). A campaign over several devices keeps one worker
//! busy per device (the scheduler is `litmus_runner::device_pool`); a test
//! on several GPUs runs in the worker of its logical GPU 0's device, which
//! opens contexts on the others itself (`devices`).
//!
//! A run in a fresh child (`isolate::in_child`) pays for the fork, the
//! driver's start, the context and the JIT every time: about 0.4 s, more
//! than a short budget's kernels. The worker pays them once. It still
//! isolates faults the same way: after a kernel fault the worker answers
//! that run's error and exits (the context is poisoned for that process),
//! and the next run starts a new worker; a worker that does not answer by
//! the run's deadline is killed and replaced. So a fault or a hang still
//! costs only the test it happened in.
//!
//! The driver's JIT of a test's module is most of what a new test costs
//! (about 70 ms on the H100). A campaign knows its next tests: it asks the
//! worker to prefetch their modules, which the worker compiles on helper
//! threads while its main thread runs the current test's kernels.
//!
//! Jobs cross the pipe as data: the test as its `.litmus` text (the text
//! format prints every IR feature and reads it back to an equal test; the
//! caller checks that before it sends a job, and otherwise runs in a fresh
//! child), the PTX, and the knobs.

use std::sync::{Arc, Mutex};

use litmus_core::ir::Test;

use super::driver::Context;
use super::harness;
use super::kernels::Kernels;
use super::knobs::Knobs;
use super::wire::Wire;
use super::{GpuError, HwResult, PlacementReport};

mod cache;
use cache::planned;
pub(crate) use cache::Cache;

// Where the worker lives: a child process of its own on Linux; elsewhere
// (no fork), and on Linux with `--cfg litmus_portable`, threads of this
// process (`crate::in_process`).
#[cfg(all(target_os = "linux", not(litmus_portable)))]
mod process;
#[cfg(not(all(target_os = "linux", not(litmus_portable))))]
pub(crate) use crate::in_process::call;
#[cfg(all(target_os = "linux", not(litmus_portable)))]
pub(crate) use process::call;

/// What the worker is asked to do.
#[derive(Clone)]
pub(crate) enum Job {
    /// The device's name (opens the context: is there a GPU?).
    Device,
    /// A run: the test's text, its PTX, the knobs.
    Run(String, String, Knobs),
    /// A placement check, same inputs.
    Placement(String, String, Knobs),
    /// Modules to compile ahead, in the background (answered at once),
    /// with the knobs that will run them: they choose the toolchain.
    Prefetch(Vec<String>, Knobs),
}

/// What the worker answers.
pub(crate) enum Answer {
    Device(String),
    /// Boxed: a run's result is far larger than the other answers.
    Run(Box<HwResult>),
    Placement(PlacementReport),
    /// How many of the prefetched modules were new.
    Prefetching(usize),
}

/// Runs one job on the worker's context, opening it on `device` on first
/// use.
pub(crate) fn handle(
    device: u32,
    job: &Job,
    ctx: &mut Option<Arc<Context>>,
    cache: &Arc<Mutex<Cache>>,
) -> Result<Answer, GpuError> {
    if ctx.is_none() {
        *ctx = Some(Arc::new(
            Context::open_on(device)?.ok_or(GpuError::NoDevice)?,
        ));
    }
    let ctx = ctx.as_ref().expect("opened above");
    ctx.bind()?;
    let (text, ptx, knobs) = match job {
        Job::Device => return Ok(Answer::Device(ctx.name.clone())),
        Job::Prefetch(modules, knobs) => {
            return Ok(Answer::Prefetching(prefetch(ctx, cache, modules, knobs)))
        }
        Job::Run(text, ptx, knobs) | Job::Placement(text, ptx, knobs) => (text, ptx, knobs),
    };
    let test = litmus_text::parse(text).map_err(|e| {
        GpuError::Worker(format!(
            "the GPU worker cannot read the test it was sent: {}",
            e.render("<job>")
        ))
    })?;
    let plan = planned(ctx, cache, ptx, knobs)?;
    let (slot, _) = cache
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .slot(&plan.key());
    let kernels = slot
        .get_or_init(|| Kernels::of_plan(ctx, &plan).map(Arc::new))
        .clone()?;
    match job {
        Job::Run(..) => {
            harness::run(ctx, &kernels, ptx, &test, knobs).map(|r| Answer::Run(Box::new(r)))
        }
        Job::Placement(..) => {
            harness::check_placement(ctx, &kernels, ptx, &test, knobs).map(Answer::Placement)
        }
        Job::Device | Job::Prefetch(..) => unreachable!("answered above"),
    }
}

/// Starts compiling each module of `modules` not yet cached, as a run
/// with `knobs` builds it (their toolchain), one helper thread each;
/// returns how many it started.
///
/// Why the run's knobs and not the environment's: a search runs a test
/// under the driver's JIT and under ptxas in turn, and a module planned
/// with the environment's knobs was the JIT's whatever the run to come,
/// so a ptxas run compiled its own while it waited, and the JIT compiled
/// one nobody asked for.
fn prefetch(
    ctx: &Arc<Context>,
    cache: &Arc<Mutex<Cache>>,
    modules: &[String],
    knobs: &Knobs,
) -> usize {
    let mut started = 0;
    for ptx in modules {
        // A module this device cannot run is left to its run, which says
        // why.
        let Ok(plan) = planned(ctx, cache, ptx, knobs) else {
            continue;
        };
        let (slot, new) = cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .slot(&plan.key());
        if !new {
            continue;
        }
        let ctx = ctx.clone();
        // A failure is kept in the slot: the run that needs the module
        // reports it (a JIT error with its log).
        std::thread::spawn(move || {
            slot.get_or_init(|| Kernels::of_plan(&ctx, &plan).map(Arc::new));
        });
        started += 1;
    }
    started
}

/// Whether `test` can travel to the worker as text: it prints and reads
/// back to an equal test.
pub(crate) fn as_text(test: &Test) -> Option<String> {
    let text = litmus_text::print(test);
    match litmus_text::parse(&text) {
        Ok(back) if back == *test => Some(text),
        _ => None,
    }
}

impl Wire for Job {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Job::Device => 0u64.put(w),
            Job::Prefetch(modules, knobs) => {
                3u64.put(w);
                modules.put(w);
                knobs.put(w);
            }
            Job::Run(t, p, k) | Job::Placement(t, p, k) => {
                (if matches!(self, Job::Run(..)) {
                    1u64
                } else {
                    2
                })
                .put(w);
                t.put(w);
                p.put(w);
                k.put(w);
            }
        }
    }
    fn get(r: &mut &[u8]) -> Option<Job> {
        Some(match u64::get(r)? {
            0 => Job::Device,
            1 => Job::Run(Wire::get(r)?, Wire::get(r)?, Wire::get(r)?),
            2 => Job::Placement(Wire::get(r)?, Wire::get(r)?, Wire::get(r)?),
            3 => Job::Prefetch(Wire::get(r)?, Wire::get(r)?),
            _ => return None,
        })
    }
}

impl Wire for Answer {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Answer::Device(name) => {
                0u64.put(w);
                name.put(w);
            }
            Answer::Run(result) => {
                1u64.put(w);
                result.put(w);
            }
            Answer::Placement(report) => {
                2u64.put(w);
                report.put(w);
            }
            Answer::Prefetching(n) => {
                3u64.put(w);
                n.put(w);
            }
        }
    }
    fn get(r: &mut &[u8]) -> Option<Answer> {
        Some(match u64::get(r)? {
            0 => Answer::Device(Wire::get(r)?),
            1 => Answer::Run(Box::new(Wire::get(r)?)),
            2 => Answer::Placement(Wire::get(r)?),
            3 => Answer::Prefetching(Wire::get(r)?),
            _ => return None,
        })
    }
}

/// The knobs cross row by row of their table (`Knobs::table`), each
/// whole, defaults included; the tuning file that set them stays with the
/// parent, which keeps its own record of where they came from.
impl Wire for Knobs {
    fn put(&self, w: &mut Vec<u8>) {
        crate::knobs::table::put(Knobs::table(), self, w);
    }
    fn get(r: &mut &[u8]) -> Option<Knobs> {
        let mut k = Knobs::default();
        crate::knobs::table::get(Knobs::table(), &mut k, r)?;
        Some(k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knobs_cross_the_pipe_unchanged() {
        let vars = [
            ("LITMUS_SEED", "99"),
            ("LITMUS_LAUNCHES", "7"),
            ("LITMUS_PERM", "random"),
            ("LITMUS_STRESS", "64:12"),
            ("LITMUS_STRESS_PATTERN", "st-ld"),
            ("LITMUS_STRESS_ASSIGN", "chunk"),
            ("LITMUS_PRE_STRESS", "9:ld-ld"),
            ("LITMUS_SHUFFLE_PCT", "40"),
            ("LITMUS_INTERLEAVE_PCT", "60"),
            ("LITMUS_CTAS_PER_SM", "3"),
            ("LITMUS_THREADS", "4"),
            ("LITMUS_LANES", "aligned"),
            ("LITMUS_LOC_LAYOUT", "interleaved"),
            ("LITMUS_SPIN_SCOPE", "grid"),
            ("LITMUS_PTX_TARGET", "sm_80"),
            ("LITMUS_ADDRESSING", "generic"),
            ("LITMUS_CTA_SPREAD", "by-lane"),
            ("LITMUS_HOST_INSTANCES", "2048"),
            ("LITMUS_HOST_THREADS", "3"),
            ("LITMUS_GPU_MAP", "0,0"),
            ("LITMUS_GPU_PARTNERS", "permuted"),
            ("LITMUS_GPU_STAGGER", "-2000"),
            ("LITMUS_GPU_JITTER", "5000"),
            ("LITMUS_GPU_PACE", "750"),
            ("LITMUS_GPU_FLAGS", "4"),
            ("LITMUS_DEPENDENT_LAUNCH", "off"),
        ];
        let with_start = |start: &str| {
            Knobs::from_vars(|name| {
                (name == "LITMUS_GPU_START")
                    .then(|| start.to_string())
                    .or_else(|| {
                        vars.iter()
                            .find(|(v, _)| *v == name)
                            .map(|(_, x)| x.to_string())
                    })
            })
            .unwrap()
        };
        // Every start crosses as itself (`auto` is not `relay` on the wire).
        for start in ["auto", "relay", "cta", "paced"] {
            let k = with_start(start);
            let mut w = Vec::new();
            k.put(&mut w);
            let back = Knobs::get(&mut w.as_slice()).unwrap();
            assert_eq!(back, k);
            assert_eq!(back.gpu_start.as_str(), start);
            assert_eq!(
                (back.gpu_pace, back.dependent_launch, back.gpu_flags),
                (750, false, 4)
            );
        }
        let k = with_start("auto");
        let mut w = Vec::new();
        Job::Run("t".into(), "ptx".into(), k.clone()).put(&mut w);
        match Job::get(&mut w.as_slice()) {
            Some(Job::Run(t, p, back)) => {
                assert_eq!((t.as_str(), p.as_str(), &back), ("t", "ptx", &k))
            }
            _ => panic!("not a run"),
        }
        // A prefetch crosses with the knobs that will run its modules:
        // they choose the compiler the worker builds them with.
        let k = Knobs {
            ptxas: Some("ptxas-12.4".into()),
            ..k
        };
        let mut w = Vec::new();
        Job::Prefetch(vec!["a".into(), "b".into()], k.clone()).put(&mut w);
        match Job::get(&mut w.as_slice()) {
            Some(Job::Prefetch(modules, back)) => {
                assert_eq!((modules, back), (vec!["a".to_string(), "b".into()], k))
            }
            _ => panic!("not a prefetch"),
        }
    }
}
