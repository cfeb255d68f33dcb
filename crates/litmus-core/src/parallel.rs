//! Independent jobs of very different cost run on a few threads, their
//! results in the order of the jobs: how the model checks a test set, how
//! `gen` writes a family's candidates and how mutants are judged. Each
//! thread takes the next job when it is free, since a fixed split would
//! leave threads idle behind the one costly job. `std::thread::scope` does
//! it in a few lines; a work-stealing pool (rayon) would add a dependency
//! and its build time for nothing the scheduling needs.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// `job(i)` for every `i < n` on up to `threads` threads, in the order of
/// `i`; with one thread (or one job) on the calling thread.
///
/// ```
/// let squares = litmus_core::parallel::par_for(5, 3, |i| i * i);
/// assert_eq!(squares, [0, 1, 4, 9, 16]);
/// ```
pub fn par_for<T: Send>(n: usize, threads: usize, job: impl Fn(usize) -> T + Sync) -> Vec<T> {
    if threads <= 1 || n <= 1 {
        return (0..n).map(job).collect();
    }
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
    std::thread::scope(|s| {
        for _ in 0..threads.min(n) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n {
                    break;
                }
                let v = job(i);
                out.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(v);
            });
        }
    });
    out.into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(|v| v.expect("every index is run once"))
        .collect()
}
