//! Every GPU run happens in a forked child process.
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

use super::{GpuError, HwResult, Knobs, PlacementReport};

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

/// Runs `f`, turning a panic into an error that carries its message: a
/// worker answers every job, even one that panicked.
pub(crate) fn caught<T>(f: impl FnOnce() -> Result<T, GpuError>) -> Result<T, GpuError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(GpuError::Worker(format!("the GPU worker panicked: {msg}")))
    })
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

/// A value that crosses the pipe: written by the child, read by the parent.
pub(crate) trait Wire: Sized {
    fn put(&self, w: &mut Vec<u8>);
    fn get(r: &mut &[u8]) -> Option<Self>;
}

impl Wire for u64 {
    fn put(&self, w: &mut Vec<u8>) {
        w.extend_from_slice(&self.to_le_bytes());
    }
    fn get(r: &mut &[u8]) -> Option<u64> {
        let (head, rest) = r.split_first_chunk::<8>()?;
        *r = rest;
        Some(u64::from_le_bytes(*head))
    }
}

impl Wire for u32 {
    fn put(&self, w: &mut Vec<u8>) {
        u64::from(*self).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<u32> {
        u32::try_from(u64::get(r)?).ok()
    }
}

impl Wire for usize {
    fn put(&self, w: &mut Vec<u8>) {
        (*self as u64).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<usize> {
        usize::try_from(u64::get(r)?).ok()
    }
}

impl Wire for String {
    fn put(&self, w: &mut Vec<u8>) {
        put_bytes(self.as_bytes(), w);
    }
    fn get(r: &mut &[u8]) -> Option<String> {
        String::from_utf8(Bytes::get(r)?.0).ok()
    }
}

/// Bytes behind their length: a string's, an image's.
fn put_bytes(bytes: &[u8], w: &mut Vec<u8>) {
    bytes.len().put(w);
    w.extend_from_slice(bytes);
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Vec<u8>) {
        self.len().put(w);
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut &[u8]) -> Option<Vec<T>> {
        let len = usize::get(r)?;
        // Each element takes at least a byte: a corrupt length cannot make
        // us allocate more than the message holds.
        let mut out = Vec::with_capacity(len.min(r.len()));
        for _ in 0..len {
            out.push(T::get(r)?);
        }
        Some(out)
    }
}

/// Bytes as they are (a compiled image), not a word each as `Vec<u8>`'s
/// elements would go.
pub(crate) struct Bytes(pub Vec<u8>);

impl Wire for Bytes {
    fn put(&self, w: &mut Vec<u8>) {
        put_bytes(&self.0, w);
    }
    fn get(r: &mut &[u8]) -> Option<Bytes> {
        let len = usize::get(r)?;
        if len > r.len() {
            return None;
        }
        let (s, rest) = r.split_at(len);
        *r = rest;
        Some(Bytes(s.to_vec()))
    }
}

impl Wire for crate::Build {
    fn put(&self, w: &mut Vec<u8>) {
        for s in [&self.target, &self.version, &self.toolchain] {
            s.put(w);
        }
    }
    fn get(r: &mut &[u8]) -> Option<crate::Build> {
        Some(crate::Build {
            target: Wire::get(r)?,
            version: Wire::get(r)?,
            toolchain: Wire::get(r)?,
        })
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Vec<u8>) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<(A, B)> {
        Some((A::get(r)?, B::get(r)?))
    }
}

impl<T: Wire> Wire for Result<T, GpuError> {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Ok(v) => {
                0u64.put(w);
                v.put(w);
            }
            Err(e) => {
                1u64.put(w);
                e.put(w);
            }
        }
    }
    fn get(r: &mut &[u8]) -> Option<Self> {
        match u64::get(r)? {
            0 => Some(Ok(T::get(r)?)),
            1 => Some(Err(GpuError::get(r)?)),
            _ => None,
        }
    }
}

impl Wire for HwResult {
    fn put(&self, w: &mut Vec<u8>) {
        self.histogram.put(w);
        self.unfinished.put(w);
        self.launches.put(w);
        self.instances.put(w);
        (self.wall.as_nanos() as u64).put(w);
        self.device.put(w);
        self.host_threads.put(w);
        self.build.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<HwResult> {
        Some(HwResult {
            histogram: Wire::get(r)?,
            unfinished: Wire::get(r)?,
            launches: Wire::get(r)?,
            instances: Wire::get(r)?,
            wall: Duration::from_nanos(Wire::get(r)?),
            device: Wire::get(r)?,
            host_threads: Wire::get(r)?,
            build: Wire::get(r)?,
            // The parent knows its knobs; see `gpu::run`.
            knobs: Knobs::default(),
        })
    }
}

impl Wire for PlacementReport {
    fn put(&self, w: &mut Vec<u8>) {
        self.instances.put(w);
        self.roles.put(w);
        self.sms.put(w);
        self.gpus.put(w);
        self.cpu_threads.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<PlacementReport> {
        Some(PlacementReport {
            instances: Wire::get(r)?,
            roles: Wire::get(r)?,
            sms: Wire::get(r)?,
            gpus: Wire::get(r)?,
            cpu_threads: Wire::get(r)?,
        })
    }
}

impl Wire for GpuError {
    fn put(&self, w: &mut Vec<u8>) {
        let strings = |w: &mut Vec<u8>, tag: u64, fields: &[&String]| {
            tag.put(w);
            for f in fields {
                f.put(w);
            }
        };
        match self {
            GpuError::NoDriver => strings(w, 0, &[]),
            GpuError::NoDevice => strings(w, 1, &[]),
            GpuError::Driver { call, name, text } => strings(w, 2, &[call, name, text]),
            GpuError::Fault {
                test,
                call,
                name,
                text,
            } => strings(w, 3, &[test, call, name, text]),
            GpuError::Jit { code, target, log } => strings(w, 4, &[code, target, log]),
            GpuError::Ptx(e) => strings(w, 5, &[&e.to_string()]),
            GpuError::Knob {
                var,
                value,
                expected,
            } => strings(w, 6, &[var, value, expected]),
            GpuError::Lost { expected, counted } => {
                7u64.put(w);
                expected.put(w);
                counted.put(w);
            }
            GpuError::TableFull { entries, overflow } => {
                8u64.put(w);
                entries.put(w);
                overflow.put(w);
            }
            GpuError::Placement(m) => strings(w, 9, &[m]),
            GpuError::Worker(m) => strings(w, 10, &[m]),
            GpuError::Required { reason } => strings(w, 11, &[reason]),
            GpuError::Tuning(m) => strings(w, 12, &[m]),
            GpuError::TextureTooLarge { texels, max } => {
                13u64.put(w);
                texels.put(w);
                max.put(w);
            }
            GpuError::Host(m) => strings(w, 14, &[m]),
            GpuError::Unfaithful(m) => strings(w, 15, &[m]),
            GpuError::Toolchain(m) => strings(w, 16, &[m]),
        }
    }
    fn get(r: &mut &[u8]) -> Option<GpuError> {
        let s = |r: &mut &[u8]| String::get(r);
        Some(match u64::get(r)? {
            0 => GpuError::NoDriver,
            1 => GpuError::NoDevice,
            2 => GpuError::Driver {
                call: s(r)?,
                name: s(r)?,
                text: s(r)?,
            },
            3 => GpuError::Fault {
                test: s(r)?,
                call: s(r)?,
                name: s(r)?,
                text: s(r)?,
            },
            4 => GpuError::Jit {
                code: s(r)?,
                target: s(r)?,
                log: s(r)?,
            },
            5 => GpuError::Worker(s(r)?),
            6 => GpuError::Knob {
                var: s(r)?,
                value: s(r)?,
                expected: s(r)?,
            },
            7 => GpuError::Lost {
                expected: u64::get(r)?,
                counted: u64::get(r)?,
            },
            8 => GpuError::TableFull {
                entries: u32::get(r)?,
                overflow: u64::get(r)?,
            },
            9 => GpuError::Placement(s(r)?),
            10 => GpuError::Worker(s(r)?),
            11 => GpuError::Required { reason: s(r)? },
            12 => GpuError::Tuning(s(r)?),
            13 => GpuError::TextureTooLarge {
                texels: u64::get(r)?,
                max: u64::get(r)?,
            },
            14 => GpuError::Host(s(r)?),
            15 => GpuError::Unfaithful(s(r)?),
            16 => GpuError::Toolchain(s(r)?),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Wire>(v: &T) -> Option<T> {
        let mut w = Vec::new();
        v.put(&mut w);
        let mut r = w.as_slice();
        let out = T::get(&mut r);
        assert!(r.is_empty(), "bytes left over");
        out
    }

    #[test]
    fn results_and_errors_cross_the_pipe() {
        let hist: Result<Vec<(Vec<u32>, u64)>, GpuError> = Ok(vec![(vec![1, 0], 7), (vec![], 1)]);
        assert_eq!(
            round_trip(&hist).unwrap().unwrap(),
            vec![(vec![1, 0], 7), (vec![], 1)]
        );
        let fault = GpuError::Fault {
            test: "MP".into(),
            call: "cuCtxSynchronize".into(),
            name: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            text: "an illegal memory access was encountered".into(),
        };
        let text = fault.to_string();
        let back = round_trip(&Err::<u64, GpuError>(fault))
            .unwrap()
            .unwrap_err();
        assert_eq!(back.to_string(), text);
        let too_large = GpuError::TextureTooLarge {
            texels: 1 << 28,
            max: 1 << 27,
        };
        let text = too_large.to_string();
        let back = round_trip(&Err::<u64, GpuError>(too_large))
            .unwrap()
            .unwrap_err();
        assert!(
            matches!(back, GpuError::TextureTooLarge { texels, max } if texels == 1 << 28 && max == 1 << 27)
        );
        assert_eq!(back.to_string(), text);
        let host = GpuError::Host("a host thread panicked".into());
        let back = round_trip(&Err::<u64, GpuError>(host))
            .unwrap()
            .unwrap_err();
        assert!(matches!(&back, GpuError::Host(m) if m == "a host thread panicked"));
    }

    #[test]
    fn a_truncated_message_is_refused() {
        let mut w = Vec::new();
        Ok::<String, GpuError>("NVIDIA H100".into()).put(&mut w);
        w.truncate(w.len() - 3);
        let mut r = w.as_slice();
        assert!(Result::<String, GpuError>::get(&mut r).is_none());
    }

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
