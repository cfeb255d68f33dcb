//! The async proxy's rules: where bulk copies read and write, what an
//! mbarrier is, and that every wait can be satisfied.

use std::collections::HashMap;

use super::{Validator, K};
use crate::async_proxy::AsyncOp;
use crate::instr::{InstrKind, Scope, Sem};
use crate::ir::{Imm, Name, Origin, Space};

/// What the test does with one mbarrier, gathered over every thread.
#[derive(Default)]
struct Uses<'a> {
    inits: usize,
    /// Arrivals and bulk copies that signal it.
    signals: usize,
    expect_tx: i64,
    copied: i64,
    waits: Vec<&'a Name>,
    first: Option<&'a Name>,
}

impl Validator<'_> {
    /// One async-proxy instruction on its own.
    pub(super) fn async_op(&mut self, op: &AsyncOp, origin: Origin, clusters: bool) {
        for loc in op.locs() {
            self.known_location(loc);
        }
        if let Some(m) = op.mbar() {
            if self.space(m).is_some_and(Space::is_global_like) {
                self.push(K::MbarrierNotShared(m.text.clone()), m.origin);
            }
        }
        match op {
            AsyncOp::BulkLoad { dst, src, size, .. } => {
                self.bulk_size(size);
                self.bulk_space(op, "destination", dst, false);
                self.bulk_space(op, "source", src, true);
            }
            AsyncOp::BulkStore { dst, src, size } => {
                self.bulk_size(size);
                self.bulk_space(op, "destination", dst, true);
                self.bulk_space(op, "source", src, false);
            }
            AsyncOp::WaitGroup { pending, .. } => self.at_least(op, pending, 0),
            AsyncOp::MbarrierInit { count, .. } => self.at_least(op, count, 1),
            AsyncOp::MbarrierArrive {
                sem,
                scope,
                expect_tx,
                ..
            } => {
                self.mbarrier_order(
                    "mbarrier.arrive",
                    *sem,
                    *scope,
                    origin,
                    clusters,
                    ARRIVE_SEMS,
                );
                if let Some(tx) = expect_tx {
                    self.at_least(op, tx, 0);
                }
            }
            AsyncOp::MbarrierTryWait {
                sem, scope, parity, ..
            } => {
                self.mbarrier_order(
                    "mbarrier.try_wait",
                    *sem,
                    *scope,
                    origin,
                    clusters,
                    WAIT_SEMS,
                );
                if let Some(p) = parity.filter(|p| p.value != 0) {
                    self.push(K::ParityPhase(p.value), p.origin);
                }
            }
            AsyncOp::CommitGroup
            | AsyncOp::ProxyFence(_)
            | AsyncOp::ProxyFenceOneWay(_)
            | AsyncOp::MbarrierInitFence => {}
        }
    }

    fn space(&self, loc: &Name) -> Option<Space> {
        self.locations.get(loc.text.as_str()).map(|l| l.space)
    }

    fn bulk_size(&mut self, size: &Imm) {
        if size.value <= 0 || size.value % 16 != 0 {
            self.push(K::BulkSize(size.value), size.origin);
        }
    }

    fn bulk_space(&mut self, op: &AsyncOp, role: &'static str, loc: &Name, global: bool) {
        let Some(space) = self.space(loc) else { return };
        if space.is_global_like() != global {
            self.push(
                K::BulkSpace {
                    instr: op.head(),
                    role,
                    loc: loc.text.clone(),
                    expected: if global {
                        "global memory"
                    } else {
                        "shared memory"
                    },
                },
                loc.origin,
            );
        }
    }

    fn at_least(&mut self, op: &AsyncOp, n: &Imm, min: i64) {
        if n.value < min {
            self.push(
                K::CountOutOfRange {
                    instr: op.head(),
                    min,
                    found: n.value,
                },
                n.origin,
            );
        }
    }

    fn mbarrier_order(
        &mut self,
        instr: &'static str,
        sem: Sem,
        scope: Scope,
        origin: Origin,
        clusters: bool,
        (sems, expected): (&[Sem], &'static str),
    ) {
        if !sems.contains(&sem) {
            self.push(
                K::BadSemantics {
                    instr,
                    sem: sem.as_str(),
                    expected,
                },
                origin,
            );
        }
        if !matches!(scope, Scope::Cta | Scope::Cluster) {
            self.push(
                K::BadScope {
                    instr,
                    scope: scope.as_str(),
                },
                origin,
            );
        }
        self.cluster_scope(Some(scope), origin, clusters);
    }

    /// Over the whole test: each mbarrier initialised once, never used
    /// as data, waited on only when something arrives, and its
    /// `.expect_tx` bytes equal to the bytes of the copies that signal it
    /// (otherwise its phase completes before the data lands, or never).
    pub(super) fn mbarriers(&mut self) {
        let mut uses: HashMap<&str, Uses> = HashMap::new();
        let mut order: Vec<&str> = Vec::new();
        let test = self.test;
        for instr in test.threads.iter().flat_map(|t| &t.body) {
            let InstrKind::Async(op) = &instr.kind else {
                continue;
            };
            let Some(m) = op.mbar() else { continue };
            let u = uses.entry(m.text.as_str()).or_insert_with(|| {
                order.push(m.text.as_str());
                Uses::default()
            });
            u.first.get_or_insert(m);
            match op {
                AsyncOp::MbarrierInit { .. } => u.inits += 1,
                AsyncOp::MbarrierArrive { expect_tx, .. } => {
                    u.signals += 1;
                    u.expect_tx += expect_tx.map_or(0, |t| t.value);
                }
                AsyncOp::BulkLoad { size, .. } => {
                    u.signals += 1;
                    u.copied += size.value;
                }
                AsyncOp::MbarrierTryWait { mbar, .. } => u.waits.push(mbar),
                _ => {}
            }
        }
        for instr in test.threads.iter().flat_map(|t| &t.body) {
            let data: Vec<&Name> = match &instr.kind {
                InstrKind::Async(AsyncOp::BulkLoad { dst, src, .. })
                | InstrKind::Async(AsyncOp::BulkStore { dst, src, .. }) => vec![dst, src],
                InstrKind::Async(_) => vec![],
                other => other.loc().into_iter().collect(),
            };
            for loc in data {
                if uses.contains_key(loc.text.as_str()) {
                    self.push(K::MbarrierAsData(loc.text.clone()), loc.origin);
                }
            }
        }
        for m in order {
            let u = &uses[m];
            let first = u.first.expect("recorded with its first use");
            if u.inits != 1 {
                self.push(
                    K::MbarrierInitCount {
                        mbar: m.to_string(),
                        found: u.inits,
                    },
                    first.origin,
                );
            }
            if u.signals == 0 {
                for w in &u.waits {
                    self.push(K::WaitWithoutArrive(m.to_string()), w.origin);
                }
            }
            if u.expect_tx != u.copied {
                self.push(
                    K::TxMismatch {
                        mbar: m.to_string(),
                        expected: u.expect_tx,
                        copied: u.copied,
                    },
                    first.origin,
                );
            }
        }
    }
}

const ARRIVE_SEMS: (&[Sem], &str) = (
    &[Sem::Release, Sem::Relaxed],
    "mbarrier arrivals take .release or .relaxed",
);
const WAIT_SEMS: (&[Sem], &str) = (
    &[Sem::Acquire, Sem::Relaxed],
    "mbarrier waits take .acquire or .relaxed",
);
