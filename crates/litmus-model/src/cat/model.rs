//! A cat file as a [`Model`]: its checks judge each candidate, and what
//! the engine must choose for it is read from the checks themselves:
//!
//! - a check `empty (E \ co)` (with `co` the base coherence or its
//!   closure, and `E` free of coherence) says coherence must contain `E`:
//!   the engine adds `E`'s same-location write pairs to coherence before
//!   orienting the rest ([`Model::implied_co`]), as it does for the
//!   built-in `ptx`'s "cause ⊆ co";
//! - a check `empty (E \ (co | co^-1))` says which writes coherence must
//!   order, so coherence is partial: the engine then orients the morally
//!   strong pairs (its PTX notion, which is what Dat3M's PTX models ask
//!   for; a file whose `E` holds other pairs still gets those pairs
//!   checked on complete candidates, but the engine does not orient them,
//!   so such a model should keep coherence total, without this check).
//!   Without such a check coherence is total per location;
//! - a model that names `sync_fence` gets a Fence-SC order over the
//!   `fence.sc` pairs whose scopes include each other's thread.
//!
//! Pruning: before a candidate is complete, only the checks whose
//! expression grows with rf, coherence, barriers and the Fence-SC order
//! run (no `\` or `~` of something the candidate still chooses); a broken
//! one of those stays broken in every extension, so the engine skips the
//! subtree. Every other check (in `ptx-v6.0.cat`: the two coherence
//! axioms and Fence-SC) runs on complete candidates only; the `cat_bench`
//! example prints the candidates each model examines, which is what the
//! waiting costs.
//!
//! `flag` checks never reject: when one holds of a consistent execution,
//! its name is recorded ([`CatModel::raised_flags`]).

use crate::cat::{read_from_disk, IncludeError, ReadInclude};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::events::Structure;
use crate::model::{CoherenceOrder, Execution, FenceOrder, Model, Stage, Violation};
use crate::relation::{Edge, Relation};

use super::base::{async_mask, co_mask, proxy_mask, sc_fence_pairs, Base, RelBase};
use super::compile::compile;
use super::error::CatError;
use super::eval::Eval;
use super::parser::CheckKind;
use super::program::{intern, Check, Node, NodeId, Program};

/// A memory model read from a cat file.
pub struct CatModel {
    name: &'static str,
    summary: &'static str,
    prog: Program,
    coherence: CoherenceOrder,
    /// Expressions coherence must contain.
    implied: Vec<NodeId>,
    uses_sync_fence: bool,
    /// Whether a check names a proxy base (`GEN`, `vloc`, ...).
    uses_proxies: bool,
    /// Whether a check names an async-proxy base (`ASYNC`, ...).
    uses_async: bool,
    raised: Mutex<BTreeSet<&'static str>>,
}

impl std::fmt::Debug for CatModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CatModel({})", self.name)
    }
}

fn is_co(prog: &Program, id: NodeId) -> bool {
    match prog.nodes[id] {
        Node::Base(Base::Rel(RelBase::Co)) => true,
        Node::Plus(a) => is_co(prog, a),
        _ => false,
    }
}

fn free_of_co(prog: &Program, id: NodeId) -> bool {
    prog.info[id].uses & co_mask() == 0
}

/// `E` when `id` is `E \ co` with `E` free of coherence.
fn implied_part(prog: &Program, id: NodeId) -> Option<NodeId> {
    match prog.nodes[id] {
        Node::Diff(e, c) if is_co(prog, c) && free_of_co(prog, e) => Some(e),
        _ => None,
    }
}

/// Whether `id` is `E \ (co | co^-1)` (either order) with `E` free of
/// coherence.
fn orders_pairs(prog: &Program, id: NodeId) -> bool {
    let Node::Diff(e, u) = prog.nodes[id] else {
        return false;
    };
    let Node::Union(l, r) = prog.nodes[u] else {
        return false;
    };
    let inv_co = |x: NodeId| matches!(prog.nodes[x], Node::Inverse(c) if is_co(prog, c));
    free_of_co(prog, e) && ((is_co(prog, l) && inv_co(r)) || (inv_co(l) && is_co(prog, r)))
}

/// What a model asks of the search, read from its checks (see the module
/// documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SearchNeeds {
    pub coherence: CoherenceOrder,
    /// Expressions coherence must contain.
    pub implied: Vec<NodeId>,
    pub uses_sync_fence: bool,
    pub uses_proxies: bool,
    pub uses_async: bool,
}

impl SearchNeeds {
    /// The needs of the model made of `checks` (of `prog`).
    pub fn of(prog: &Program, checks: &[Check]) -> SearchNeeds {
        let enforced = checks
            .iter()
            .filter(|c| c.kind == CheckKind::Empty && !c.negate && !c.flag);
        let implied: Vec<NodeId> = enforced
            .clone()
            .filter_map(|c| implied_part(prog, c.node))
            .collect();
        let coherence = if enforced.clone().any(|c| orders_pairs(prog, c.node)) {
            CoherenceOrder::MorallyStrong
        } else {
            CoherenceOrder::Total
        };
        let sync_fence = Base::Rel(RelBase::SyncFence).bit();
        SearchNeeds {
            coherence,
            implied,
            uses_sync_fence: checks
                .iter()
                .any(|c| prog.info[c.node].uses & sync_fence != 0),
            uses_proxies: checks
                .iter()
                .any(|c| prog.info[c.node].uses & proxy_mask() != 0),
            uses_async: checks
                .iter()
                .any(|c| prog.info[c.node].uses & async_mask() != 0),
        }
    }
}

/// The pairs of same-location writes in the values of `implied`: the
/// coherence edges a model's `empty (E \ co)` checks ask for.
pub(crate) fn implied_co(ev: &mut Eval, implied: &[NodeId], x: &Execution) -> Relation {
    let s = x.s;
    let mut out = Relation::new(s.len());
    for &e in implied {
        let r = ev.get(e).rel(s.len());
        for (a, b) in r.pairs() {
            if s.write_set.contains(a)
                && s.write_set.contains(b)
                && s.events[a].loc == s.events[b].loc
            {
                out.insert(a, b);
            }
        }
    }
    out
}

impl CatModel {
    /// Compiles the cat text `src`, read from `path` (which names the model
    /// and anchors its `include`s); `read` reads included files.
    pub fn from_source(
        path: &Path,
        src: &str,
        read: &mut ReadInclude<'_>,
    ) -> Result<CatModel, CatError> {
        let prog = compile(path, src, read)?;
        let SearchNeeds {
            coherence,
            implied,
            uses_sync_fence,
            uses_proxies,
            uses_async,
        } = SearchNeeds::of(&prog, &prog.checks);
        let name = intern(&path.display().to_string());
        Ok(CatModel {
            name,
            summary: intern(&format!(
                "cat model {name} ({} checks, {} coherence)",
                prog.checks.len(),
                match coherence {
                    CoherenceOrder::Total => "total",
                    CoherenceOrder::MorallyStrong => "partial",
                }
            )),
            prog,
            coherence,
            implied,
            uses_sync_fence,
            uses_proxies,
            uses_async,
            raised: Mutex::new(BTreeSet::new()),
        })
    }

    /// The names of the `flag` checks that held of some consistent
    /// execution so far.
    pub fn raised_flags(&self) -> Vec<&'static str> {
        self.raised
            .lock()
            .map(|r| r.iter().copied().collect())
            .unwrap_or_default()
    }

    /// The names of the model's checks, in file order (`flag`s included).
    pub fn check_names(&self) -> Vec<&'static str> {
        self.prog.checks.iter().map(|c| c.name).collect()
    }
}

impl Model for CatModel {
    fn name(&self) -> &'static str {
        self.name
    }

    fn summary(&self) -> &'static str {
        self.summary
    }

    fn coherence(&self) -> CoherenceOrder {
        self.coherence
    }

    fn proxies(&self) -> bool {
        self.uses_proxies
    }

    fn async_proxy(&self) -> bool {
        self.uses_async
    }

    fn fence_order(&self, s: &Structure) -> FenceOrder {
        if !self.uses_sync_fence {
            return FenceOrder::none(s.len());
        }
        FenceOrder {
            fixed: Relation::new(s.len()),
            free: sc_fence_pairs(s),
        }
    }

    fn implied_co(&self, x: &Execution) -> Relation {
        implied_co(&mut Eval::new(&self.prog, x), &self.implied, x)
    }

    fn check(&self, x: &Execution) -> Result<(), Violation> {
        let complete = x.stage == Stage::Complete;
        let mut ev = Eval::new(&self.prog, x);
        for c in self.prog.checks.iter().filter(|c| !c.flag) {
            if !complete && !self.prog.info[c.node].monotone {
                continue;
            }
            if let Err(witness) = ev.holds(c) {
                // Edges keep the names of the cat file's relations here;
                // explanations spell them out (`refine`).
                return Err(Violation {
                    axiom: c.name,
                    witness,
                });
            }
        }
        if complete {
            for c in self.prog.checks.iter().filter(|c| c.flag) {
                if ev.holds(c).is_ok() {
                    if let Ok(mut raised) = self.raised.lock() {
                        raised.insert(c.name);
                    }
                }
            }
        }
        Ok(())
    }

    /// Spells an edge of a named relation of the file (`cause`) as the
    /// base edges that put it there (`po`, `rf`, ...), through unions,
    /// sequences, closures, inverses and `let rec`.
    fn refine(&self, x: &Execution, edge: &Edge) -> Vec<Edge> {
        let mut ev = Eval::new(&self.prog, x);
        if Base::lookup(edge.label).is_some() {
            return vec![edge.clone()];
        }
        ev.named(edge.label)
            .into_iter()
            .find_map(|node| ev.spell(node, edge.from, edge.to))
            .unwrap_or_else(|| vec![edge.clone()])
    }
}

/// The files a model was compiled from, with their text.
type Sources = Vec<(PathBuf, String)>;

/// Models loaded so far, with the text of every file each was compiled
/// from: a model is judged by reference (`&'static dyn Model`, as the
/// built-in ones are) in checks, reports and `litmus!` tests that name it
/// once per test, so each file is compiled and leaked once per process
/// (and again only when it or a file it includes changes).
static LOADED: Mutex<Vec<(Sources, &'static CatModel)>> = Mutex::new(Vec::new());

fn read_file(p: &Path) -> Result<String, IncludeError> {
    read_from_disk(p)
}

/// Loads the cat file at `path` (its `include`s resolved relative to it).
pub fn load(path: &Path) -> Result<&'static CatModel, CatError> {
    let src = std::fs::read_to_string(path).map_err(|e| CatError::Read {
        file: path.display().to_string(),
        message: e.to_string(),
    })?;
    let mut loaded = LOADED.lock().unwrap_or_else(|p| p.into_inner());
    let unchanged = |sources: &Sources| {
        sources[0].0 == path
            && sources[0].1 == src
            && sources[1..]
                .iter()
                .all(|(p, text)| read_file(p).is_ok_and(|t| t == *text))
    };
    if let Some((_, m)) = loaded.iter().find(|(s, _)| unchanged(s)) {
        return Ok(m);
    }
    let mut sources: Sources = vec![(path.to_path_buf(), src.clone())];
    let mut read = |p: &Path| {
        let text = read_file(p)?;
        sources.push((p.to_path_buf(), text.clone()));
        Ok(text)
    };
    let model: &'static CatModel =
        Box::leak(Box::new(CatModel::from_source(path, &src, &mut read)?));
    loaded.push((sources, model));
    Ok(model)
}
