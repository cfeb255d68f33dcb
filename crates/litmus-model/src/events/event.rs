//! One event of a candidate execution: what it does, where, with which
//! semantics and scope, and, for barriers, which threads it can meet.

use litmus_core::instr::{BarrierKind, Scope, Sem};

use super::SymId;
use crate::proxy::ProxyTag;

/// Index of an event in a [`Structure`](super::Structure).
pub type EventId = usize;

/// What an event does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// A load, or the read half of an RMW.
    Read,
    /// A store, the write half of an RMW, or an initial write.
    Write,
    /// A fence (`membar` included).
    Fence,
    /// A barrier arrival (`bar.cta.*` or `bar.warp.sync`).
    Barrier,
}

/// Which threads a barrier event can synchronise with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BarrierScope {
    /// A CTA barrier with a static instance number (`bar.cta.sync I`).
    Cta {
        /// The static barrier number `I`.
        instance: u32,
    },
    /// `bar.warp.sync`: the threads of one warp.
    Warp,
}

/// The barrier part of a barrier event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BarrierSpec {
    /// Whether the thread waits (`sync`) or only arrives.
    pub kind: BarrierKind,
    /// Which threads it can synchronise with.
    pub scope: BarrierScope,
    /// The resource id (`bar.cta.sync I, ID`), a value computed at run time.
    pub id: Option<SymId>,
    /// The number of arrivals that complete the barrier.
    pub quorum: Option<SymId>,
}

/// One event of a candidate execution.
#[derive(Clone, Debug)]
pub struct Event {
    /// `None` for an initial write.
    pub thread: Option<usize>,
    /// The instruction of the thread's body that produced it.
    pub instr: Option<usize>,
    /// What the event does.
    pub kind: EventKind,
    /// Index into `Test::locations`; `None` for fences and barriers.
    pub loc: Option<usize>,
    /// Semantics, with `.volatile` read as `relaxed` (and scope `sys`).
    pub sem: Sem,
    /// `None` for weak accesses and initial writes; barriers are `cta`.
    pub scope: Option<Scope>,
    /// Writes: the value written. Reads: the value read (`Sym::Read(self)`).
    pub value: Option<SymId>,
    /// `Some` for barrier events only.
    pub barrier: Option<BarrierSpec>,
    /// The other half of an RMW.
    pub rmw_partner: Option<EventId>,
    /// PTX 7.5: the proxy and virtual address (see [`crate::proxy`]).
    pub proxy: ProxyTag,
}

impl Event {
    /// Whether this is the initial write of a location.
    pub fn is_init(&self) -> bool {
        self.thread.is_none()
    }

    /// Whether this is a read or a write (not a fence or barrier).
    pub fn is_memory(&self) -> bool {
        matches!(self.kind, EventKind::Read | EventKind::Write)
    }

    /// Strong: a fence, or a memory access that is not weak.
    pub fn is_strong(&self) -> bool {
        match self.kind {
            EventKind::Fence => true,
            EventKind::Read | EventKind::Write => !self.is_init() && self.sem != Sem::Weak,
            EventKind::Barrier => false,
        }
    }
}
