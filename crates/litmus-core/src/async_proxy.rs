//! The asynchronous proxy (PTX ISA 8.0, sm_90): bulk copies between global
//! and shared memory (TMA), their completion through an `mbarrier`'s
//! transaction count or a bulk group, and the proxy fences between the
//! generic and the async proxy.
//!
//! The litmus-level abstraction keeps every location one 32-bit word: a
//! bulk copy of `size` bytes copies the word of `src` into the word of
//! `dst` (the size is kept, and checked, because PTX requires a multiple
//! of 16 and because `expect_tx` must announce the bytes that arrive). An
//! mbarrier is a location in shared memory whose word counts the
//! completions of its first phase: each arrive and each `complete_tx` adds
//! one, and the phase is complete when the count reaches the arrivals
//! given to `mbarrier.init` plus the bulk copies that signal it.

use crate::operand::{Imm, Name};
use crate::order::{Scope, Sem};

/// Which state space a `fence.proxy.async` orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AsyncSpace {
    /// `fence.proxy.async`: every state space.
    All,
    /// `fence.proxy.async.global`.
    Global,
    /// `fence.proxy.async.shared::cta`.
    SharedCta,
    /// `fence.proxy.async.shared::cluster`.
    SharedCluster,
}

impl AsyncSpace {
    /// Every variant, for lookups by spelling.
    pub const ALL: [AsyncSpace; 4] = [
        AsyncSpace::All,
        AsyncSpace::Global,
        AsyncSpace::SharedCta,
        AsyncSpace::SharedCluster,
    ];

    /// The qualifier after `fence.proxy.async`, without the dot; empty
    /// for [`AsyncSpace::All`].
    pub fn as_str(self) -> &'static str {
        match self {
            AsyncSpace::All => "",
            AsyncSpace::Global => "global",
            AsyncSpace::SharedCta => "shared::cta",
            AsyncSpace::SharedCluster => "shared::cluster",
        }
    }

    /// The space a qualifier names (`global`, `shared::cta`, `shared::cluster`).
    pub fn from_ptx(word: &str) -> Option<AsyncSpace> {
        AsyncSpace::ALL
            .into_iter()
            .find(|s| *s != AsyncSpace::All && s.as_str() == word)
    }

    /// Whether the fence orders accesses to memory of `space`. Shared
    /// memory is one space here: the model does not tell a CTA's own
    /// window (`shared::cta`) from its cluster's (`shared::cluster`).
    pub fn covers(self, space: crate::space::Space) -> bool {
        match self {
            AsyncSpace::All => true,
            AsyncSpace::Global => space.is_global_like(),
            AsyncSpace::SharedCta | AsyncSpace::SharedCluster => !space.is_global_like(),
        }
    }

    /// The qualifiers in words, for messages.
    pub const EXPECTED: &'static str = ".global, .shared::cta or .shared::cluster";
}

/// One instruction of the async-proxy vocabulary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsyncOp {
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
    /// [dst], [src], size, [mbar]`: global → shared, completing `size`
    /// bytes of `mbar`'s transaction count.
    BulkLoad {
        /// The shared location written.
        dst: Name,
        /// The global location read.
        src: Name,
        /// The bytes copied (a multiple of 16).
        size: Imm,
        /// The mbarrier whose transaction count the copy completes.
        mbar: Name,
    },
    /// `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size`:
    /// shared → global, completed by `cp.async.bulk.wait_group`.
    BulkStore {
        /// The global location written.
        dst: Name,
        /// The shared location read.
        src: Name,
        /// The bytes copied (a multiple of 16).
        size: Imm,
    },
    /// `cp.async.bulk.commit_group`: the bulk stores issued since the last
    /// commit become one bulk group.
    CommitGroup,
    /// `cp.async.bulk.wait_group{.read} N`: waits until at most `pending`
    /// of the most recent bulk groups are pending; with `.read`, only for
    /// their reads of the source.
    WaitGroup {
        /// Whether only the reads of the source are waited for.
        read: bool,
        /// How many of the most recent groups may stay pending.
        pending: Imm,
    },
    /// `mbarrier.init.shared::cta.b64 [mbar], count`.
    MbarrierInit {
        /// The mbarrier.
        mbar: Name,
        /// The arrivals that complete a phase.
        count: Imm,
    },
    /// `mbarrier.arrive{.expect_tx}.<sem>.<scope>.shared::cluster.b64 _,
    /// [mbar]{, tx}`: one arrival, and with `expect_tx` the bytes the
    /// phase waits for besides.
    MbarrierArrive {
        /// The mbarrier, possibly a cluster peer's.
        mbar: Name,
        /// `.release` (the default) or `.relaxed`.
        sem: Sem,
        /// `.cta` (the default) or `.cluster`.
        scope: Scope,
        /// `.expect_tx`'s byte count.
        expect_tx: Option<Imm>,
    },
    /// `mbarrier.try_wait{.parity}.<sem>.<scope>.shared::cta.b64 dst,
    /// [mbar]{, parity}`: `dst` is 1 when the phase was complete, else 0.
    MbarrierTryWait {
        /// The register written.
        dst: Name,
        /// The mbarrier.
        mbar: Name,
        /// `.acquire` (the default) or `.relaxed`.
        sem: Sem,
        /// `.cta` (the default) or `.cluster`.
        scope: Scope,
        /// `.parity`'s phase parity; the model follows phase 0 only.
        parity: Option<Imm>,
    },
    /// `fence.proxy.async{.space}`: orders the thread's generic accesses
    /// with its async ones (and the bulk copies it issues afterwards).
    ProxyFence(AsyncSpace),
    /// `fence.mbarrier_init.release.cluster`: makes the thread's prior
    /// `mbarrier.init`s visible to the cluster.
    MbarrierInitFence,
    /// The one-way proxy fences of PTX 8.6 (`fence.proxy.async::generic`
    /// with `.release` or `.acquire`, `.sync_restrict` to shared memory,
    /// `.cluster`): one direction each of `fence.proxy.async.shared::*`.
    ProxyFenceOneWay(OneWay),
}

/// The direction of a one-way proxy fence ([`AsyncOp::ProxyFenceOneWay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OneWay {
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster`:
    /// the thread's earlier generic accesses of its CTA's shared memory
    /// before its later async ones (a tile written, then stored by TMA).
    Release,
    /// `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster`:
    /// the thread's earlier async accesses of shared memory before its
    /// later generic ones.
    Acquire,
}

impl OneWay {
    /// Both, in the order the dialects list them.
    pub const ALL: [OneWay; 2] = [OneWay::Release, OneWay::Acquire];

    /// The instruction as PTX writes it (no `;`).
    pub fn ptx(self) -> &'static str {
        match self {
            OneWay::Release => {
                "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster"
            }
            OneWay::Acquire => {
                "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster"
            }
        }
    }

    /// The shared window its `.sync_restrict` names.
    pub fn space(self) -> AsyncSpace {
        match self {
            OneWay::Release => AsyncSpace::SharedCta,
            OneWay::Acquire => AsyncSpace::SharedCluster,
        }
    }

    /// The word the macro writes after `ProxyFenceAsync`: `release` or
    /// `acquire`.
    pub fn as_str(self) -> &'static str {
        match self {
            OneWay::Release => "release",
            OneWay::Acquire => "acquire",
        }
    }
}

impl AsyncOp {
    /// The locations the instruction names, in operand order.
    pub fn locs(&self) -> Vec<&Name> {
        match self {
            AsyncOp::BulkLoad { dst, src, mbar, .. } => vec![dst, src, mbar],
            AsyncOp::BulkStore { dst, src, .. } => vec![dst, src],
            AsyncOp::MbarrierInit { mbar, .. }
            | AsyncOp::MbarrierArrive { mbar, .. }
            | AsyncOp::MbarrierTryWait { mbar, .. } => vec![mbar],
            AsyncOp::CommitGroup
            | AsyncOp::WaitGroup { .. }
            | AsyncOp::ProxyFence(_)
            | AsyncOp::ProxyFenceOneWay(_)
            | AsyncOp::MbarrierInitFence => vec![],
        }
    }

    /// The locations the instruction names, to rename them in place.
    pub fn locs_mut(&mut self) -> Vec<&mut Name> {
        match self {
            AsyncOp::BulkLoad { dst, src, mbar, .. } => vec![dst, src, mbar],
            AsyncOp::BulkStore { dst, src, .. } => vec![dst, src],
            AsyncOp::MbarrierInit { mbar, .. }
            | AsyncOp::MbarrierArrive { mbar, .. }
            | AsyncOp::MbarrierTryWait { mbar, .. } => vec![mbar],
            AsyncOp::CommitGroup
            | AsyncOp::WaitGroup { .. }
            | AsyncOp::ProxyFence(_)
            | AsyncOp::ProxyFenceOneWay(_)
            | AsyncOp::MbarrierInitFence => vec![],
        }
    }

    /// The mbarrier the instruction uses, if any.
    pub fn mbar(&self) -> Option<&Name> {
        match self {
            AsyncOp::BulkLoad { mbar, .. }
            | AsyncOp::MbarrierInit { mbar, .. }
            | AsyncOp::MbarrierArrive { mbar, .. }
            | AsyncOp::MbarrierTryWait { mbar, .. } => Some(mbar),
            _ => None,
        }
    }

    /// The instruction's PTX head (opcode and qualifiers), as the
    /// `.litmus` dialect writes it and messages quote it.
    pub fn head(&self) -> String {
        match self {
            AsyncOp::BulkLoad { .. } => {
                "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes".into()
            }
            AsyncOp::BulkStore { .. } => "cp.async.bulk.global.shared::cta.bulk_group".into(),
            AsyncOp::CommitGroup => "cp.async.bulk.commit_group".into(),
            AsyncOp::WaitGroup { read, .. } => {
                format!(
                    "cp.async.bulk.wait_group{}",
                    if *read { ".read" } else { "" }
                )
            }
            AsyncOp::MbarrierInit { .. } => "mbarrier.init.shared::cta.b64".into(),
            AsyncOp::MbarrierArrive {
                sem,
                scope,
                expect_tx,
                ..
            } => format!(
                "mbarrier.arrive{}.{}.{}.shared::cluster.b64",
                if expect_tx.is_some() {
                    ".expect_tx"
                } else {
                    ""
                },
                sem.as_str(),
                scope.as_str()
            ),
            AsyncOp::MbarrierTryWait {
                sem, scope, parity, ..
            } => format!(
                "mbarrier.try_wait{}.{}.{}.shared::cta.b64",
                if parity.is_some() { ".parity" } else { "" },
                sem.as_str(),
                scope.as_str()
            ),
            AsyncOp::ProxyFence(AsyncSpace::All) => "fence.proxy.async".into(),
            AsyncOp::ProxyFence(s) => format!("fence.proxy.async.{}", s.as_str()),
            AsyncOp::MbarrierInitFence => "fence.mbarrier_init.release.cluster".into(),
            AsyncOp::ProxyFenceOneWay(w) => w.ptx().into(),
        }
    }
}
