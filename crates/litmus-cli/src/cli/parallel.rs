//! Files checked in parallel, results reported in input order.
//!
//! `std::thread::scope` and a channel do this in a few lines: each file is
//! one independent job, so a work-stealing pool (rayon) would add a
//! dependency and its build time to CI for nothing the scheduling needs.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// How many threads to use: one per core.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Runs `work(i)` for every `i` in `0..n` on up to `threads` threads, and
/// hands each result to `emit` in the order of `i`, as soon as it and every
/// one before it are done. `emit` returns false to stop: no new job starts
/// (those running finish) and no more results are handed on. With one
/// thread it is a plain loop on the calling thread: a GPU run forks, which
/// is simplest from a process with one thread.
pub fn in_order<T: Send>(
    n: usize,
    threads: usize,
    work: impl Fn(usize) -> T + Sync,
    mut emit: impl FnMut(usize, T) -> bool,
) {
    if threads <= 1 || n <= 1 {
        for i in 0..n {
            if !emit(i, work(i)) {
                return;
            }
        }
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(n) {
            let tx = tx.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= n || stop.load(Ordering::Relaxed) {
                    return;
                }
                if tx.send((i, work(i))).is_err() {
                    return;
                }
            });
        }
        drop(tx);
        let mut order = litmus_runner::in_order::InOrder::new(n);
        for (i, result) in rx {
            if !order.put(i, result, &mut emit) {
                stop.store(true, Ordering::Relaxed);
                return;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_input_order_whatever_order_they_finish_in() {
        let mut seen = Vec::new();
        // Early items take longest, so later ones finish first.
        in_order(
            8,
            4,
            |i| {
                std::thread::sleep(std::time::Duration::from_millis(40 - 5 * i as u64));
                i * 10
            },
            |i, v| {
                seen.push((i, v));
                true
            },
        );
        assert_eq!(seen, (0..8).map(|i| (i, i * 10)).collect::<Vec<_>>());
    }

    #[test]
    fn one_thread_works_on_the_calling_thread() {
        let me = std::thread::current().id();
        let mut seen = Vec::new();
        in_order(
            3,
            1,
            |i| (i, std::thread::current().id()),
            |_, v| {
                seen.push(v);
                true
            },
        );
        assert_eq!(seen, vec![(0, me), (1, me), (2, me)]);
    }

    #[test]
    fn emit_returning_false_stops_the_rest() {
        let mut seen = Vec::new();
        in_order(
            100,
            2,
            |i| i,
            |i, _| {
                seen.push(i);
                i < 2
            },
        );
        assert_eq!(seen, vec![0, 1, 2]);
    }
}
