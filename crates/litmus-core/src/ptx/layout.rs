//! The contract between the generated kernels and the host harness: which
//! kernel parameters, knob words, buffers and table entries there are.
//!
//! The macro embeds the PTX text at compile time; the runtime recomputes
//! this layout from the same IR at run time (it is cheap and deterministic),
//! so nothing has to re-parse the PTX.

use std::collections::BTreeSet;

use crate::ir::{Space, Test};
use crate::outcome::{observables, Observable};

use super::PtxError;

/// Name of the kernel that runs the test instances.
pub const TEST_KERNEL: &str = "litmus_test";
/// Name of the kernel that folds outcomes into the histogram.
pub const CLASSIFY_KERNEL: &str = "litmus_classify";

/// Indices into the knob array (`u32` words) both kernels read.
pub mod knob {
    /// CTAs per launch minus one (a power of two).
    pub const CTA_MASK: usize = 0;
    /// log2 of threads per CTA.
    pub const LOG_T: usize = 1;
    /// Threads per CTA minus one.
    pub const LANE_MASK: usize = 2;
    /// Instances per launch (CTAs × threads per CTA).
    pub const N: usize = 3;
    /// Instances per launch minus one.
    pub const N_MASK: usize = 4;
    /// Words between two consecutive slots of a global location.
    pub const STRIDE: usize = 5;
    /// Polls of the bounded spin barrier before a role starts; 0: off.
    pub const SPIN: usize = 6;
    /// Backward branches a role may take before it gives up.
    pub const LOOP_BOUND: usize = 7;
    /// Warps per CTA minus one.
    pub const WARP_MASK: usize = 8;
    /// Histogram table entries minus one (a power of two).
    pub const TABLE_MASK: usize = 9;
    /// Memory-stress iterations per stressing thread; 0: off.
    pub const STRESS: usize = 10;
    /// First of two words per role: the lane multiplier (odd) and addend.
    pub const ROLE_BASE: usize = 16;
}

/// Words of the counters buffer, each a `u64`.
pub mod counter {
    /// Instances in which some role gave up on a loop.
    pub const UNFINISHED: usize = 0;
    /// Instances whose outcome found no free histogram entry.
    pub const OVERFLOW: usize = 1;
    /// Number of `u64` counters.
    pub const COUNT: usize = 2;
}

/// Words recorded per role of each instance in placement-check mode:
/// `%ctaid.x`, `%tid.x`, `%warpid`, `%smid`.
pub const PLACEMENT_WORDS: usize = 4;

/// One thread of the test as the harness places it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Role {
    /// Offset of this role's CTA from the instance's home CTA: roles with
    /// equal offsets share a CTA, roles with different ones never do.
    pub cta_offset: u32,
    /// The declared warp within the CTA, when the test declares warps.
    pub warp: Option<u32>,
}

/// A shared location and the CTA offset of the roles that use it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedLoc {
    /// Index into `Test::locations`.
    pub loc: usize,
    pub cta_offset: u32,
}

/// How a test is laid out on the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub roles: Vec<Role>,
    /// Indices into `Test::locations` of the global locations, in slot order.
    pub global_locs: Vec<usize>,
    pub shared_locs: Vec<SharedLoc>,
    /// The outcome's components, in order (see [`crate::outcome`]).
    pub observables: Vec<Observable>,
    /// The registers each instance stores for the classifier:
    /// `(thread, register)`, in the order of the registers buffer.
    pub stored_regs: Vec<(usize, String)>,
    /// Distinct CTAs an instance spans.
    pub ctas: u32,
    /// Distinct warps a CTA must hold when warps are declared.
    pub warps: u32,
}

impl Layout {
    /// Lays out a validated test.
    pub fn of(test: &Test) -> Result<Layout, PtxError> {
        if let Some(t) = test.threads.iter().find(|t| t.placement.gpu != 0) {
            return Err(PtxError::Unsupported(format!(
                "thread `{}` is placed on GPU {}: the harness runs one GPU",
                t.name, t.placement.gpu
            )));
        }
        if let Some(t) = test.threads.iter().find(|t| t.placement.cluster.is_some()) {
            return Err(PtxError::Unsupported(format!(
                "thread `{}` is placed in a cluster: cluster launches are not generated yet",
                t.name
            )));
        }
        if let Some(l) = test
            .locations
            .iter()
            .find(|l| l.space == Space::SharedCluster)
        {
            return Err(PtxError::Unsupported(format!(
                "location `{}` is in cluster-shared memory: cluster launches are not generated yet",
                l.name
            )));
        }
        let ctas: Vec<u32> = test
            .threads
            .iter()
            .map(|t| t.placement.cta)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let warps: BTreeSet<u32> = test
            .threads
            .iter()
            .filter_map(|t| t.placement.warp)
            .collect();
        let declares_warps = !warps.is_empty();
        let roles: Vec<Role> = test
            .threads
            .iter()
            .map(|t| Role {
                cta_offset: ctas.iter().position(|c| *c == t.placement.cta).unwrap_or(0) as u32,
                warp: if declares_warps {
                    Some(t.placement.warp.unwrap_or(0))
                } else {
                    None
                },
            })
            .collect();
        let mut global_locs = Vec::new();
        let mut shared_locs = Vec::new();
        for (i, loc) in test.locations.iter().enumerate() {
            if loc.space == Space::Global {
                global_locs.push(i);
                continue;
            }
            let user = test.threads.iter().position(|t| {
                t.body
                    .iter()
                    .any(|ins| ins.kind.loc().is_some_and(|l| l.text == loc.name.text))
            });
            shared_locs.push(SharedLoc {
                loc: i,
                cta_offset: user.map_or(0, |u| roles[u].cta_offset),
            });
        }
        let observables = observables(test);
        let stored_regs = observables
            .iter()
            .filter_map(|o| match o {
                Observable::Reg { thread, reg } => Some((*thread, reg.clone())),
                Observable::Loc { .. } => None,
            })
            .collect();
        Ok(Layout {
            roles,
            global_locs,
            shared_locs,
            observables,
            stored_regs,
            ctas: ctas.len() as u32,
            warps: warps.iter().max().map_or(1, |w| w + 1),
        })
    }

    /// Words in the knob array.
    pub fn knob_words(&self) -> usize {
        knob::ROLE_BASE + 2 * self.roles.len() + 2 * self.global_locs.len()
    }

    /// Index of the first knob word of global location slot `j`: the
    /// location multiplier (odd) and addend of its instance permutation.
    pub fn loc_knob(&self, j: usize) -> usize {
        knob::ROLE_BASE + 2 * self.roles.len() + 2 * j
    }

    /// Words of one histogram entry: a `u64` key, a `u64` count, then one
    /// word per observable, padded to keep entries 8-byte aligned.
    pub fn entry_words(&self) -> usize {
        (4 + self.observables.len()).next_multiple_of(2)
    }
}
