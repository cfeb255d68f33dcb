//! Scopes: which threads share an instance of a scope (CTA, cluster, GPU,
//! system; a host thread shares only the system), and the engine's `sr`: pairs of events whose scopes each
//! include the other's thread, on which the morally strong pairs
//! ([`Structure::ms`]) are built. The cat base relations `sr`, `scta` and
//! `sgpu` (`crate::cat`'s `base.rs`, which tags weak accesses `SYS` as
//! Dat3M does) build on [`Structure::same_instance`].

use litmus_core::instr::Scope;

use super::{EventId, Structure};

impl Structure {
    /// Whether threads `a` and `b` share an instance of `scope`.
    pub fn same_instance(&self, scope: Scope, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.placements[a], &self.placements[b]);
        match scope {
            Scope::Sys => true,
            // A host thread is on a device of its own: it shares no CTA,
            // cluster or GPU with any other thread, not even another host
            // thread (C++ atomics between host threads are system-wide, and
            // `.sys` covers them); it is alone in each instance.
            _ if pa.host || pb.host => a == b,
            Scope::Gpu => pa.gpu == pb.gpu,
            Scope::Cluster if self.clusters => pa.gpu == pb.gpu && pa.cluster == pb.cluster,
            Scope::Cluster | Scope::Cta => pa.gpu == pb.gpu && pa.cta == pb.cta,
        }
    }

    /// `sr`: the scope of each event includes the other's thread.
    pub fn scope_includes_both(&self, a: EventId, b: EventId) -> bool {
        let (ea, eb) = (&self.events[a], &self.events[b]);
        match (ea.thread, eb.thread, ea.scope, eb.scope) {
            (Some(ta), Some(tb), Some(sa), Some(sb)) => {
                self.same_instance(sa, ta, tb) && self.same_instance(sb, ta, tb)
            }
            _ => false,
        }
    }

    /// Whether events `a` and `b` share an instance of `scope`; initial
    /// writes belong to every instance.
    pub fn events_in_same(&self, scope: Scope, a: EventId, b: EventId) -> bool {
        match (self.events[a].thread, self.events[b].thread) {
            (Some(ta), Some(tb)) => self.same_instance(scope, ta, tb),
            _ => true,
        }
    }
}
