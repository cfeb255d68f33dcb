//! The host half of a test with host threads: CPU threads play every
//! instance's host roles while the GPU kernel plays the others.
//!
//! A host role's instructions become the host's C++ accesses on the
//! page-locked memory the GPU maps, with the orders the README's "Host
//! threads" gives: a weak access is a plain volatile one, relaxed, acquire
//! and release are `AtomicU32` loads and stores with those orderings,
//! `fence.sc.sys`/`membar.sys` is `fence(SeqCst)` and `fence.acq_rel.sys`
//! `fence(AcqRel)`, an `atom` the matching `fetch_*`, `swap` or
//! `compare_exchange` (`inc` and `dec` a compare-exchange loop, still one
//! atomic read-modify-write). The body is translated once into a small
//! program with registers and slots resolved (`compile.rs`), then
//! interpreted per instance, in the test's instruction order.
//!
//! Each host role has [`Knobs::host_threads`](super::Knobs::host_threads)
//! CPU threads, started once per run (`crew.rs`); thread `t` of every host
//! role plays the `t`-th share of the instances, in the same order, so the
//! host roles of one instance run at about the same time. All of them meet
//! (boundedly) before any raises the start flag the GPU roles poll, so the
//! GPU side waits for the host side rather than finishing before it has
//! begun.

use std::sync::atomic::{fence, AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use litmus_core::instr::{AtomOp, BinOp, BranchCond, InstrKind, Sem};
use litmus_core::ir::Test;
use litmus_ptx::layout::{knob, HOST_PLACEMENT_TAG, PLACEMENT_WORDS, START_FLAG_SPACING};
use litmus_ptx::Layout;

use super::GpuError;

mod affinity;
mod compile;
mod crew;

use compile::compile;
pub(crate) use crew::{Crew, Muster};

/// How long the CPU threads of a launch wait for each other before they
/// start anyway: far more than starting a thread takes, and bounded, so
/// that a thread the OS starts late cannot hold the launch.
const MEET_TIME: Duration = Duration::from_millis(200);

/// The host roles of a test, ready to play.
pub(crate) struct HostRoles {
    roles: Vec<HostRole>,
    /// Roles per instance (host and GPU): the placement buffer's stride.
    all_roles: usize,
    /// Registers each instance stores for the classifier.
    stored_per_instance: usize,
}

/// One host role as a program.
struct HostRole {
    /// The role's index among the test's threads.
    k: usize,
    ops: Vec<Op>,
    /// The registers' initial values.
    init: Vec<u32>,
    /// The global slots the role touches (indices into
    /// `Layout::global_locs`), each with the index of its permutation's
    /// knob words; `Op`s name them by their place here.
    slots: Vec<(usize, usize)>,
    /// `(register, index in Layout::stored_regs)` of the registers the
    /// classifier reads.
    stored: Vec<(usize, usize)>,
}

/// An operand: a register (by index) or an immediate.
#[derive(Clone, Copy)]
enum Val {
    Reg(usize),
    Imm(u32),
}

/// One instruction of a host role; `slot` is an index into
/// [`HostRole::slots`].
enum Op {
    Load {
        dst: usize,
        slot: usize,
        sem: Sem,
    },
    Store {
        slot: usize,
        value: Val,
        sem: Sem,
    },
    Fence(Ordering),
    Rmw {
        dst: Option<usize>,
        op: AtomOp,
        slot: usize,
        operand: Val,
        new: Option<Val>,
        order: Ordering,
    },
    Mov {
        dst: usize,
        src: Val,
    },
    Bin {
        dst: usize,
        op: BinOp,
        a: Val,
        b: Val,
    },
    Branch {
        cond: Option<(BranchCond, Val, Val)>,
        target: usize,
        backward: bool,
    },
    /// A label: nothing to do.
    Nop,
}

/// Raises every copy of the start flag the GPU roles poll (a CTA start
/// reads the copy of its CTA: as many copies as the buffer holds,
/// `START_FLAG_SPACING` words apart).
pub(crate) fn raise(go: &[AtomicU32]) {
    for copy in go.iter().step_by(START_FLAG_SPACING) {
        copy.store(1, Ordering::Release);
    }
}

/// What one launch's host side works on.
pub(crate) struct Play<'a> {
    /// The host locations' buffer (laid out like the device one).
    pub mem: &'a [AtomicU32],
    /// The registers buffer the classifier reads.
    pub regs: &'a [AtomicU32],
    /// The placement buffer, in placement-check mode.
    pub place: Option<&'a [AtomicU32]>,
    /// The start flag the GPU roles poll: every copy of it ([`raise`]).
    pub go: &'a [AtomicU32],
    /// The launch's knob words (instances, stride, slot permutations).
    pub words: &'a [u32],
    /// Instances per launch.
    pub n: usize,
    /// CPU threads per host role.
    pub threads: usize,
    /// Backward branches a role may take before it gives up.
    pub loop_bound: u32,
}

fn host_error(what: impl std::fmt::Display) -> GpuError {
    GpuError::Host(what.to_string())
}

impl HostRoles {
    /// The host roles of `test`, laid out as `layout`; `None` when it has
    /// none.
    pub(crate) fn of(test: &Test, layout: &Layout) -> Result<Option<HostRoles>, GpuError> {
        let roles = (0..test.threads.len())
            .filter(|k| layout.roles[*k].host)
            .map(|k| compile(test, layout, k))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((!roles.is_empty()).then_some(HostRoles {
            roles,
            all_roles: layout.roles.len(),
            stored_per_instance: layout.stored_regs.len(),
        }))
    }

    /// CPU threads a launch uses for `per_role` threads per host role.
    pub(crate) fn cpu_threads(&self, per_role: usize) -> usize {
        self.roles.len() * per_role
    }

    /// Plays every instance's host roles once, with a crew of its own.
    #[cfg(test)]
    fn play(&self, p: &Play) -> Result<Vec<u32>, GpuError> {
        let muster = Muster::default();
        std::thread::scope(|s| Crew::start(s, self, p, &muster)?.launch())
    }

    /// One CPU thread's share of the instances of one host role.
    fn play_share(
        &self,
        role: &HostRole,
        p: &Play,
        instances: std::ops::Range<usize>,
        cpu: u32,
    ) -> Result<Vec<u32>, GpuError> {
        let (first, last) = (instances.start, instances.end);
        let slots = role.slots.len();
        let mut regs = role.init.clone();
        let mut batch = vec![0usize; BATCH * slots];
        let mut gave_up = Vec::new();
        for inst in instances {
            let at = (inst % BATCH) * slots;
            if at == 0 || inst == first {
                // The addresses of this batch of instances first, each
                // prefetched, then their plays.
                let end = (inst - inst % BATCH + BATCH).min(last);
                for later in inst..end {
                    let out = &mut batch[(later % BATCH) * slots..][..slots];
                    slot_addresses(role, p, later, out)?;
                    for &a in out.iter() {
                        prefetch_word(&p.mem[a]);
                    }
                }
            }
            let addrs = &batch[at..at + slots];
            let i = inst as u32;
            regs.copy_from_slice(&role.init);
            if !run(role, p, addrs, &mut regs) {
                gave_up.push(i);
            }
            for &(r, idx) in &role.stored {
                let at = inst * self.stored_per_instance + idx;
                if let Some(w) = p.regs.get(at) {
                    w.store(regs[r], Ordering::Relaxed);
                }
            }
            if let Some(place) = p.place {
                let at = (inst * self.all_roles + role.k) * PLACEMENT_WORDS;
                if let Some(rec) = place.get(at..at + PLACEMENT_WORDS) {
                    for (w, v) in
                        rec.iter()
                            .zip([HOST_PLACEMENT_TAG, cpu, role.k as u32, HOST_PLACEMENT_TAG])
                    {
                        w.store(v, Ordering::Relaxed);
                    }
                }
            }
        }
        Ok(gave_up)
    }
}

/// Announces this thread and waits, at most [`MEET_TIME`], until all
/// `total` threads of the launch have (or the launch is aborted).
fn meet(ready: &AtomicU32, total: usize, abort: &AtomicBool) {
    ready.fetch_add(1, Ordering::AcqRel);
    let start = Instant::now();
    while (ready.load(Ordering::Acquire) as usize) < total
        && !abort.load(Ordering::Relaxed)
        && start.elapsed() < MEET_TIME
    {
        // Yield rather than spin: more CPU threads than cores must still
        // let the late ones start.
        std::thread::yield_now();
    }
}

/// Instances whose addresses a CPU thread works out (and prefetches)
/// before it plays them: an instance's slots lie at random in a buffer of
/// megabytes, so without this each play waits on a cache miss or two.
const BATCH: usize = 16;

/// The addresses (in words of the host buffer) of instance `inst`'s slots
/// of the locations `role` touches: the kernel's `global_addr`,
/// (j·N + perm_j(i))·stride, in the same 32-bit arithmetic.
fn slot_addresses(
    role: &HostRole,
    p: &Play,
    inst: usize,
    out: &mut [usize],
) -> Result<(), GpuError> {
    let n = p.words[knob::N];
    let n_mask = p.words[knob::N_MASK];
    let stride = p.words[knob::STRIDE] as usize;
    let i = inst as u32;
    for (a, &(j, knob_at)) in out.iter_mut().zip(&role.slots) {
        let (m, add) = (p.words[knob_at], p.words[knob_at + 1]);
        let slot = i.wrapping_mul(m).wrapping_add(add) & n_mask;
        *a = (n.wrapping_mul(j as u32).wrapping_add(slot)) as usize * stride;
        if *a >= p.mem.len() {
            return Err(host_error(format!(
                "instance {inst}'s slot of location slot {j} lies past the host buffer"
            )));
        }
    }
    Ok(())
}

/// Asks the CPU to bring `w`'s cache line in; nothing where there is no
/// such instruction. A hint: the test's accesses stay the only ones.
fn prefetch_word(w: &AtomicU32) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and changes no memory.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(w.as_ptr().cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = w;
}

/// Runs one instance of a host role; false when it gave up on a loop.
fn run(role: &HostRole, p: &Play, addrs: &[usize], regs: &mut [u32]) -> bool {
    let val = |regs: &[u32], v: Val| match v {
        Val::Reg(r) => regs[r],
        Val::Imm(x) => x,
    };
    let mut pc = 0;
    let mut iters = 0u32;
    while let Some(op) = role.ops.get(pc) {
        pc += 1;
        match *op {
            Op::Load { dst, slot, sem } => {
                let w = &p.mem[addrs[slot]];
                regs[dst] = match sem {
                    // SAFETY: a plain (non-atomic) read of a live word, as
                    // C++ would make it; volatile so that the compiler
                    // keeps it, once, where the test has it.
                    Sem::Weak => unsafe { std::ptr::read_volatile(w.as_ptr()) },
                    sem => w.load(load_order(sem)),
                };
            }
            Op::Store { slot, value, sem } => {
                let w = &p.mem[addrs[slot]];
                let v = val(regs, value);
                match sem {
                    // SAFETY: as for the weak load: a plain write of a
                    // live word.
                    Sem::Weak => unsafe { std::ptr::write_volatile(w.as_ptr(), v) },
                    sem => w.store(v, store_order(sem)),
                }
            }
            Op::Fence(order) => fence(order),
            Op::Rmw {
                dst,
                op,
                slot,
                operand,
                new,
                order,
            } => {
                let w = &p.mem[addrs[slot]];
                let b = val(regs, operand);
                let old = rmw(w, op, b, new.map(|n| val(regs, n)), order);
                if let Some(d) = dst {
                    regs[d] = old;
                }
            }
            Op::Mov { dst, src } => regs[dst] = val(regs, src),
            Op::Bin { dst, op, a, b } => {
                let (a, b) = (val(regs, a), val(regs, b));
                regs[dst] = match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::And => a & b,
                    BinOp::Or => a | b,
                    BinOp::Xor => a ^ b,
                };
            }
            Op::Branch {
                cond,
                target,
                backward,
            } => {
                let taken = match cond {
                    None => true,
                    Some((BranchCond::Eq, a, b)) => val(regs, a) == val(regs, b),
                    Some((BranchCond::Ne, a, b)) => val(regs, a) != val(regs, b),
                };
                if taken {
                    if backward {
                        // The kernel's bound, counted the same way.
                        iters += 1;
                        if iters > p.loop_bound {
                            return false;
                        }
                    }
                    pc = target;
                }
            }
            Op::Nop => {}
        }
    }
    true
}

/// A load's ordering: acquire where the test asks for it, else relaxed
/// (`AtomicU32::load` takes no release ordering).
fn load_order(sem: Sem) -> Ordering {
    match sem {
        Sem::Acquire | Sem::AcqRel => Ordering::Acquire,
        Sem::Sc => Ordering::SeqCst,
        _ => Ordering::Relaxed,
    }
}

/// A store's ordering: release where the test asks for it, else relaxed
/// (`AtomicU32::store` takes no acquire ordering).
fn store_order(sem: Sem) -> Ordering {
    match sem {
        Sem::Release | Sem::AcqRel => Ordering::Release,
        Sem::Sc => Ordering::SeqCst,
        _ => Ordering::Relaxed,
    }
}

/// The ordering of a failed compare-exchange: the RMW's, less its release
/// part, which a failure (no write) cannot have.
fn failure_order(order: Ordering) -> Ordering {
    match order {
        Ordering::Release => Ordering::Relaxed,
        Ordering::AcqRel => Ordering::Acquire,
        o => o,
    }
}

/// One atomic read-modify-write, as PTX defines `op`; returns the old
/// value.
fn rmw(w: &AtomicU32, op: AtomOp, b: u32, new: Option<u32>, order: Ordering) -> u32 {
    let step = |f: &dyn Fn(u32) -> u32| match w
        .fetch_update(order, failure_order(order), |old| Some(f(old)))
    {
        Ok(old) | Err(old) => old,
    };
    match op {
        AtomOp::Exch => w.swap(b, order),
        AtomOp::Add => w.fetch_add(b, order),
        AtomOp::Sub => w.fetch_sub(b, order),
        AtomOp::And => w.fetch_and(b, order),
        AtomOp::Or => w.fetch_or(b, order),
        AtomOp::Xor => w.fetch_xor(b, order),
        AtomOp::Min => w.fetch_min(b, order),
        AtomOp::Max => w.fetch_max(b, order),
        AtomOp::Inc => step(&|old| if old >= b { 0 } else { old + 1 }),
        AtomOp::Dec => step(&|old| if old == 0 || old > b { b } else { old - 1 }),
        AtomOp::Cas => match w.compare_exchange(b, new.unwrap_or(b), order, failure_order(order)) {
            Ok(old) | Err(old) => old,
        },
    }
}

/// Where a GPU thread's `atom` on host memory races a host thread's write
/// of the same location: said in words, or `None`. PTX makes a `.sys` RMW
/// atomic with every other access, but a GPU's atomics on page-locked
/// memory across PCIe are not atomic with the host's accesses (CUDA says
/// so for mapped memory); an H100 over PCIe lost 6,462 of 16.8M
/// increments of such a test. Such a test runs faithfully only where the
/// device reports native host atomics.
pub(crate) fn gpu_atomic_racing_the_host(test: &Test) -> Option<String> {
    let in_host = |loc: &str| {
        test.location(loc)
            .is_some_and(|l| l.space == litmus_core::ir::Space::Host)
    };
    let host_writes = |loc: &str| {
        test.threads
            .iter()
            .find(|t| t.placement.host && t.writes(loc))
    };
    test.threads
        .iter()
        .filter(|t| !t.placement.host)
        .find_map(|t| {
            t.body.iter().find_map(|i| {
                let loc = i.kind.loc().filter(|_| matches!(i.kind, InstrKind::Atom { .. }))?;
                let host = host_writes(&loc.text).filter(|_| in_host(&loc.text))?;
                Some(format!(
                    "GPU thread `{}`'s atom on host location `{}` races host thread `{}`'s write of it, and this GPU's atomics on host memory are not atomic with the host's (no native host atomics: CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED is 0, as over PCIe)",
                    t.name, loc, host.name
                ))
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_text as text;

    #[test]
    fn a_gpu_atom_on_host_memory_that_a_host_thread_writes_needs_native_host_atomics() {
        let parse = |src: &str| text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")));
        let race = parse("PTX r\n{ host c=0; }\n P0@cta 0,gpu 0 | P1@host ;\n atom.relaxed.sys.add r0, c, 1 | atom.relaxed.sys.add r0, c, 1 ;\nexists (P0:r0 == 0 /\\ P1:r0 == 0)\n");
        let why = gpu_atomic_racing_the_host(&race).expect("a race");
        assert!(
            why.contains("`P0`") && why.contains("`c`") && why.contains("`P1`"),
            "{why}"
        );
        assert!(why.contains("HOST_NATIVE_ATOMIC_SUPPORTED"), "{why}");
        // The host only reads: no write of the host's to lose.
        let reads = parse("PTX r\n{ host c=0; }\n P0@cta 0,gpu 0 | P1@host ;\n atom.relaxed.sys.add r0, c, 1 | ld.relaxed.sys r0, c ;\nexists (P1:r0 == 1)\n");
        assert_eq!(gpu_atomic_racing_the_host(&reads), None);
        // The GPU only stores: a plain store is a single write either way.
        let stores = parse("PTX r\n{ host c=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys c, 2 | atom.relaxed.sys.add r0, c, 1 ;\nexists (P1:r0 == 2)\n");
        assert_eq!(gpu_atomic_racing_the_host(&stores), None);
    }

    /// The host roles of a test and buffers for `n` instances of it, made
    /// here, with identity slot permutations and a stride of 2; the
    /// locations start at their initial values.
    struct Bench {
        roles: HostRoles,
        words: Vec<u32>,
        mem: Vec<AtomicU32>,
        regs: Vec<AtomicU32>,
        place: Vec<AtomicU32>,
        go: [AtomicU32; 1],
        n: usize,
    }

    impl Bench {
        fn new(src: &str, n: usize) -> Bench {
            let test = text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")));
            let layout = Layout::of(&test).unwrap();
            let roles = HostRoles::of(&test, &layout).unwrap().unwrap();
            let stride = 2;
            let mut words = vec![0u32; layout.knob_words()];
            words[knob::N] = n as u32;
            words[knob::N_MASK] = n as u32 - 1;
            words[knob::STRIDE] = stride as u32;
            for j in 0..layout.global_locs.len() {
                words[layout.loc_knob(j)] = 1;
            }
            let atomics = |len: usize| (0..len).map(|_| AtomicU32::new(0)).collect::<Vec<_>>();
            let mem = atomics(layout.global_locs.len() * n * stride);
            for (j, l) in layout.global_locs.iter().enumerate() {
                for i in 0..n {
                    mem[(j * n + i) * stride]
                        .store(test.locations[*l].init.value as u32, Ordering::Relaxed);
                }
            }
            Bench {
                roles,
                words,
                mem,
                regs: atomics(n * layout.stored_regs.len()),
                place: atomics(n * layout.roles.len() * PLACEMENT_WORDS),
                go: [AtomicU32::new(0)],
                n,
            }
        }

        fn play(&self, threads: usize) -> Play<'_> {
            Play {
                mem: &self.mem,
                regs: &self.regs,
                place: Some(&self.place),
                go: &self.go,
                words: &self.words,
                n: self.n,
                threads,
                loop_bound: 5,
            }
        }
    }

    fn words(v: &[AtomicU32]) -> Vec<u32> {
        v.iter().map(|w| w.load(Ordering::Relaxed)).collect()
    }

    /// Plays the host roles of `src` over `n` instances with `threads`
    /// CPU threads per role, once, on a [`Bench`]. Returns (memory,
    /// registers, placement, gave up).
    fn play(src: &str, n: usize, threads: usize) -> (Vec<u32>, Vec<u32>, Vec<u32>, Vec<u32>) {
        let b = Bench::new(src, n);
        let gave_up = b.roles.play(&b.play(threads)).unwrap();
        assert_eq!(b.go[0].load(Ordering::Relaxed), 1, "the start flag is up");
        (words(&b.mem), words(&b.regs), words(&b.place), gave_up)
    }

    #[test]
    fn a_crew_plays_every_launch_of_a_run_then_leaves() {
        // Every launch adds 1 to each instance's x; the register keeps
        // what the last launch read.
        let n = 128;
        let b = Bench::new(
            "PTX t\n{ host x=0; }\n P0@cta 0,gpu 0 | P1@host ;\n ld.relaxed.sys r0, x | atom.relaxed.sys.add r1, x, 1 ;\nexists (P1:r1 == 0)\n",
            n,
        );
        let play = b.play(3);
        let muster = Muster::default();
        let launches = 5;
        std::thread::scope(|s| {
            let crew = Crew::start(s, &b.roles, &play, &muster).unwrap();
            for l in 0..launches {
                b.go[0].store(0, Ordering::Relaxed);
                assert_eq!(crew.launch().unwrap(), Vec::<u32>::new());
                assert_eq!(
                    b.go[0].load(Ordering::Relaxed),
                    1,
                    "launch {l}: the flag is up"
                );
                let mem = words(&b.mem);
                let regs = words(&b.regs);
                for i in 0..n {
                    assert_eq!(mem[i * 2], l + 1, "launch {l}, instance {i}");
                    assert_eq!(regs[i], l, "launch {l}, instance {i}");
                }
            }
            // Dropping the crew ends the scope: its threads leave.
        });
    }

    #[test]
    fn a_host_role_plays_every_instance_and_records_its_placement() {
        let n = 64;
        let (mem, regs, place, gave_up) = play(
            "PTX t\n{ host x=7; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys y, 1 | ld.relaxed r0, x ;\n | st.release x, 5 ;\n | add r1, r0, 1 ;\nexists (P1:r0 == 7 /\\ P1:r1 == 8)\n",
            n,
            3,
        );
        assert!(gave_up.is_empty());
        for i in 0..n {
            // x (slot 0) written, y (slot 1, the GPU's) untouched.
            assert_eq!(mem[i * 2], 5, "instance {i}");
            assert_eq!(mem[(n + i) * 2], 0, "instance {i}");
            assert_eq!(&regs[i * 2..i * 2 + 2], &[7, 8], "instance {i}");
            // Role 1 is the host's: tagged, a CPU thread below 3, role 1;
            // role 0's record is the GPU's to write.
            let rec = &place[(i * 2 + 1) * 4..(i * 2 + 2) * 4];
            assert_eq!(
                [rec[0], rec[2], rec[3]],
                [HOST_PLACEMENT_TAG, 1, HOST_PLACEMENT_TAG]
            );
            assert!(rec[1] < 3);
            assert_eq!(place[i * 2 * 4], 0);
        }
        // Thread t plays the t-th share: 22, 22 and 20 instances.
        let cpu = |i: usize| place[(i * 2 + 1) * 4 + 1];
        assert_eq!(
            (cpu(0), cpu(21), cpu(22), cpu(44), cpu(63)),
            (0, 0, 1, 2, 2)
        );
    }

    #[test]
    fn a_host_loop_past_the_bound_gives_up_its_instance() {
        let n = 32;
        let (_, _, _, gave_up) = play(
            "PTX t\n{ host x=0; host y=0; }\n P0@cta 0,gpu 0 | P1@host ;\n st.relaxed.sys x, 1 | LC00: ;\n | ld.acquire r0, y ;\n | bne r0, 1, LC00 ;\nexists (P1:r0 == 1)\n",
            n,
            2,
        );
        assert_eq!(gave_up, (0..n as u32).collect::<Vec<_>>());
    }

    #[test]
    fn two_host_roles_each_get_their_own_cpu_threads() {
        let n = 16;
        let (_, regs, place, _) = play(
            "PTX t\n{ host x=1; host y=2; }\n P0@cta 0,gpu 0 | P1@host | P2@host ;\n st.relaxed.sys x, 1 | ld.relaxed r0, y | ld.acquire r1, x ;\nexists (P1:r0 == 2 /\\ P2:r1 == 1)\n",
            n,
            2,
        );
        for i in 0..n {
            assert_eq!(&regs[i * 2..i * 2 + 2], &[2, 1]);
            let cpu = |k: usize| place[(i * 3 + k) * 4 + 1];
            // Role 1's threads are 0 and 1, role 2's 2 and 3; the same
            // share of the instances for both.
            assert_eq!(cpu(2), cpu(1) + 2, "instance {i}");
        }
    }

    #[test]
    fn rmws_follow_ptx() {
        let w = AtomicU32::new(3);
        let o = Ordering::AcqRel;
        assert_eq!(rmw(&w, AtomOp::Inc, 3, None, o), 3);
        assert_eq!(w.load(Ordering::Relaxed), 0);
        assert_eq!(rmw(&w, AtomOp::Inc, 3, None, o), 0);
        assert_eq!(w.load(Ordering::Relaxed), 1);
        assert_eq!(rmw(&w, AtomOp::Dec, 5, None, o), 1);
        assert_eq!(w.load(Ordering::Relaxed), 0);
        assert_eq!(rmw(&w, AtomOp::Dec, 5, None, o), 0);
        assert_eq!(w.load(Ordering::Relaxed), 5);
        assert_eq!(rmw(&w, AtomOp::Cas, 4, Some(9), Ordering::Release), 5);
        assert_eq!(w.load(Ordering::Relaxed), 5);
        assert_eq!(rmw(&w, AtomOp::Cas, 5, Some(9), Ordering::Relaxed), 5);
        assert_eq!(w.load(Ordering::Relaxed), 9);
        assert_eq!(rmw(&w, AtomOp::Sub, 10, None, Ordering::SeqCst), 9);
        assert_eq!(w.load(Ordering::Relaxed), u32::MAX);
        assert_eq!(rmw(&w, AtomOp::Min, 4, None, Ordering::Acquire), u32::MAX);
        assert_eq!(w.load(Ordering::Relaxed), 4);
    }
}
