//! The worker as a child process of its own (Linux): forked on a
//! device's first job, fed jobs through one pipe and answering through
//! another, killed and replaced after a fault or past a deadline (see
//! `super` for why, and `crate::isolate` for the fork).

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{handle, Answer, Cache, Job};
use crate::driver::Context;
use crate::isolate::{close_inherited, pipe, read_frame};
use crate::wire::{caught, Wire};
use crate::GpuError;

/// A live worker: its pid and the two pipe ends the parent holds.
struct Worker {
    pid: libc::pid_t,
    to_child: File,
    from_child: File,
}

/// One device's worker, started on first use; its lock is also what
/// serialises the device's runs (cargo runs tests on several threads, and
/// runs sharing a GPU would blur each other's figures).
type Seat = Arc<Mutex<Option<Worker>>>;

/// The process's workers, one per physical device that has run a job. A
/// fault or a hang replaces only that device's worker.
static WORKERS: Mutex<BTreeMap<u32, Seat>> = Mutex::new(BTreeMap::new());

/// Runs `job` on device `device`'s worker, starting one if there is none,
/// and waits at most `deadline` for its answer. Jobs for different devices
/// run at the same time.
pub(crate) fn call(device: u32, job: &Job, deadline: Duration) -> Result<Answer, GpuError> {
    let seat = WORKERS
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .entry(device)
        .or_default()
        .clone();
    let mut slot = seat.lock().unwrap_or_else(|p| p.into_inner());
    let mut request = Vec::new();
    job.put(&mut request);
    let frame = framed(&request);
    // A worker that exited since the last job (it does after a fault) is
    // found when the write fails: start another and send it again.
    let mut worker = match slot.take() {
        Some(w) if (&w.to_child).write_all(&frame).is_ok() => w,
        stale => {
            if let Some(w) = stale {
                w.reap(false);
            }
            let mut w = Worker::start(device)?;
            if let Err(e) = w.to_child.write_all(&frame) {
                w.reap(true);
                return Err(GpuError::Worker(format!(
                    "cannot send a job to the GPU worker: {e}"
                )));
            }
            w
        }
    };
    let mut bytes = Vec::new();
    match read_frame(
        &mut worker.from_child,
        &mut bytes,
        Instant::now() + deadline,
    ) {
        Err(None) => {
            worker.reap(true);
            return Err(GpuError::Worker(format!(
                "the GPU run did not finish within {} s (a hung kernel, or the worker stuck before reaching the GPU); the worker was killed and will be replaced",
                deadline.as_secs_f64()
            )));
        }
        Err(Some(e)) => {
            let status = worker.reap(false);
            return Err(GpuError::Worker(format!(
                "the GPU worker {status} before it answered ({e})"
            )));
        }
        Ok(()) => {}
    }
    let answer = Result::<Answer, GpuError>::get(&mut bytes.as_slice());
    match answer {
        Some(Err(e @ GpuError::Fault { .. })) => {
            // The worker exits after a fault; the next job starts another.
            worker.reap(false);
            Err(e)
        }
        Some(answer) => {
            *slot = Some(worker);
            answer
        }
        None => {
            worker.reap(true);
            Err(GpuError::Worker(
                "the GPU worker's answer could not be read".into(),
            ))
        }
    }
}

/// A message with its length in front.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 8);
    (body.len() as u64).put(&mut out);
    out.extend_from_slice(body);
    out
}

impl Worker {
    /// Forks the worker of physical device `device`. The child serves
    /// jobs until its request pipe closes (the parent exited or replaced
    /// it), or a fault.
    fn start(device: u32) -> Result<Worker, GpuError> {
        let (req_read, req_write) = pipe()?;
        let (ans_read, ans_write) = match pipe() {
            Ok(p) => p,
            Err(e) => {
                close(&[req_read, req_write]);
                return Err(e);
            }
        };
        // SAFETY: as in `isolate::in_child`: the child runs only the job
        // loop and `_exit`s; see there for what a fork of a multi-threaded
        // process may meet.
        let pid = unsafe { libc::fork() };
        if pid < 0 {
            let e = std::io::Error::last_os_error();
            close(&[req_read, req_write, ans_read, ans_write]);
            return Err(GpuError::Worker(format!("fork failed: {e}")));
        }
        if pid == 0 {
            close_inherited(&[req_read, ans_write]);
            // SAFETY: the child owns these ends from here on.
            let (input, output) =
                unsafe { (File::from_raw_fd(req_read), File::from_raw_fd(ans_write)) };
            serve(device, input, output);
            // SAFETY: leave without destructors or atexit handlers (see
            // `isolate`).
            unsafe { libc::_exit(0) };
        }
        close(&[req_read, ans_write]);
        // SAFETY: the parent owns these ends from here on.
        let (to_child, from_child) =
            unsafe { (File::from_raw_fd(req_write), File::from_raw_fd(ans_read)) };
        Ok(Worker {
            pid,
            to_child,
            from_child,
        })
    }

    /// Ends the worker (killing it first when `kill`) and says how it
    /// ended.
    fn reap(self, kill: bool) -> String {
        drop(self.to_child);
        let mut status = 0;
        // SAFETY: signalling and reaping our own child.
        unsafe {
            if kill {
                libc::kill(self.pid, libc::SIGKILL);
            }
            libc::waitpid(self.pid, &mut status, 0);
        }
        if libc::WIFSIGNALED(status) {
            format!("was killed by signal {}", libc::WTERMSIG(status))
        } else {
            format!("exited (status {})", libc::WEXITSTATUS(status))
        }
    }
}

fn close(fds: &[i32]) {
    for fd in fds {
        // SAFETY: closing descriptors this process opened and no one else
        // holds.
        unsafe { libc::close(*fd) };
    }
}

/// The worker's loop: one job at a time, answered in order, on a context
/// of `device`'s (its primary one: a test's logical GPU 0 runs there).
fn serve(device: u32, mut input: File, mut output: File) {
    let mut ctx: Option<Arc<Context>> = None;
    let cache = Arc::new(Mutex::new(Cache::default()));
    loop {
        let mut len = [0u8; 8];
        if input.read_exact(&mut len).is_err() {
            return;
        }
        let mut body = vec![0u8; u64::from_le_bytes(len) as usize];
        if input.read_exact(&mut body).is_err() {
            return;
        }
        let answer = caught(|| {
            let job = Job::get(&mut body.as_slice()).ok_or_else(|| {
                GpuError::Worker("the GPU worker got a job it cannot read".into())
            })?;
            handle(device, &job, &mut ctx, &cache)
        });
        let fault = matches!(answer, Err(GpuError::Fault { .. }));
        let mut reply = Vec::new();
        answer.put(&mut reply);
        if output.write_all(&framed(&reply)).is_err() || fault {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The worker lives as long as the process: it must not hold a pipe
    /// another thread made for a program it starts, or that thread waits
    /// for end-of-file for ever (as `Command::output` did in a test binary
    /// whose GPU tests started the worker at that moment).
    #[test]
    fn the_worker_holds_no_descriptor_but_its_own_pipes() {
        let mut fds = [0; 2];
        // SAFETY: room for two descriptors; a plain pipe, inheritable, as
        // a pipe is between its creation and its program's start.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let worker = Worker::start(0).unwrap();
        close(&[fds[1]]);
        // SAFETY: we own the read end.
        let mut read_end = unsafe { File::from_raw_fd(fds[0]) };
        let mut got = Vec::new();
        let ended = crate::isolate::read_frame(
            &mut read_end,
            &mut got,
            Instant::now() + Duration::from_secs(10),
        );
        worker.reap(true);
        // End-of-file before a whole message: the only writer was ours.
        assert!(
            matches!(ended, Err(Some(ref e)) if e.kind() == std::io::ErrorKind::UnexpectedEof),
            "the worker kept the pipe open: {ended:?}"
        );
    }
}
