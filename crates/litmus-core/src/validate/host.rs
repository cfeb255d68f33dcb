//! Host threads (`P2@host`, `thread h @ host`): a thread on the CPU whose
//! accesses are the host's C++ atomics, read as the PTX model's `.sys`
//! operations (the README's "Host threads" gives the mapping). Only what
//! has a C++ counterpart is allowed on one: weak (non-atomic), relaxed,
//! acquire and release accesses, RMWs and `sc`/`acq_rel` fences, all at
//! `.sys` or with no scope written; registers, arithmetic and branches.
//! Everything that needs a GPU (CTA and warp barriers, shared memory,
//! proxies, cache operators, narrower scopes, GPU coordinates) is refused,
//! one error per mistake.

use crate::instr::{InstrKind, Scope, Sem};
use crate::ir::{Origin, Space, Thread};

use super::{Validator, K};

impl Validator<'_> {
    /// Checks what a host thread may not do; the common checks run too.
    pub(super) fn host_thread(&mut self, thread: &Thread) {
        let p = thread.placement;
        let gpu_coordinates = [
            ("CTA", p.cta != 0),
            ("GPU", p.gpu != 0),
            ("cluster", p.cluster.is_some()),
            ("warp", p.warp.is_some()),
        ];
        for (what, given) in gpu_coordinates {
            if given {
                self.push(
                    K::HostPlacement {
                        thread: thread.name.text.clone(),
                        what,
                    },
                    thread.name.origin,
                );
            }
        }
        for instr in &thread.body {
            self.host_instr(thread, &instr.kind, instr.origin);
        }
    }

    fn host_instr(&mut self, thread: &Thread, kind: &InstrKind, origin: Origin) {
        let name = || thread.name.text.clone();
        if let Some(loc) = kind.loc() {
            let space = self.locations.get(loc.text.as_str()).map(|l| l.space);
            if matches!(space, Some(Space::Shared | Space::SharedCluster)) {
                self.push(
                    K::HostSharedMemory {
                        thread: name(),
                        loc: loc.text.clone(),
                    },
                    loc.origin,
                );
            }
        }
        let gpu_only = match kind {
            InstrKind::Load { access, cache, .. } | InstrKind::Store { access, cache, .. } => {
                let word = if matches!(kind, InstrKind::Load { .. }) {
                    "ld"
                } else {
                    "st"
                };
                // `.volatile` is `relaxed.sys` in PTX, but C++ `volatile`
                // is no atomic: the test should say `relaxed`.
                if access.sem == Sem::Volatile {
                    self.push(
                        K::HostSemantics {
                            thread: name(),
                            instr: word,
                            sem: access.sem.as_str(),
                        },
                        origin,
                    );
                }
                // A scope on a weak access is already an error of its own.
                if !matches!(access.sem, Sem::Weak | Sem::Volatile) {
                    self.host_scope(thread, access.scope, origin);
                }
                cache.map(|_| "a cache operator")
            }
            InstrKind::Atom { access, .. } => {
                self.host_scope(thread, access.scope, origin);
                None
            }
            InstrKind::Fence { sem, scope, .. } => {
                if !matches!(sem, Sem::Sc | Sem::AcqRel) {
                    self.push(
                        K::HostSemantics {
                            thread: name(),
                            instr: "fence",
                            sem: sem.as_str(),
                        },
                        origin,
                    );
                }
                self.host_scope(thread, Some(*scope), origin);
                None
            }
            InstrKind::Barrier { .. } => Some("a CTA barrier"),
            InstrKind::WarpSync => Some("`bar.warp.sync`"),
            InstrKind::ProxyLoad { .. } | InstrKind::ProxyStore { .. } => {
                Some("a surface, texture or constant access")
            }
            InstrKind::ProxyFence(_) => Some("a proxy fence"),
            InstrKind::Async(_) => Some("the async proxy (bulk copies, mbarriers)"),
            InstrKind::Mov { .. }
            | InstrKind::BinOp { .. }
            | InstrKind::Branch { .. }
            | InstrKind::Label(_) => None,
        };
        if let Some(what) = gpu_only {
            self.push(
                K::HostGpuOnly {
                    thread: name(),
                    what,
                },
                origin,
            );
        }
    }

    /// A host thread's scope is `.sys`, written or not.
    fn host_scope(&mut self, thread: &Thread, scope: Option<Scope>, origin: Origin) {
        if let Some(scope) = scope.filter(|s| *s != Scope::Sys) {
            self.push(
                K::HostScope {
                    thread: thread.name.text.clone(),
                    scope: scope.as_str(),
                },
                origin,
            );
        }
    }
}
