//! The hardware half without child processes: where `fork` and its pipes
//! are not there (macOS, Windows), and on Linux built with
//! `RUSTFLAGS="--cfg litmus_portable"` (so that CI builds and tests this
//! branch), every GPU run happens in this process, on a thread of its
//! own, and each device keeps one context across runs as a worker would.
//!
//! Two things the child processes of `isolate` give cannot be had in one
//! process. A kernel fault poisons CUDA for the whole process that saw it
//! (see `isolate`), and a run past its deadline can only be abandoned, not
//! killed: its thread keeps the GPU. Either stops the hardware half for
//! the rest of the process, and every later run says why in one line
//! instead of meeting a poisoned context or waiting behind a hung kernel.
//! The model half is not affected.

use std::collections::BTreeMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::driver::Context;
use crate::wire::caught;
use crate::worker::{handle, Answer, Cache, Job};
use crate::GpuError;

/// Why the hardware half stopped in this process, once it has.
pub(crate) struct Halt(Mutex<Option<String>>);

impl Halt {
    pub(crate) const fn new() -> Halt {
        Halt(Mutex::new(None))
    }

    fn check(&self) -> Result<(), GpuError> {
        match &*self.0.lock().unwrap_or_else(|p| p.into_inner()) {
            None => Ok(()),
            Some(why) => Err(GpuError::Worker(format!(
                "no more GPU runs in this process: {why}; this build runs the GPU in-process (no child process to absorb it, see docs/running-on-gpus.md), so start a new process"
            ))),
        }
    }

    fn stop(&self, why: String) {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(why);
    }
}

/// The process's halt: a fault or a hang on any device stops every
/// device, since a fault poisons CUDA for the process, not a context.
static HALT: Halt = Halt::new();

/// Runs `f` on a thread of its own and waits at most `deadline` for it:
/// what `isolate::in_child` does in a child process on Linux.
pub(crate) fn on_thread<T: Send + 'static>(
    deadline: Duration,
    f: impl FnOnce() -> Result<T, GpuError> + Send + 'static,
) -> Result<T, GpuError> {
    guarded(&HALT, deadline, f)
}

fn guarded<T: Send + 'static>(
    halt: &Halt,
    deadline: Duration,
    f: impl FnOnce() -> Result<T, GpuError> + Send + 'static,
) -> Result<T, GpuError> {
    halt.check()?;
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .name("litmus-gpu".into())
        .spawn(move || {
            // The caller may have stopped waiting; nobody to tell then.
            let _ = tx.send(caught(f));
        })
        .map_err(|e| GpuError::Worker(format!("cannot start a thread for the GPU run: {e}")))?;
    match rx.recv_timeout(deadline) {
        Ok(Err(e @ GpuError::Fault { .. })) => {
            halt.stop(format!("a kernel fault earlier poisoned CUDA ({e})"));
            Err(e)
        }
        Ok(answer) => answer,
        Err(RecvTimeoutError::Timeout) => {
            let why = format!(
                "a GPU run did not finish within {} s (a hung kernel) and was abandoned",
                deadline.as_secs_f64()
            );
            halt.stop(why.clone());
            Err(GpuError::Worker(format!(
                "{why}; its thread still holds the GPU"
            )))
        }
        // `caught` turns a panic into an answer, so only an abort of the
        // thread gets here.
        Err(RecvTimeoutError::Disconnected) => Err(GpuError::Worker(
            "the GPU run's thread ended without an answer".into(),
        )),
    }
}

/// What a device's worker keeps between jobs: its context, opened on the
/// first job, and its modules.
#[derive(Default)]
struct Seat {
    ctx: Option<Arc<Context>>,
    cache: Arc<Mutex<Cache>>,
}

/// One device's seat. The outer lock serialises the device's runs for
/// their whole wait, as a child worker's does (runs sharing a GPU would
/// blur each other's figures); the inner one is the state the run's
/// thread works on.
type Device = Arc<Mutex<Arc<Mutex<Seat>>>>;

static DEVICES: Mutex<BTreeMap<u32, Device>> = Mutex::new(BTreeMap::new());

/// Runs `job` on device `device`'s context, opening one if there is none,
/// and waits at most `deadline` for its answer: what `worker::call` does
/// with a child process on Linux. Jobs for different devices run at the
/// same time.
pub(crate) fn call(device: u32, job: &Job, deadline: Duration) -> Result<Answer, GpuError> {
    let seat = DEVICES
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(device)
        .or_default()
        .clone();
    let serial = seat.lock().unwrap_or_else(|p| p.into_inner());
    let state = serial.clone();
    let job = job.clone();
    on_thread(deadline, move || {
        let mut state = state.lock().unwrap_or_else(|p| p.into_inner());
        let Seat { ctx, cache } = &mut *state;
        handle(device, &job, ctx, cache)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_returns_its_value_and_a_panic_becomes_an_error() {
        let halt = Halt::new();
        let minute = Duration::from_secs(60);
        assert_eq!(
            guarded(&halt, minute, || Ok::<u64, GpuError>(42)).unwrap(),
            42
        );
        let err = guarded(&halt, minute, || -> Result<u64, GpuError> {
            panic!("boom")
        })
        .unwrap_err();
        assert!(err.to_string().contains("boom"), "{err}");
        // A panic is the run's own failure: later runs go on.
        assert_eq!(
            guarded(&halt, minute, || Ok::<u64, GpuError>(7)).unwrap(),
            7
        );
    }

    #[test]
    fn a_hung_run_is_abandoned_and_stops_later_runs() {
        let halt = Halt::new();
        let start = std::time::Instant::now();
        let err = guarded(
            &halt,
            Duration::from_millis(200),
            || -> Result<u64, GpuError> {
                std::thread::sleep(Duration::from_secs(30));
                Ok(0)
            },
        )
        .unwrap_err();
        assert!(err.to_string().contains("did not finish"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(10));
        let later = guarded(&halt, Duration::from_secs(60), || Ok::<u64, GpuError>(1))
            .unwrap_err()
            .to_string();
        assert!(
            later.starts_with("no more GPU runs in this process: a GPU run did not finish"),
            "{later}"
        );
    }

    #[test]
    fn a_fault_stops_later_runs_and_names_itself() {
        let halt = Halt::new();
        let minute = Duration::from_secs(60);
        let fault = GpuError::Fault {
            test: "MP".into(),
            call: "cuCtxSynchronize".into(),
            name: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            text: "an illegal memory access was encountered".into(),
        };
        let err = guarded(&halt, minute, move || -> Result<u64, GpuError> {
            Err(fault)
        })
        .unwrap_err();
        assert!(matches!(err, GpuError::Fault { .. }), "{err}");
        let later = guarded(&halt, minute, || Ok::<u64, GpuError>(1))
            .unwrap_err()
            .to_string();
        assert!(later.contains("poisoned CUDA"), "{later}");
        assert!(later.contains("CUDA_ERROR_ILLEGAL_ADDRESS"), "{later}");
        // Other errors are a run's own, as without the halt.
        let other = Halt::new();
        let err = guarded(&other, minute, || -> Result<u64, GpuError> {
            Err(GpuError::NoDriver)
        })
        .unwrap_err();
        assert!(err.is_absent());
        assert_eq!(
            guarded(&other, minute, || Ok::<u64, GpuError>(3)).unwrap(),
            3
        );
    }
}
