//! The vocabulary of a layout's plan: one role as the harness places it,
//! how GPU threads play the roles ([`Mode`]), and the hardware barrier the
//! harness keeps. Both the layout (`layout.rs`) and the barrier planning
//! of role-per-warp mode (`barriers.rs`) speak it, so it sits below both.

use std::collections::BTreeMap;

/// One thread of the test as the harness places it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Role {
    /// Which of the test's declared CTAs this role runs in (an index into
    /// them, in order): roles with equal indices share a CTA, roles with
    /// different ones never do.
    pub cta_offset: u32,
    /// Which of the test's declared clusters (each CTA of a test that
    /// declares none is a cluster of its own): the offset of the role's
    /// cluster from the instance's home cluster.
    pub cluster_offset: u32,
    /// The role's CTA's rank within its cluster (0 without clusters).
    pub rank: u32,
    /// The declared warp within the CTA, when the test declares warps.
    pub warp: Option<u32>,
    /// Whether the role runs on a host (CPU) thread: no GPU thread plays
    /// it, and its CTA, cluster and warp mean nothing (all 0).
    pub host: bool,
    /// The logical GPU the role runs on (the test's `gpu` coordinate; 0
    /// for a host role): only that GPU's launch plays it.
    pub gpu: u32,
}

/// How GPU threads play a test's roles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every thread plays every role, each for another instance: the
    /// fastest way to run many instances.
    EveryRole,
    /// For tests with CTA barriers: every warp plays one role for 32
    /// instances, and each CTA holds the roles of one declared CTA for one
    /// group of 32 instances, so that a hardware barrier synchronises
    /// exactly the roles of those instances. CTA `g·ctas + d` holds group
    /// `g`'s roles declared in CTA offset `d`; warp `w` of it plays role
    /// `roles_of[d][w]`.
    RolePerWarp {
        /// Distinct declared CTAs.
        ctas: u32,
        /// Warps per CTA: the most roles any declared CTA holds.
        warps: u32,
        /// The role each warp of each declared CTA plays.
        roles_of: Vec<Vec<usize>>,
        /// `(role, instruction index)` → (hardware barrier, thread count).
        barriers: BTreeMap<(usize, usize), (u32, u32)>,
    },
}

/// The hardware barrier the harness keeps for itself (set-up and tear-down
/// of shared memory); tests may name 0 to 14.
pub const HARNESS_BARRIER: u32 = 15;
