//! Every diy7 cycle over a vocabulary of edges, up to a length: what
//! `diy7 -size N -nprocs T` does with a relax list, for the searches that
//! look for tests telling two models apart (`gpu-litmus diff
//! --cycles-up-to N`, `gpu-litmus mutants --kill-tests`).
//!
//! A cycle is a sequence of edges, each starting where the previous one
//! ended (`Rfe` ends in a read, so the next edge starts from one),
//! closing on itself. Only a communication edge (`Rfe`, `Fre`, `Wse`)
//! crosses from one thread to another, so each thread boundary is one, a
//! cycle has as many threads as external edges, and at least two.
//! Rotations of a cycle are one cycle: only the rotation whose vocabulary
//! indices are smallest is kept. A sequence that [`crate::cycle::skeleton`]
//! refuses (values or locations that cannot close it, such as a coherence
//! order against itself, or one change of location) is no cycle.
//!
//! Shorter cycles come first, then those of fewer threads: the smallest
//! test that tells two models apart is the one a user wants to read. The
//! output is bounded ([`Bound::max_cycles`]): a bound that would give more
//! cycles is an error that says how many each shorter length gave, not a
//! search that runs for hours.
//!
//! ```
//! use litmus_gen::enumerate::{enumerate, Bound};
//! let edges: Vec<String> = ["Rfe", "Fre", "Pod**"].iter().map(|e| e.to_string()).collect();
//! let e = enumerate(&edges, Bound { max_edges: 4, max_threads: 2, ..Bound::default() }).unwrap();
//! // MP, SB and LB, among others, once each.
//! for c in ["Rfe PodRR Fre PodWW", "Fre PodWR Fre PodWR", "Rfe PodRW Rfe PodRW"] {
//!     let rotations = e.cycles.iter().filter(|x| rotation_of(x, c)).count();
//!     assert_eq!(rotations, 1, "{c}");
//! }
//! # fn rotation_of(a: &str, b: &str) -> bool {
//! #     let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
//! #     a.len() == b.len() && (0..a.len()).any(|r| (0..a.len()).all(|i| a[(i + r) % a.len()] == b[i]))
//! # }
//! ```

use crate::cycle::skeleton;
use crate::edge::Edge;
use crate::error::GenError;
use crate::vocabulary::vocabulary;

pub use crate::vocabulary::{DEFAULT_EDGES, MAX_VOCABULARY};

/// The longest cycles enumerated: past it the count of sequences (the
/// vocabulary to this power) outgrows any search of models.
pub const MAX_EDGES: usize = 8;

/// The most cycles an enumeration gives unless told otherwise: each is a
/// family of one test or more, each checked by two models or more (about
/// a minute on two cores for this many two- to four-thread tests).
pub const DEFAULT_MAX_CYCLES: usize = 20_000;

/// The most sequences the walk looks at before it gives up (a few seconds):
/// a bound whose sequences are this many finds few cycles slowly, and is
/// refused. The default vocabulary's cycles of up to 6 edges take 0.1% of
/// it.
const MAX_STEPS: u64 = 50_000_000;

/// How far the enumeration goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Edges per cycle, 2 to [`MAX_EDGES`].
    pub max_edges: usize,
    /// Threads per cycle (its external edges), from 2.
    pub max_threads: usize,
    /// Memory accesses per thread, from 1: a thread's accesses are joined
    /// by internal edges in a row, one fewer. Every named shape has 2 at
    /// most; 3 adds threads such as `W x; W y; W x`, and multiplies the
    /// cycles by ten or so.
    pub max_accesses: usize,
    /// The most cycles: more is an error, not a truncated list, so that
    /// the bound a report names is the bound searched.
    pub max_cycles: usize,
}

impl Default for Bound {
    /// Cycles of up to 4 edges, 4 threads and 2 accesses a thread, at most
    /// [`DEFAULT_MAX_CYCLES`].
    fn default() -> Bound {
        Bound {
            max_edges: 4,
            max_threads: 4,
            max_accesses: 2,
            max_cycles: DEFAULT_MAX_CYCLES,
        }
    }
}

/// The cycles of a bound, and what was searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enumeration {
    /// The edges as given (`Pod**`).
    pub written: Vec<String>,
    /// The edges drawn from, `*` expanded, each once.
    pub vocabulary: Vec<String>,
    /// The bound searched.
    pub bound: Bound,
    /// Every cycle, edges separated by spaces (`Rfe PodRR Fre PodWW`),
    /// shortest first, then fewest threads.
    pub cycles: Vec<String>,
}

impl Enumeration {
    /// How many cycles each length gave: (edges, cycles), every length of
    /// the bound, zeros included.
    pub fn by_length(&self) -> Vec<(usize, usize)> {
        (2..=self.bound.max_edges)
            .map(|n| {
                let count = self
                    .cycles
                    .iter()
                    .filter(|c| c.split(' ').count() == n)
                    .count();
                (n, count)
            })
            .collect()
    }

    /// The bound in words, as reports name it: `every cycle of 2 to 4
    /// edges, 2 to 4 threads and at most 2 accesses a thread over 7 edges
    /// (Rfe,Fre,Wse,Pod**): 6 cycles (2 edges: 0, 3: 0, 4: 6)`: the edges
    /// as written, `*` unexpanded, and how many they are.
    pub fn describe(&self) -> String {
        let counts: Vec<String> = self
            .by_length()
            .iter()
            .enumerate()
            .map(|(k, (n, c))| match k {
                0 => format!("{n} edges: {c}"),
                _ => format!("{n}: {c}"),
            })
            .collect();
        format!(
            "every cycle of 2 to {} edges, 2 to {} threads and at most {} accesses a thread over {} edges ({}): {} cycle{} ({})",
            self.bound.max_edges,
            self.bound.max_threads,
            self.bound.max_accesses,
            self.vocabulary.len(),
            self.written.join(","),
            self.cycles.len(),
            if self.cycles.len() == 1 { "" } else { "s" },
            counts.join(", ")
        )
    }
}

/// Every cycle of 2 to `bound.max_edges` edges drawn from `edges` (diy7
/// edge names, `*` as [`crate::vocabulary`] reads it), with 2 to
/// `bound.max_threads` threads of at most `bound.max_accesses` accesses,
/// once up to rotation, shortest first.
/// Fails on an edge name the generator cannot read, an empty or oversized
/// vocabulary, a bound out of range, or more than `bound.max_cycles`
/// cycles; each error names the option at fault (`--edges`,
/// `--cycles-up-to`, `--max-threads`, `--max-accesses`, `--max-cycles`).
pub fn enumerate(edges: &[String], bound: Bound) -> Result<Enumeration, GenError> {
    enumerate_within(edges, bound, MAX_STEPS)
}

/// [`enumerate`], giving up after `max_steps` sequences.
fn enumerate_within(
    edges: &[String],
    bound: Bound,
    max_steps: u64,
) -> Result<Enumeration, GenError> {
    if !(2..=MAX_EDGES).contains(&bound.max_edges) {
        return Err(GenError::option(
            "cycles-up-to",
            &bound.max_edges.to_string(),
            format!("cycles have 2 to {MAX_EDGES} edges"),
        ));
    }
    if bound.max_threads < 2 {
        return Err(GenError::option(
            "max-threads",
            &bound.max_threads.to_string(),
            "a cycle has 2 threads or more",
        ));
    }
    if bound.max_accesses == 0 {
        return Err(GenError::option(
            "max-accesses",
            "0",
            "a thread has one access or more",
        ));
    }
    if bound.max_cycles == 0 {
        return Err(GenError::option(
            "max-cycles",
            "0",
            "at least one cycle must be allowed",
        ));
    }
    let words = vocabulary(edges)?;
    let (names, vocabulary): (Vec<String>, Vec<Edge>) = words.into_iter().unzip();
    let mut cycles = Vec::new();
    let mut steps = 0u64;
    for len in 2..=bound.max_edges {
        let mut found: Vec<(usize, String)> = Vec::new();
        let mut walk = Walk {
            vocabulary: &vocabulary,
            len,
            max_threads: bound.max_threads,
            max_run: bound.max_accesses - 1,
            seq: Vec::with_capacity(len),
            threads: 0,
            run: 0,
            steps: &mut steps,
            max_steps,
        };
        let mut on_cycle = |seq: &[usize], threads: usize| {
            let text = seq
                .iter()
                .map(|&i| names[i].as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if skeleton(&text).is_ok() {
                found.push((threads, text));
            }
            cycles.len() + found.len() <= bound.max_cycles
        };
        let finished = walk.extend(&mut on_cycle);
        if !finished {
            let shorter = cycles.len();
            let why = if steps > max_steps {
                format!(
                    "cycles of {len} edges over {} edges are more than {max_steps} sequences to look at ({shorter} cycles of up to {} edges); lower it, --max-threads or --max-accesses, or give fewer --edges",
                    vocabulary.len(),
                    len - 1
                )
            } else {
                format!(
                    "cycles of up to {len} edges, 2 to {} threads and {} accesses a thread, over {} edges are more than {} ({shorter} of up to {} edges); lower it or --max-threads, give fewer --edges, or raise --max-cycles",
                    bound.max_threads,
                    bound.max_accesses,
                    vocabulary.len(),
                    bound.max_cycles,
                    len - 1
                )
            };
            return Err(GenError::option(
                "cycles-up-to",
                &bound.max_edges.to_string(),
                why,
            ));
        }
        // Fewer threads first within a length; the walk's order otherwise.
        found.sort_by_key(|(threads, _)| *threads);
        cycles.extend(found.into_iter().map(|(_, text)| text));
    }
    Ok(Enumeration {
        written: edges.to_vec(),
        vocabulary: names,
        bound,
        cycles,
    })
}

/// [`enumerate`]'s cycles alone.
pub fn cycles(edges: &[String], bound: Bound) -> Result<Vec<String>, GenError> {
    enumerate(edges, bound).map(|e| e.cycles)
}

/// A depth-first walk over the sequences of one length.
struct Walk<'a> {
    vocabulary: &'a [Edge],
    len: usize,
    max_threads: usize,
    /// The vocabulary indices chosen so far.
    seq: Vec<usize>,
    /// The external edges among them.
    threads: usize,
    /// The most internal edges in a row.
    max_run: usize,
    /// The internal edges at the end of `seq`, in a row.
    run: usize,
    /// Sequences looked at, over every length.
    steps: &'a mut u64,
    /// When to give up.
    max_steps: u64,
}

impl Walk<'_> {
    /// Calls `found` with every closed sequence of `self.len` edges that
    /// extends `self.seq`, has 2 to `max_threads` threads and is its own
    /// smallest rotation. False when `found` or the step budget stopped it.
    fn extend(&mut self, found: &mut dyn FnMut(&[usize], usize) -> bool) -> bool {
        *self.steps += 1;
        if *self.steps > self.max_steps {
            return false;
        }
        if self.seq.len() == self.len {
            let (first, last) = (
                &self.vocabulary[self.seq[0]],
                &self.vocabulary[self.seq[self.len - 1]],
            );
            // The run at the end goes on into the one at the start.
            let leading = self
                .seq
                .iter()
                .take_while(|&&i| !self.vocabulary[i].external)
                .count();
            let closes =
                last.to == first.from && self.threads >= 2 && self.run + leading <= self.max_run;
            if closes && smallest_rotation(&self.seq) {
                return found(&self.seq, self.threads);
            }
            return true;
        }
        for i in 0..self.vocabulary.len() {
            // The first edge is the smallest index of its cycle, so no
            // later edge may be smaller.
            if self.seq.first().is_some_and(|&f| i < f) {
                continue;
            }
            let fits = self
                .seq
                .last()
                .is_none_or(|&p| self.vocabulary[p].to == self.vocabulary[i].from);
            let external = usize::from(self.vocabulary[i].external);
            let run = if external == 1 { 0 } else { self.run + 1 };
            if !fits || self.threads + external > self.max_threads || run > self.max_run {
                continue;
            }
            let before = self.run;
            self.seq.push(i);
            self.threads += external;
            self.run = run;
            let go_on = self.extend(found);
            self.run = before;
            self.threads -= external;
            self.seq.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// Whether `seq` is the lexicographically smallest of its rotations.
fn smallest_rotation(seq: &[usize]) -> bool {
    let n = seq.len();
    (1..n).all(|r| {
        let rotated = (0..n).map(|i| seq[(i + r) % n]);
        seq.iter().copied().cmp(rotated) != std::cmp::Ordering::Greater
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(list: &[&str]) -> Vec<String> {
        list.iter().map(|e| e.to_string()).collect()
    }

    fn bound(max_edges: usize, max_threads: usize) -> Bound {
        Bound {
            max_edges,
            max_threads,
            max_accesses: 2,
            max_cycles: DEFAULT_MAX_CYCLES,
        }
    }

    fn is_rotation(a: &str, b: &str) -> bool {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
        a.len() == b.len()
            && (0..a.len()).any(|r| (0..a.len()).all(|i| a[(i + r) % a.len()] == b[i]))
    }

    /// Every closed sequence of up to `max_edges` edges, each rotation
    /// class once, kept when the generator reads it as a cycle of 2 to
    /// `max_threads` threads: the enumeration done the slow way, to check
    /// the walk's pruning against.
    fn brute_force(edges: &[&str], b: Bound) -> Vec<String> {
        let (max_edges, max_threads) = (b.max_edges, b.max_threads);
        let mut out: Vec<String> = Vec::new();
        for len in 2..=max_edges {
            let total = edges.len().pow(len as u32);
            for mut code in 0..total {
                let mut seq = Vec::new();
                for _ in 0..len {
                    seq.push(edges[code % edges.len()]);
                    code /= edges.len();
                }
                let text = seq.join(" ");
                let threads = seq.iter().filter(|e| e.ends_with('e')).count();
                if !(2..=max_threads).contains(&threads) || skeleton(&text).is_err() {
                    continue;
                }
                // The longest run of internal edges, round the cycle.
                let (mut run, mut longest) = (0, 0);
                for e in seq.iter().chain(&seq) {
                    run = if e.ends_with('e') { 0 } else { run + 1 };
                    longest = longest.max(run);
                }
                if longest + 1 > b.max_accesses {
                    continue;
                }
                if !out.iter().any(|c| is_rotation(c, &text)) {
                    out.push(text);
                }
            }
        }
        out
    }

    /// By hand, over Rfe, Fre, PodWW and PodRR. Two edges close only as
    /// `Rfe Fre` (W→R→W), where the read reads the write its `Fre` leads
    /// to (refused). Three or more external edges with one `Pod` make
    /// one change of location, which no cycle closes; four external ones
    /// are `Rfe Fre Rfe Fre`, whose coherence order goes round its one
    /// location (refused). So a longer cycle is `Rfe`, `Fre` and `Pod`s
    /// changing location twice or more: after `Rfe` (a read) only `PodRR`s
    /// fit before `Fre`, after `Fre` (a write) only `PodWW`s before `Rfe`.
    /// With four edges: MP (one of each), `Rfe PodRR PodRR Fre` (a thread
    /// reads x, y, x: CoRR with a read between) and `Rfe Fre PodWW PodWW`
    /// (W x, W y, W x).
    #[test]
    fn over_mp_edges_up_to_four_the_cycles_are_three_as_counted_by_hand() {
        let mut b = bound(4, 4);
        b.max_accesses = 3;
        let e = enumerate(&strings(&["Rfe", "Fre", "PodWW", "PodRR"]), b).unwrap();
        assert_eq!(e.by_length(), [(2, 0), (3, 0), (4, 3)]);
        // Two accesses a thread: MP alone.
        let two = enumerate(&strings(&["Rfe", "Fre", "PodWW", "PodRR"]), bound(4, 4)).unwrap();
        assert_eq!(two.cycles, ["Rfe PodRR Fre PodWW"]);
        for c in [
            "Rfe PodRR Fre PodWW",
            "Rfe PodRR PodRR Fre",
            "Rfe Fre PodWW PodWW",
        ] {
            assert_eq!(
                e.cycles.iter().filter(|x| is_rotation(x, c)).count(),
                1,
                "{c} in {:?}",
                e.cycles
            );
        }
    }

    /// By hand, over Rfe, Fre, PodWR and PodRW, up to four edges and two
    /// threads. Every edge turns W into R or R into W, so cycles have an
    /// even length. Two edges: `Rfe Fre`, refused as above. Four: two
    /// external edges and two
    /// `Pod`s (the two changes of location a cycle needs), W→R at the even
    /// places and R→W at the odd ones: SB (`Fre PodWR Fre PodWR`), LB
    /// (`Rfe PodRW Rfe PodRW`), one thread reading x, writing y, reading x
    /// (`Rfe PodRW PodWR Fre`) and one writing x, reading y, writing x
    /// (`Fre PodWR PodRW Rfe`). Four cycles.
    #[test]
    fn over_sb_and_lb_edges_the_two_thread_cycles_are_four_as_counted_by_hand() {
        let mut b = bound(4, 2);
        b.max_accesses = 3;
        let e = enumerate(&strings(&["Rfe", "Fre", "PodWR", "PodRW"]), b).unwrap();
        let expected = [
            "Rfe PodRW Rfe PodRW",
            "Fre PodWR Fre PodWR",
            "Rfe PodRW PodWR Fre",
            "Fre PodWR PodRW Rfe",
        ];
        assert_eq!(e.by_length(), [(2, 0), (3, 0), (4, 4)]);
        for c in expected {
            assert_eq!(
                e.cycles.iter().filter(|x| is_rotation(x, c)).count(),
                1,
                "{c} in {:?}",
                e.cycles
            );
        }
    }

    #[test]
    fn the_walk_finds_what_brute_force_finds() {
        let edges = ["Rfe", "Fre", "Wse", "PodWW", "PodRR", "PodWR", "PosRR"];
        for accesses in [2, 3] {
            let mut b = bound(5, 3);
            b.max_accesses = accesses;
            let fast = enumerate(&strings(&edges), b).unwrap().cycles;
            let slow = brute_force(&edges, b);
            assert_eq!(fast.len(), slow.len(), "{fast:?}\n{slow:?}");
            for c in &slow {
                assert!(fast.iter().any(|f| is_rotation(f, c)), "{c} missing");
            }
        }
    }

    #[test]
    fn the_named_shapes_of_two_to_four_threads_are_each_found_once() {
        let edges = strings(&["Rfe", "Fre", "Wse", "Pod**", "Pos**"]);
        let all = cycles(&edges, bound(6, 4)).unwrap();
        for (name, cycle) in crate::SHAPES {
            // CoWW is one thread (`PosWW Wsi`): no external edge.
            if *name == "CoWW" {
                continue;
            }
            let found = all.iter().filter(|c| is_rotation(c, cycle)).count();
            assert_eq!(found, 1, "{name}: `{cycle}`");
        }
        for (i, a) in all.iter().enumerate() {
            assert!(
                !all[i + 1..].iter().any(|b| is_rotation(a, b)),
                "`{a}` twice"
            );
        }
        // Shortest first, then fewest threads.
        let key = |c: &String| {
            let edges: Vec<&str> = c.split(' ').collect();
            let threads = edges.iter().filter(|e| e.ends_with('e')).count();
            (edges.len(), threads)
        };
        let keys: Vec<(usize, usize)> = all.iter().map(key).collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    }

    #[test]
    fn fenced_edges_mix_fences_and_scopes_within_a_cycle() {
        let edges = strings(&["Rfe", "Fre", "Fence.sc.*dWW", "Fence.acq_rel.*dRR"]);
        let e = enumerate(&edges, bound(4, 2)).unwrap();
        // MP with a fence.sc on the writer and a fence.acq_rel on the
        // reader: three scopes each, nine cycles.
        assert_eq!(e.cycles.len(), 9, "{:?}", e.cycles);
        assert!(e
            .cycles
            .iter()
            .any(|c| is_rotation(c, "Fence.sc.ctadWW Rfe Fence.acq_rel.sysdRR Fre")));
        assert_eq!(e.vocabulary.len(), 8);
    }

    #[test]
    fn the_thread_bound_holds() {
        let edges = strings(&["Rfe", "Fre", "Wse", "Pod**"]);
        for threads in 2..=4 {
            let all = cycles(&edges, bound(6, threads)).unwrap();
            let most = all
                .iter()
                .map(|c| c.split(' ').filter(|e| e.ends_with('e')).count())
                .max();
            assert_eq!(most, Some(threads));
        }
    }

    #[test]
    fn too_many_cycles_is_an_error_that_says_what_each_length_gave() {
        let mut b = bound(6, 4);
        b.max_cycles = 100;
        let err = enumerate(&strings(DEFAULT_EDGES), b)
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("cycles-up-to `6`: cycles of up to "),
            "{err}"
        );
        assert!(err.contains("are more than 100 ("), "{err}");
        assert!(err.contains("raise --max-cycles"), "{err}");
    }

    /// Internal edges alone, but one external, and long runs of them
    /// allowed: few cycles among very many sequences, refused once the
    /// walk has looked at its budget (a small one here, to be quick; the
    /// binary's takes a few seconds) rather than walked for hours.
    #[test]
    fn a_walk_of_too_many_sequences_is_refused() {
        let edges = strings(&["Rfe", "Fence.*.*d**", "Fence.*.*s**"]);
        let b = Bound {
            max_edges: 8,
            max_threads: 4,
            max_accesses: 8,
            max_cycles: usize::MAX,
        };
        let err = enumerate_within(&edges, b, 100_000)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("over 49 edges are more than 100000 sequences to look at"),
            "{err}"
        );
        assert!(err.ends_with("or give fewer --edges"), "{err}");
    }

    #[test]
    fn bad_bounds_are_named() {
        let edges = strings(&["Rfe", "Fre", "Pod**"]);
        let long = enumerate(&edges, bound(9, 2)).unwrap_err().to_string();
        assert_eq!(long, "cycles-up-to `9`: cycles have 2 to 8 edges");
        let short = enumerate(&edges, bound(1, 2)).unwrap_err().to_string();
        assert!(short.contains("2 to 8 edges"), "{short}");
        let threads = enumerate(&edges, bound(4, 1)).unwrap_err().to_string();
        assert_eq!(threads, "max-threads `1`: a cycle has 2 threads or more");
        let mut none = bound(4, 2);
        none.max_cycles = 0;
        assert!(enumerate(&edges, none).is_err());
        let bad = enumerate(&strings(&["Rfe", "PodXY"]), bound(4, 2))
            .unwrap_err()
            .to_string();
        assert!(bad.starts_with("edges `PodXY`: "), "{bad}");
    }

    #[test]
    fn the_description_names_the_vocabulary_and_the_counts() {
        let e = enumerate(&strings(&["Rfe", "Fre", "PodWW", "PodRR"]), bound(4, 3)).unwrap();
        assert_eq!(
            e.describe(),
            "every cycle of 2 to 4 edges, 2 to 3 threads and at most 2 accesses a thread over 4 edges (Rfe,Fre,PodWW,PodRR): 1 cycle (2 edges: 0, 3: 0, 4: 1)"
        );
    }
}
