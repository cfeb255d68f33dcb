//! On Linux, every GPU run happens in a forked child process (elsewhere,
//! and on Linux built with `--cfg litmus_portable`, in this process:
//! `in_process`).
//!
//! A kernel fault poisons CUDA for the rest of the process that saw it: on
//! the H100 here, after an illegal address even a new context cannot be
//! created (`cuCtxCreate` answers `CUDA_ERROR_ILLEGAL_ADDRESS`). So the
//! process that runs the tests never initialises CUDA: each run forks, the
//! child opens the GPU, runs, sends its result back through a pipe and
//! exits. A fault then costs one child, and the next test runs.

use std::io::Read;
use std::os::fd::{AsRawFd, FromRawFd};
use std::time::{Duration, Instant};

use super::wire::{caught, Wire};
use super::GpuError;

/// Runs `f` in a child process and returns what it returned. A child that
/// has not answered within `deadline` (a hung kernel) is killed, and that
/// is an error: nothing waits forever.
pub(crate) fn in_child<T: Wire>(
    deadline: Duration,
    f: impl FnOnce() -> Result<T, GpuError>,
) -> Result<T, GpuError> {
    let (read_fd, write_fd) = pipe()?;
    // SAFETY: the child only runs `f`, writes to the pipe and `_exit`s. A
    // forked child of a multi-threaded process has only this thread: a lock
    // another thread held at the fork stays held. glibc re-initialises the
    // allocator's and the dynamic loader's locks in the child; a lock of
    // another library could still be held, and then the child waits until
    // the deadline kills it, with a message that says so.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        let e = std::io::Error::last_os_error();
        // SAFETY: closing the pipe we opened above, which nobody else holds.
        unsafe {
            libc::close(read_fd);
            libc::close(write_fd);
        }
        return Err(GpuError::Worker(format!("fork failed: {e}")));
    }
    if pid == 0 {
        close_inherited(&[write_fd]);
        let result = caught(f);
        let mut w = Vec::new();
        result.put(&mut w);
        let mut at = 0;
        while at < w.len() {
            // SAFETY: writing from a live buffer to our pipe end.
            let n = unsafe { libc::write(write_fd, w[at..].as_ptr().cast(), w.len() - at) };
            if n <= 0 {
                break;
            }
            at += n as usize;
        }
        // SAFETY: leave at once: no destructors, no atexit handlers of a
        // CUDA runtime that may be in a bad state.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: closing the parent's copy of the write end, so that reading
    // sees end-of-file when the child exits.
    unsafe { libc::close(write_fd) };
    // SAFETY: we own the read end from here on.
    let mut pipe = unsafe { std::fs::File::from_raw_fd(read_fd) };
    let mut bytes = Vec::new();
    let read = read_until(&mut pipe, &mut bytes, Instant::now() + deadline, |_| false);
    if let Err(ReadError::TimedOut) = read {
        // SAFETY: killing and reaping our own child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        return Err(GpuError::Worker(format!(
            "the GPU run did not finish within {} s (a hung kernel, or the worker process stuck before reaching the GPU); it was killed",
            deadline.as_secs_f64()
        )));
    }
    let mut status = 0;
    // SAFETY: waiting for our own child.
    unsafe { libc::waitpid(pid, &mut status, 0) };
    if let Err(ReadError::Io(e)) = read {
        return Err(GpuError::Worker(format!(
            "reading the GPU worker's result: {e}"
        )));
    }
    let mut r = bytes.as_slice();
    match Result::<T, GpuError>::get(&mut r) {
        Some(result) => result,
        None if libc::WIFSIGNALED(status) => Err(GpuError::Worker(format!(
            "the GPU worker was killed by signal {}",
            libc::WTERMSIG(status)
        ))),
        None => Err(GpuError::Worker(format!(
            "the GPU worker exited (status {status}) without a result"
        ))),
    }
}

/// A pipe whose ends are closed on `exec`, so that no program another
/// thread starts holds them (and keeps a child from seeing end-of-file).
pub(crate) fn pipe() -> Result<(i32, i32), GpuError> {
    let mut fds = [0; 2];
    // SAFETY: `fds` has room for the two descriptors.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(GpuError::Worker(format!(
            "pipe failed: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok((fds[0], fds[1]))
}

/// In a forked child: closes every descriptor but standard input, output
/// and error and `keep`. The fork copies every descriptor of the process,
/// including the pipes another thread was about to hand to a program it
/// starts (`Command::output` waits until every write end of its child's
/// output is closed): a child that lives on (the worker) must not hold
/// them, or that thread waits for ever.
pub(crate) fn close_inherited(keep: &[i32]) {
    let mut keep: Vec<i32> = keep.iter().copied().filter(|fd| *fd > 2).collect();
    keep.sort_unstable();
    let mut from = 3u32;
    for fd in keep.iter().map(|fd| *fd as u32).chain([u32::MAX]) {
        if from < fd {
            // SAFETY: closes descriptors this process no longer uses;
            // close_range (Linux 5.9) ignores ones that are not open.
            let done = unsafe { libc::syscall(libc::SYS_close_range, from, fd - 1, 0) } == 0;
            if !done {
                close_listed(from, fd - 1);
            }
        }
        from = fd.saturating_add(1);
    }
}

/// Without close_range: closes the open descriptors from `first` to `last`
/// that /proc/self/fd lists.
fn close_listed(first: u32, last: u32) {
    let Ok(dir) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let open: Vec<u32> = dir
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|fd| (first..=last).contains(fd))
        .collect();
    for fd in open {
        // SAFETY: see `close_inherited`.
        unsafe { libc::close(fd as i32) };
    }
}

enum ReadError {
    TimedOut,
    Io(std::io::Error),
}

/// Reads one message that has its length in front (a `u64`) into `out`,
/// without the length, waiting at most until `deadline`. `Err(None)`: the
/// deadline passed; `Err(Some(e))`: the pipe broke or closed first.
pub(crate) fn read_frame(
    pipe: &mut std::fs::File,
    out: &mut Vec<u8>,
    deadline: Instant,
) -> Result<(), Option<std::io::Error>> {
    let whole = |b: &[u8]| {
        b.split_first_chunk::<8>()
            .is_some_and(|(len, rest)| rest.len() as u64 >= u64::from_le_bytes(*len))
    };
    match read_until(pipe, out, deadline, whole) {
        Err(ReadError::TimedOut) => Err(None),
        Err(ReadError::Io(e)) => Err(Some(e)),
        Ok(()) if whole(out) => {
            out.drain(..8);
            Ok(())
        }
        Ok(()) => Err(Some(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            "the pipe closed in the middle of a message",
        ))),
    }
}

/// Reads the pipe until `done` says what was read is enough, or to its
/// end, waiting at most until `deadline`.
fn read_until(
    pipe: &mut std::fs::File,
    out: &mut Vec<u8>,
    deadline: Instant,
    done: impl Fn(&[u8]) -> bool,
) -> Result<(), ReadError> {
    let mut buf = [0u8; 1 << 16];
    loop {
        if done(out) {
            return Ok(());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(ReadError::TimedOut);
        }
        let mut fd = libc::pollfd {
            fd: pipe.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut fd, 1, ms) };
        if ready < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(ReadError::Io(e));
        }
        if ready == 0 {
            continue;
        }
        match pipe.read(&mut buf) {
            Ok(0) => return Ok(()),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_returns_its_value_and_a_panic_becomes_an_error() {
        let minute = Duration::from_secs(60);
        assert_eq!(in_child(minute, || Ok::<u64, GpuError>(42)).unwrap(), 42);
        let err = in_child(minute, || -> Result<u64, GpuError> { panic!("boom") }).unwrap_err();
        assert!(err.to_string().contains("boom"), "{err}");
    }

    #[test]
    fn a_child_that_hangs_is_killed_at_the_deadline() {
        let start = Instant::now();
        let err = in_child(Duration::from_millis(300), || -> Result<u64, GpuError> {
            std::thread::sleep(Duration::from_secs(30));
            Ok(0)
        })
        .unwrap_err();
        assert!(err.to_string().contains("did not finish"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(10));
    }
}
