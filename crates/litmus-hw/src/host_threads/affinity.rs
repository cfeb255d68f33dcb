//! Which CPU each of a crew's threads runs on.
//!
//! A host role's share is a tight loop over page-locked memory that the
//! GPU reads and writes too; a thread the OS moves to another CPU mid-share
//! leaves its cache lines behind. So each CPU thread gets a CPU of its own
//! among those the process may use, the first of them left to the run's
//! own thread, which launches the kernels. With fewer CPUs than that, or
//! off Linux, threads are not pinned: the OS spreads them better than a
//! pinning that stacks several on one CPU.

/// The CPU for each of `threads` CPU threads, or `None` where they are
/// not pinned.
pub(super) fn cpus_for(threads: usize) -> Option<Vec<usize>> {
    let allowed = allowed_cpus()?;
    // The first allowed CPU stays the run thread's.
    (allowed.len() > threads).then(|| allowed[1..=threads].to_vec())
}

/// Pins the calling thread to `cpu`; a refusal leaves it unpinned (a
/// pinning only makes the run faster, never different).
#[cfg(target_os = "linux")]
pub(super) fn pin(cpu: usize) {
    // SAFETY: `set` is a plain bit set that lives across the call, and
    // its size is the one passed.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set);
    }
}

#[cfg(not(target_os = "linux"))]
pub(super) fn pin(_cpu: usize) {}

/// The CPUs this process may run on, in order; `None` where that cannot
/// be asked.
#[cfg(target_os = "linux")]
fn allowed_cpus() -> Option<Vec<usize>> {
    // SAFETY: as in `pin`; the kernel writes at most the size passed.
    let set = unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        set
    };
    // SAFETY: reads of the set filled above.
    let cpus = (0..libc::CPU_SETSIZE as usize)
        .filter(|&c| unsafe { libc::CPU_ISSET(c, &set) })
        .collect();
    Some(cpus)
}

#[cfg(not(target_os = "linux"))]
fn allowed_cpus() -> Option<Vec<usize>> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_get_distinct_cpus_past_the_first_or_none() {
        let Some(allowed) = allowed_cpus() else {
            return;
        };
        assert!(!allowed.is_empty(), "a process runs on some CPU");
        let fit = allowed.len() - 1;
        if fit > 0 {
            let cpus = cpus_for(fit).expect("as many threads as CPUs past the first");
            assert_eq!(cpus, allowed[1..].to_vec());
        }
        // One more thread than fits: none is pinned.
        assert_eq!(cpus_for(allowed.len()), None);
    }
}
