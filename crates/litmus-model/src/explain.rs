//! Why a model forbids an outcome: for each candidate execution that would
//! produce it, the axiom that rejects it and the witness (a cycle or the
//! offending edges) as events joined by labelled edges. Text for people,
//! Graphviz DOT for pictures.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use litmus_core::ir::Test;
use litmus_core::proxy::Proxy;

use crate::budget::Options;
use crate::check::CheckError;
use crate::enumerate::{Leaf, Search};
use crate::events::{EventKind, Structure};
use crate::model::Model;
use crate::outcome::{format_outcome, is_target, observables, Observable, Outcome};

/// An event as a witness shows it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WitnessEvent {
    /// Thread name; `None` for an initial write.
    pub thread: Option<String>,
    /// Index of the instruction in the thread's body.
    pub instr: Option<usize>,
    /// `R`, `W`, `F` or `B`, with semantics and scope: `W.release.gpu`.
    pub access: String,
    /// The location accessed; `None` for fences and barriers.
    pub location: Option<String>,
    /// The value read or written.
    pub value: Option<u32>,
}

impl std::fmt::Display for WitnessEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (&self.thread, self.instr) {
            (Some(t), Some(i)) => write!(f, "{t}#{i} ")?,
            _ => f.write_str("init ")?,
        }
        f.write_str(&self.access)?;
        if let Some(l) = &self.location {
            write!(f, " {l}")?;
        }
        if let Some(v) = self.value {
            write!(f, "={v}")?;
        }
        Ok(())
    }
}

/// One labelled edge of a witness.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WitnessEdge {
    /// The source event.
    pub from: WitnessEvent,
    /// `po`, `rf`, `co`, `fr`, `sw`, `sc`, `cause`, `dep`, `rmw`, ...
    pub label: &'static str,
    /// The target event.
    pub to: WitnessEvent,
}

/// One reason an outcome is forbidden.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// The outcome, formatted (`P1:r0=1; P1:r1=0`).
    pub outcome: String,
    /// The axiom that rejects the executions.
    pub axiom: &'static str,
    /// The axiom's witness: a cycle or the offending edges.
    pub witness: Vec<WitnessEdge>,
    /// How many candidate executions this same reason rejects.
    pub executions: u64,
}

/// The explanation of the outcomes a predicate selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// The test's name.
    pub test: String,
    /// The model's name.
    pub model: &'static str,
    /// Consistent executions that produce a selected outcome: when not
    /// zero, the model allows it and the rejections are beside the point.
    pub allowing_executions: u64,
    /// Distinct (outcome, axiom, witness) reasons, most frequent first.
    pub rejections: Vec<Rejection>,
    /// Candidate executions examined, as in
    /// [`crate::CheckResult::candidate_executions`].
    pub candidate_executions: u64,
    /// Set when the budget ran out after some reasons were found: the
    /// explanation holds those, and its counts are lower bounds.
    pub cut_short: Option<crate::BudgetExceeded>,
}

/// Explains the outcomes the test's verdict is about: those satisfying the
/// condition (`exists`, `~exists`) or breaking it (`forall`).
pub fn explain_condition(
    test: &Test,
    model: &dyn Model,
    opts: &Options,
) -> Result<Explanation, CheckError> {
    explain(test, model, opts, &|obs, o| is_target(test, obs, o))
}

/// Explains one outcome, given as values of the test's observables (as
/// [`crate::CheckResult::observables`] lists them).
pub fn explain_outcome(
    test: &Test,
    model: &dyn Model,
    opts: &Options,
    outcome: &[u32],
) -> Result<Explanation, CheckError> {
    explain(test, model, opts, &|_, o| o == outcome)
}

/// Explains the outcomes `select` picks. Enumerates every candidate
/// execution (no pruning: each needs its own reason), within the budget.
pub fn explain(
    test: &Test,
    model: &dyn Model,
    opts: &Options,
    select: &dyn Fn(&[Observable], &[u32]) -> bool,
) -> Result<Explanation, CheckError> {
    litmus_core::validate(test).map_err(CheckError::Invalid)?;
    let obs = observables(test);
    let mut allowing = 0u64;
    let mut reasons: BTreeMap<(String, &'static str, Vec<WitnessEdge>), u64> = BTreeMap::new();
    let mut on_leaf = |leaf: Leaf| {
        let picked: Vec<&Outcome> = leaf.outcomes.iter().filter(|o| select(&obs, o)).collect();
        if picked.is_empty() {
            return;
        }
        match &leaf.verdict {
            Ok(()) => allowing += 1,
            Err(v) => {
                let witness: Vec<WitnessEdge> = v
                    .witness
                    .iter()
                    .flat_map(|e| model.refine(leaf.x, e))
                    .map(|e| WitnessEdge {
                        from: describe(test, leaf.x.s, leaf.values, e.from),
                        label: e.label,
                        to: describe(test, leaf.x.s, leaf.values, e.to),
                    })
                    .collect();
                for o in picked {
                    let key = (format_outcome(test, &obs, o), v.axiom, witness.clone());
                    *reasons.entry(key).or_default() += 1;
                }
            }
        }
    };
    let mut search = Search::new(test, model, opts, &obs, false, &mut on_leaf);
    // Every candidate execution of a large test can be far too many: what
    // was found before the budget ran out still says why, so it is kept.
    let ran = search.run(opts).map_err(CheckError::from);
    let candidates = search.counts.candidates;
    drop(search);
    let cut_short = match ran {
        Ok(_) => None,
        Err(CheckError::Budget(b)) if allowing > 0 || !reasons.is_empty() => Some(b),
        Err(e) => return Err(e),
    };
    let mut rejections: Vec<Rejection> = reasons
        .into_iter()
        .map(|((outcome, axiom, witness), executions)| Rejection {
            outcome,
            axiom,
            witness,
            executions,
        })
        .collect();
    rejections.sort_by(|a, b| {
        b.executions
            .cmp(&a.executions)
            .then(a.witness.len().cmp(&b.witness.len()))
    });
    Ok(Explanation {
        test: test.name.text.clone(),
        model: model.name(),
        allowing_executions: allowing,
        rejections,
        candidate_executions: candidates,
        cut_short,
    })
}

fn describe(test: &Test, s: &Structure, values: &[u32], e: usize) -> WitnessEvent {
    let ev = &s.events[e];
    let letter = match ev.kind {
        EventKind::Read => "R",
        EventKind::Write => "W",
        EventKind::Fence => "F",
        EventKind::Barrier => "B",
    };
    let mut access = letter.to_string();
    if let Some(kind) = ev.proxy.fence {
        access.push_str(".proxy.");
        access.push_str(kind.as_str());
    } else if ev.kind != EventKind::Barrier && !ev.is_init() {
        access.push('.');
        access.push_str(ev.sem.as_str());
        if let Some(sc) = ev.scope {
            access.push('.');
            access.push_str(sc.as_str());
        }
        // PTX 7.5: say which proxy a non-generic access goes through.
        if let Some(p) = ev.proxy.proxy.filter(|p| *p != Proxy::Generic) {
            access.push('.');
            access.push_str(p.as_str());
        }
    }
    // The location as the instruction names it (an alias, say), not the
    // memory it reaches.
    let written = ev
        .thread
        .zip(ev.instr)
        .and_then(|(t, i)| test.threads[t].body.get(i))
        .and_then(|i| i.kind.loc())
        .map(|l| l.text.clone());
    WitnessEvent {
        thread: ev.thread.map(|t| test.threads[t].name.text.clone()),
        instr: ev.instr,
        access,
        location: written.or_else(|| ev.loc.map(|l| test.locations[l].name.text.clone())),
        value: ev.is_memory().then(|| values[e]),
    }
}

impl Explanation {
    /// Whether the model forbids every selected outcome (no consistent
    /// execution produces one).
    pub fn forbidden(&self) -> bool {
        self.allowing_executions == 0
    }

    /// Human-readable text: at most `limit` reasons, one line of witness
    /// each.
    pub fn to_text(&self, limit: usize) -> String {
        let mut out = String::new();
        if !self.forbidden() {
            let _ = writeln!(
                out,
                "{}: model {} allows the outcome ({} consistent executions produce it)",
                self.test, self.model, self.allowing_executions
            );
            return out;
        }
        if self.rejections.is_empty() {
            let _ = writeln!(
                out,
                "{}: model {}: no candidate execution produces the outcome at all",
                self.test, self.model
            );
            return out;
        }
        match &self.cut_short {
            None => {
                let _ = writeln!(
                    out,
                    "{}: model {} forbids the outcome",
                    self.test, self.model
                );
            }
            // Unexamined executions might allow it: say only what was seen.
            Some(b) => {
                let _ = writeln!(
                    out,
                    "{}: model {} rejects every candidate execution examined ({} before the explanation's {}; counts are lower bounds)",
                    self.test, self.model, self.candidate_executions, b.budget
                );
            }
        }
        for r in self.rejections.iter().take(limit) {
            let _ = writeln!(
                out,
                "  {} — {} fails ({} candidate execution{}):",
                r.outcome,
                r.axiom,
                r.executions,
                if r.executions == 1 { "" } else { "s" }
            );
            let _ = writeln!(out, "    {}", chain(&r.witness));
        }
        if self.rejections.len() > limit {
            let _ = writeln!(
                out,
                "  ... and {} more reasons",
                self.rejections.len() - limit
            );
        }
        out
    }

    /// Graphviz DOT: one cluster per shown reason, events as nodes,
    /// labelled edges.
    pub fn to_dot(&self, limit: usize) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "digraph {} {{",
            quote(&format!("{} under {}", self.test, self.model))
        );
        let _ = writeln!(out, "  node [shape=box, fontname=monospace];");
        for (i, r) in self.rejections.iter().take(limit).enumerate() {
            let _ = writeln!(out, "  subgraph cluster_{i} {{");
            let _ = writeln!(
                out,
                "    label={};",
                quote(&format!("{}: {}", r.outcome, r.axiom))
            );
            let mut nodes: Vec<&WitnessEvent> = Vec::new();
            for e in &r.witness {
                for ev in [&e.from, &e.to] {
                    if !nodes.contains(&ev) {
                        nodes.push(ev);
                    }
                }
            }
            for (k, ev) in nodes.iter().enumerate() {
                let _ = writeln!(out, "    r{i}e{k} [label={}];", quote(&ev.to_string()));
            }
            for e in &r.witness {
                let a = nodes.iter().position(|n| *n == &e.from).unwrap_or(0);
                let b = nodes.iter().position(|n| *n == &e.to).unwrap_or(0);
                let _ = writeln!(out, "    r{i}e{a} -> r{i}e{b} [label={}];", quote(e.label));
            }
            let _ = writeln!(out, "  }}");
        }
        let _ = writeln!(out, "}}");
        out
    }
}

/// `a -po-> b -rf-> c -fr-> a`.
fn chain(edges: &[WitnessEdge]) -> String {
    let mut s = String::new();
    for (i, e) in edges.iter().enumerate() {
        let continues = i > 0 && edges[i - 1].to == e.from;
        if !continues {
            if i > 0 {
                s.push_str(", ");
            }
            s.push_str(&e.from.to_string());
        }
        let _ = write!(s, " -{}-> {}", e.label, e.to);
    }
    s
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}
