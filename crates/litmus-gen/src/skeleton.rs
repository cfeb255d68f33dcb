//! A test before its variant is chosen: which thread accesses which
//! location in which direction, the fences and dependencies a cycle asks
//! for, and the outcome the condition names. [`crate::variant`] turns a
//! skeleton and a variant into IR.

use litmus_core::instr::{Scope, Sem};
use litmus_core::ir::Value;

use crate::edge::{Dep, Dir};

/// One memory access of a skeleton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Load or store.
    pub dir: Dir,
    /// The location, an index into the skeleton's locations.
    pub loc: usize,
    /// For a store, the value written; for a load, the value the condition
    /// asks it to read (`None`: the condition says nothing about it).
    pub value: Option<Value>,
    /// A dependency on the thread's previous access, a load.
    pub dep: Option<Dep>,
}

/// One step of a skeleton's thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A memory access.
    Access(Event),
    /// A fence the cycle itself asks for (`Fence.sc.gpudWW`).
    Fence {
        /// Its semantics.
        sem: Sem,
        /// Its scope.
        scope: Scope,
    },
}

/// A test's skeleton: threads of steps, and the outcome asked about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skeleton {
    /// The family's name (`MP`, or a cycle's edges).
    pub name: String,
    /// The diy7 cycle it was built from, edges separated by spaces.
    pub cycle: String,
    /// The steps of each thread, in program order.
    pub threads: Vec<Vec<Step>>,
    /// How many locations the accesses use.
    pub locations: usize,
    /// Final values of locations the condition asks for (the
    /// coherence-last write, for locations written more than once).
    pub finals: Vec<(usize, Value)>,
}

impl Skeleton {
    /// How many accesses thread `t` makes.
    pub fn accesses(&self, t: usize) -> usize {
        self.threads[t]
            .iter()
            .filter(|s| matches!(s, Step::Access(_)))
            .count()
    }

    /// The threads with two accesses or more: those a fence can go in.
    pub fn fenceable(&self) -> Vec<usize> {
        (0..self.threads.len())
            .filter(|&t| self.accesses(t) >= 2)
            .collect()
    }
}

/// The name of location `i`: `x`, `y`, `z`, then `a`, `b`, ... as diy7
/// names them, then `x8`, `x9`, ...
pub fn location_name(i: usize) -> String {
    const NAMES: [&str; 8] = ["x", "y", "z", "a", "b", "c", "d", "e"];
    match NAMES.get(i) {
        Some(n) => n.to_string(),
        None => format!("x{i}"),
    }
}
