//! Every diy7 cycle over a vocabulary of edges, up to a length: what
//! `diy7 -size N -nprocs T` does with a relax list, for the searches that
//! look for tests telling two models apart.
//!
//! A cycle is a sequence of edges, each starting where the previous one
//! ended (`Rfe` ends in a read, so the next edge starts from one),
//! closing on itself; each external edge starts a thread, so a cycle has
//! as many threads as external edges, and at least two. Rotations of a
//! cycle are one cycle: only the rotation whose vocabulary indices are
//! smallest is kept. A sequence that [`crate::cycle::skeleton`] refuses
//! (values or locations that cannot close it, such as a coherence order
//! against itself) is no cycle. Shorter cycles come first: the smallest
//! test that tells two models apart is the one a user wants to read.
//!
//! ```
//! use litmus_gen::enumerate::{cycles, Bound, DEFAULT_EDGES};
//! let edges: Vec<String> = DEFAULT_EDGES.iter().map(|e| e.to_string()).collect();
//! let four = cycles(&edges, Bound { max_edges: 4, max_threads: 2 }).unwrap();
//! // MP, SB, LB and S, among others, once each.
//! for c in ["Rfe PodRR Fre PodWW", "Fre PodWR Fre PodWR", "Rfe PodRW Rfe PodRW"] {
//!     let rotations = four.iter().filter(|x| rotation_of(x, c)).count();
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

/// The edges enumerated when none are given: communication edges
/// between threads and plain program order between different locations.
/// Fences, scopes and access semantics come from the family options
/// applied to each cycle, as for a named shape.
pub const DEFAULT_EDGES: &[&str] = &["Rfe", "Fre", "Wse", "PodWW", "PodWR", "PodRW", "PodRR"];

/// The longest cycles enumerated: past it the count of sequences (the
/// vocabulary to this power) outgrows any search of models.
pub const MAX_EDGES: usize = 8;

/// The most edges a vocabulary may hold.
pub const MAX_VOCABULARY: usize = 32;

/// How far the enumeration goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bound {
    /// Edges per cycle, from 2.
    pub max_edges: usize,
    /// Threads per cycle (its external edges), from 2.
    pub max_threads: usize,
}

/// Every cycle of 2 to `bound.max_edges` edges drawn from `edges` (diy7
/// edge names), with 2 to `bound.max_threads` threads, once up to
/// rotation, shortest first, as text (`Rfe PodRR Fre PodWW`). Fails on an
/// edge name the generator cannot read, an empty or oversized vocabulary,
/// or a bound out of range.
pub fn cycles(edges: &[String], bound: Bound) -> Result<Vec<String>, GenError> {
    let option = |value: String, why: String| GenError::BadOption {
        option: "--edges",
        value,
        why,
    };
    if edges.is_empty() || edges.len() > MAX_VOCABULARY {
        return Err(option(
            edges.join(","),
            format!("between 1 and {MAX_VOCABULARY} edges"),
        ));
    }
    if !(2..=MAX_EDGES).contains(&bound.max_edges) {
        return Err(GenError::BadOption {
            option: "--cycles-up-to",
            value: bound.max_edges.to_string(),
            why: format!("cycles have 2 to {MAX_EDGES} edges"),
        });
    }
    if bound.max_threads < 2 {
        return Err(GenError::BadOption {
            option: "--max-threads",
            value: bound.max_threads.to_string(),
            why: "a cycle has 2 threads or more".into(),
        });
    }
    let vocabulary = edges
        .iter()
        .enumerate()
        .map(|(i, e)| Edge::parse(e, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Vec::new();
    for len in 2..=bound.max_edges {
        let mut walk = Walk {
            vocabulary: &vocabulary,
            len,
            max_threads: bound.max_threads,
            seq: Vec::with_capacity(len),
        };
        walk.extend(&mut |seq| {
            let text = seq
                .iter()
                .map(|&i| edges[i].as_str())
                .collect::<Vec<_>>()
                .join(" ");
            if skeleton(&text).is_ok() {
                out.push(text);
            }
        });
    }
    Ok(out)
}

/// A depth-first walk over the sequences of one length.
struct Walk<'a> {
    vocabulary: &'a [Edge],
    len: usize,
    max_threads: usize,
    /// The vocabulary indices chosen so far.
    seq: Vec<usize>,
}

impl Walk<'_> {
    /// Calls `found` with every closed sequence of `self.len` edges that
    /// extends `self.seq` and is its own smallest rotation.
    fn extend(&mut self, found: &mut dyn FnMut(&[usize])) {
        if self.seq.len() == self.len {
            let (first, last) = (
                &self.vocabulary[self.seq[0]],
                &self.vocabulary[self.seq[self.len - 1]],
            );
            if last.to == first.from && self.threads() >= 2 && smallest_rotation(&self.seq) {
                found(&self.seq);
            }
            return;
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
            if !fits {
                continue;
            }
            self.seq.push(i);
            if self.threads() <= self.max_threads {
                self.extend(found);
            }
            self.seq.pop();
        }
    }

    /// The threads of the sequence so far: its external edges.
    fn threads(&self) -> usize {
        self.seq
            .iter()
            .filter(|&&i| self.vocabulary[i].external)
            .count()
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

    fn default_edges() -> Vec<String> {
        DEFAULT_EDGES.iter().map(|e| e.to_string()).collect()
    }

    fn is_rotation(a: &str, b: &str) -> bool {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(' ').collect(), b.split(' ').collect());
        a.len() == b.len()
            && (0..a.len()).any(|r| (0..a.len()).all(|i| a[(i + r) % a.len()] == b[i]))
    }

    #[test]
    fn the_named_shapes_of_two_to_four_threads_are_each_found_once() {
        let all = cycles(
            &default_edges(),
            Bound {
                max_edges: 6,
                max_threads: 4,
            },
        )
        .unwrap();
        for (name, cycle) in crate::SHAPES {
            let has_fence_or_po_same = cycle.contains("Pos") || cycle.contains("Fence");
            if has_fence_or_po_same || cycle.split(' ').count() > 6 {
                continue;
            }
            let found = all.iter().filter(|c| is_rotation(c, cycle)).count();
            assert_eq!(found, 1, "{name}: `{cycle}`");
        }
        // No cycle twice, up to rotation.
        for (i, a) in all.iter().enumerate() {
            assert!(
                !all[i + 1..].iter().any(|b| is_rotation(a, b)),
                "`{a}` twice"
            );
        }
        // Shortest first.
        let lens: Vec<usize> = all.iter().map(|c| c.split(' ').count()).collect();
        assert!(lens.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn the_two_edge_cycles_over_communication_are_the_coherence_shapes_that_close() {
        // Over Rfe, Fre, Wse alone, two edges close only as W→W→W
        // (Wse Wse: coherence against itself, refused) or W→R→W (Rfe Fre):
        // one cycle, two threads.
        let edges: Vec<String> = ["Rfe", "Fre", "Wse"]
            .iter()
            .map(|e| e.to_string())
            .collect();
        let two = cycles(
            &edges,
            Bound {
                max_edges: 2,
                max_threads: 2,
            },
        )
        .unwrap();
        assert_eq!(two, vec!["Rfe Fre".to_string()]);
    }

    #[test]
    fn the_thread_bound_holds_and_bad_input_is_named() {
        let two_threads = cycles(
            &default_edges(),
            Bound {
                max_edges: 6,
                max_threads: 2,
            },
        )
        .unwrap();
        for c in &two_threads {
            let external = c.split(' ').filter(|e| e.ends_with('e')).count();
            assert!(external <= 2, "{c}");
        }
        let bad = cycles(
            &["Rfe".into(), "PodXY".into()],
            Bound {
                max_edges: 4,
                max_threads: 2,
            },
        )
        .unwrap_err();
        assert!(bad.to_string().contains("`PodXY`"), "{bad}");
        let long = cycles(
            &default_edges(),
            Bound {
                max_edges: 9,
                max_threads: 2,
            },
        )
        .unwrap_err();
        assert!(long.to_string().contains("2 to 8 edges"), "{long}");
        assert!(cycles(
            &[],
            Bound {
                max_edges: 4,
                max_threads: 2
            }
        )
        .is_err());
    }
}
