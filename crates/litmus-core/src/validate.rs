//! Validation: everything a front end can get wrong about a test, found in
//! one pass and reported all at once, each mistake with its [`Origin`].
//!
//! Both front ends call [`validate`]: the macro turns each error into a
//! compile error at the token it came from, the text reader into
//! `file:line:column`.

use std::collections::{HashMap, HashSet};

use crate::instr::{Access, AtomOp, CacheOp, FenceSpelling, InstrKind, Scope, Sem};
use crate::ir::{Imm, Location, Name, Operand, Origin, Space, Term, Test, Thread};

use ValidationErrorKind as K;

mod async_ops;
mod error;
mod home;
mod host;
mod proxy;

pub use error::{ValidationError, ValidationErrorKind};

/// Checks a test. Returns every mistake found, in source order per kind.
///
/// ```
/// use litmus_core::ir::Test;
/// let errs = litmus_core::validate(&Test::new("t")).unwrap_err();
/// assert_eq!(errs[0].to_string(), "the test has no threads");
/// ```
pub fn validate(test: &Test) -> Result<(), Vec<ValidationError>> {
    // First declaration wins, as in `Test::location`; a map keeps tests
    // with many locations linear.
    let mut locations = HashMap::new();
    for loc in test.locations.iter().rev() {
        locations.insert(loc.name.text.as_str(), loc);
    }
    let mut v = Validator {
        test,
        locations,
        errors: Vec::new(),
        on_host: false,
    };
    v.run();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

struct Validator<'a> {
    test: &'a Test,
    locations: HashMap<&'a str, &'a Location>,
    errors: Vec<ValidationError>,
    /// Whether the thread being checked runs on the host, where a strong
    /// access with no scope written is `.sys`.
    on_host: bool,
}

impl Validator<'_> {
    fn push(&mut self, kind: ValidationErrorKind, origin: Origin) {
        self.errors.push(ValidationError { kind, origin });
    }

    fn value(&mut self, imm: &Imm) {
        if !crate::ir::VALUE_RANGE.contains(&imm.value) {
            self.push(K::ValueOutOfRange(imm.value), imm.origin);
        }
    }

    fn operand(&mut self, op: &Operand) {
        if let Operand::Imm(imm) = op {
            self.value(imm);
        }
    }

    fn run(&mut self) {
        let test = self.test;
        if test.threads.is_empty() {
            self.push(K::NoThreads, test.name.origin);
        }
        self.unique(test.threads.iter().map(|t| &t.name), K::DuplicateThread);
        self.unique(test.locations.iter().map(|l| &l.name), K::DuplicateLocation);
        for loc in &test.locations {
            self.value(&loc.init);
        }
        self.aliases();
        self.homes();
        let clusters = test.threads.iter().any(|t| t.placement.cluster.is_some());
        for thread in &test.threads {
            self.thread(thread, clusters);
        }
        self.shared_placement();
        self.mbarriers();
        self.condition();
    }

    fn unique<'n>(&mut self, names: impl Iterator<Item = &'n Name>, kind: fn(String) -> K) {
        let mut seen = HashSet::new();
        for name in names {
            if !seen.insert(name.text.as_str()) {
                self.push(kind(name.text.clone()), name.origin);
            }
        }
    }

    fn known_location(&mut self, loc: &Name) {
        if !self.locations.contains_key(loc.text.as_str()) {
            self.push(K::UnknownLocation(loc.text.clone()), loc.origin);
        }
    }

    fn thread(&mut self, thread: &Thread, clusters: bool) {
        self.on_host = thread.placement.host;
        if self.on_host {
            self.host_thread(thread);
        }
        if let Some(warp) = thread.placement.warp.filter(|w| *w >= 32) {
            self.push(
                K::WarpOutOfRange {
                    thread: thread.name.text.clone(),
                    warp,
                },
                thread.name.origin,
            );
        }
        let mut written: HashSet<&str> = HashSet::new();
        for init in &thread.init {
            self.value(&init.value);
            if !written.insert(init.reg.text.as_str()) {
                self.push(
                    K::DuplicateRegInit {
                        thread: thread.name.text.clone(),
                        reg: init.reg.text.clone(),
                    },
                    init.reg.origin,
                );
            }
        }
        let mut labels = HashSet::new();
        for instr in &thread.body {
            if let InstrKind::Label(l) = &instr.kind {
                if !labels.insert(l.text.as_str()) {
                    self.push(K::DuplicateLabel(l.text.clone()), l.origin);
                }
            }
        }
        // Registers are checked in program order; a register first written
        // after a backward branch target may be read on a later iteration, so
        // any write anywhere before the read in the text counts.
        for instr in &thread.body {
            for reg in instr.kind.srcs() {
                if !written.contains(reg.text.as_str()) {
                    self.push(
                        K::RegisterReadBeforeWrite {
                            thread: thread.name.text.clone(),
                            reg: reg.text.clone(),
                        },
                        reg.origin,
                    );
                }
            }
            if let Some(dst) = instr.kind.dst() {
                written.insert(dst.text.as_str());
            }
            if let Some(loc) = instr.kind.loc() {
                self.known_location(loc);
            }
            self.proxy_access(&instr.kind, instr.origin);
            self.instr(&instr.kind, instr.origin, clusters, &labels);
        }
    }

    fn instr(&mut self, kind: &InstrKind, origin: Origin, clusters: bool, labels: &HashSet<&str>) {
        match kind {
            InstrKind::Load { access, cache, .. } => {
                self.access("ld", *access, origin, clusters, LOAD_SEMS);
                if let Some(op) = cache {
                    self.cache(*op, *access, origin, true);
                }
            }
            InstrKind::Store {
                access,
                cache,
                value,
                ..
            } => {
                self.operand(value);
                self.access("st", *access, origin, clusters, STORE_SEMS);
                if let Some(op) = cache {
                    self.cache(*op, *access, origin, false);
                }
            }
            InstrKind::Fence {
                sem,
                scope,
                spelling,
            } => self.fence(*sem, *scope, *spelling, origin, clusters),
            InstrKind::Atom {
                dst,
                op,
                access,
                operand,
                new,
                ..
            } => {
                // ATOM_SEMS admits `red.acquire`/`red.acq_rel`, which the ISA
                // lacks: Dat3M's corpus writes them, and the model reads
                // them as Dat3M does.
                let name = if dst.is_some() { "atom" } else { "red" };
                self.access(name, *access, origin, clusters, ATOM_SEMS);
                self.operand(operand);
                if let Some(n) = new {
                    self.operand(n);
                }
                self.new_value(*op, new.as_ref(), origin);
            }
            InstrKind::Barrier {
                instance,
                id,
                quorum,
                ..
            } => {
                self.value(instance);
                for op in id.iter().chain(quorum) {
                    self.operand(op);
                }
            }
            InstrKind::Mov { src, .. } => self.operand(src),
            InstrKind::BinOp { a, b, .. } => {
                self.operand(a);
                self.operand(b);
            }
            InstrKind::Branch { cond, target } => {
                if let Some((_, a, b)) = cond {
                    self.operand(a);
                    self.operand(b);
                }
                if !labels.contains(target.text.as_str()) {
                    self.push(K::MissingLabel(target.text.clone()), target.origin);
                }
            }
            InstrKind::ProxyLoad { access, .. } => {
                self.access(kind_word(kind), *access, origin, clusters, PROXY_SEMS)
            }
            InstrKind::ProxyStore { access, value, .. } => {
                self.operand(value);
                self.access(kind_word(kind), *access, origin, clusters, PROXY_SEMS)
            }
            InstrKind::Async(op) => self.async_op(op, origin, clusters),
            InstrKind::Label(_) | InstrKind::WarpSync | InstrKind::ProxyFence(_) => {}
        }
    }

    /// Checks a fence: its semantics for its spelling, and its scope.
    fn fence(
        &mut self,
        sem: Sem,
        scope: Scope,
        spelling: FenceSpelling,
        origin: Origin,
        clusters: bool,
    ) {
        let ok = match spelling {
            FenceSpelling::Membar => sem == Sem::Sc,
            FenceSpelling::Fence => FENCE_SEMS.0.contains(&sem),
        };
        if !ok {
            self.push(
                K::BadSemantics {
                    instr: "fence",
                    sem: sem.as_str(),
                    expected: FENCE_SEMS.1,
                },
                origin,
            );
        }
        if spelling == FenceSpelling::Membar && scope == Scope::Cluster {
            self.push(K::MembarCluster, origin);
        }
        self.cluster_scope(Some(scope), origin, clusters);
    }

    /// Checks that an `atom` has a new value exactly when it is a
    /// compare-and-swap.
    fn new_value(&mut self, op: AtomOp, new: Option<&Operand>, origin: Origin) {
        match (op, new) {
            (AtomOp::Cas, None) => self.push(K::CasNeedsNew, origin),
            (AtomOp::Cas, Some(_)) | (_, None) => {}
            (other, Some(n)) => self.push(K::UnexpectedNewValue(other.as_str()), n.origin()),
        }
    }

    fn access(
        &mut self,
        instr: &'static str,
        access: Access,
        origin: Origin,
        clusters: bool,
        allowed: (&[Sem], &'static str),
    ) {
        if !allowed.0.contains(&access.sem) {
            self.push(
                K::BadSemantics {
                    instr,
                    sem: access.sem.as_str(),
                    expected: allowed.1,
                },
                origin,
            );
            return;
        }
        match (access.sem, access.scope) {
            (Sem::Weak | Sem::Volatile, Some(scope)) => self.push(
                K::UnexpectedScope {
                    instr,
                    sem: access.sem.as_str(),
                    scope: scope.as_str(),
                },
                origin,
            ),
            (Sem::Weak | Sem::Volatile, None) => {}
            (_, None) if self.on_host => {}
            (sem, None) => self.push(
                K::MissingScope {
                    instr,
                    sem: sem.as_str(),
                },
                origin,
            ),
            (_, scope) => self.cluster_scope(scope, origin, clusters),
        }
    }

    fn cluster_scope(&mut self, scope: Option<Scope>, origin: Origin, clusters: bool) {
        if scope == Some(Scope::Cluster) && !clusters {
            self.push(K::ClusterScopeWithoutClusters, origin);
        }
    }

    fn cache(&mut self, op: CacheOp, access: Access, origin: Origin, load: bool) {
        if access.sem != Sem::Weak {
            self.push(K::CacheOpOnStrong(access.sem.as_str()), origin);
        } else if load && !op.allowed_on_load() {
            self.push(
                K::BadCacheOp {
                    op: op.as_str(),
                    instr: "loads",
                    expected: "loads take .ca, .cg, .cs, .lu or .cv",
                },
                origin,
            );
        } else if !load && !op.allowed_on_store() {
            self.push(
                K::BadCacheOp {
                    op: op.as_str(),
                    instr: "stores",
                    expected: "stores take .wb, .cg, .cs or .wt",
                },
                origin,
            );
        }
    }

    /// Shared memory belongs to one CTA (cluster-shared memory to one
    /// cluster): every thread that touches it must be there.
    fn shared_placement(&mut self) {
        let mut first_user: HashMap<&str, &Thread> = HashMap::new();
        for thread in &self.test.threads {
            for loc in thread.body.iter().flat_map(|i| instr_locs(&i.kind)) {
                let Some(&decl) = self.locations.get(loc.text.as_str()) else {
                    continue;
                };
                // Host threads reaching shared memory are reported by
                // `host.rs`, once per access.
                if decl.space.is_global_like() || thread.placement.host {
                    continue;
                }
                let first = *first_user.entry(loc.text.as_str()).or_insert(thread);
                let (a, b) = (first.placement, thread.placement);
                let kind = match decl.space {
                    Space::Shared if (a.gpu, a.cta) != (b.gpu, b.cta) => K::SharedAcrossCtas {
                        loc: loc.text.clone(),
                        first: first.name.text.clone(),
                        second: thread.name.text.clone(),
                    },
                    Space::SharedCluster if (a.gpu, a.cluster) != (b.gpu, b.cluster) => {
                        K::SharedClusterAcrossClusters {
                            loc: loc.text.clone(),
                            first: first.name.text.clone(),
                            second: thread.name.text.clone(),
                        }
                    }
                    _ => continue,
                };
                self.push(kind, loc.origin);
                // One report per location is enough to fix it.
                first_user.insert(loc.text.as_str(), thread);
            }
        }
    }

    fn condition(&mut self) {
        for term in self.test.condition.expr.terms() {
            match term {
                Term::Imm(imm) => self.value(imm),
                Term::Loc(loc) => self.known_location(loc),
                Term::Reg { thread, reg } => {
                    let Some(t) = self.test.thread(&thread.text) else {
                        self.push(K::UnknownThread(thread.text.clone()), thread.origin);
                        continue;
                    };
                    let written = t.init.iter().any(|i| i.reg.text == reg.text)
                        || t.body
                            .iter()
                            .any(|i| i.kind.dst().is_some_and(|d| d.text == reg.text));
                    if !written {
                        self.push(
                            K::UnknownConditionRegister {
                                thread: thread.text.clone(),
                                reg: reg.text.clone(),
                            },
                            reg.origin,
                        );
                    }
                }
            }
        }
    }
}

/// Every location an instruction names: its access's, or an async-proxy
/// instruction's operands.
fn instr_locs(kind: &InstrKind) -> Vec<&Name> {
    match kind {
        InstrKind::Async(op) => op.locs(),
        other => other.loc().into_iter().collect(),
    }
}

/// The word of a proxy load or store, for messages.
fn kind_word(kind: &InstrKind) -> &'static str {
    match kind {
        InstrKind::ProxyLoad { proxy, .. } => proxy.load_word(),
        InstrKind::ProxyStore { proxy, .. } => proxy.store_word().unwrap_or("store"),
        _ => "access",
    }
}

type Allowed = (&'static [Sem], &'static str);

const LOAD_SEMS: Allowed = (
    &[Sem::Weak, Sem::Relaxed, Sem::Acquire, Sem::Volatile],
    "loads take .weak, .relaxed, .acquire or .volatile",
);
const STORE_SEMS: Allowed = (
    &[Sem::Weak, Sem::Relaxed, Sem::Release, Sem::Volatile],
    "stores take .weak, .relaxed, .release or .volatile",
);
const ATOM_SEMS: Allowed = (
    &[Sem::Relaxed, Sem::Acquire, Sem::Release, Sem::AcqRel],
    "atomics take .relaxed, .acquire, .release or .acq_rel",
);
const FENCE_SEMS: Allowed = (
    &[Sem::Sc, Sem::AcqRel, Sem::Acquire, Sem::Release],
    "fences take .sc, .acq_rel, .acquire or .release",
);

/// Surface, texture and constant accesses have no strong forms.
const PROXY_SEMS: Allowed = (
    &[Sem::Weak],
    "surface, texture and constant accesses are .weak only",
);
