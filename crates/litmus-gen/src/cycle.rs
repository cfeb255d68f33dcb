//! diy7 cycles: a cycle of edges (`PodWW Rfe PodRR Fre`) becomes the
//! skeleton of the test whose outcome closes the cycle.
//!
//! As diy7 does: the cycle is turned so that it starts after an external
//! edge; each external edge starts a new thread; each `d` edge a new
//! location; writes of one location take the values 1, 2, ... in the
//! coherence order the cycle implies (its `Ws` edges, and a read's `Rf`
//! source before its `Fr` target); a read asks for the value of its `Rf`
//! source, or of the write just before its `Fr` target (0 when that is the
//! initial value); a location written twice or more asks for its
//! coherence-last value at the end.

use litmus_core::ir::Value;

use crate::edge::{Dir, Edge, EdgeKind, SameLoc};
use crate::error::GenError;
use crate::numbering::renumber;
use crate::skeleton::{Event, Skeleton, Step};

/// The skeleton of the cycle `text` (edges separated by white space).
pub fn skeleton(text: &str) -> Result<Skeleton, GenError> {
    let cycle = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let bad = |why: String| GenError::BadCycle {
        cycle: cycle.clone(),
        why,
    };
    let words: Vec<&str> = cycle.split(' ').filter(|w| !w.is_empty()).collect();
    let edges = words
        .iter()
        .enumerate()
        .map(|(i, w)| Edge::parse(w, i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    if edges.len() < 2 {
        return Err(bad("a cycle needs two edges or more".to_string()));
    }
    check_directions(&words, &edges).map_err(&bad)?;
    let start = rotation(&edges).map_err(&bad)?;
    let order: Vec<usize> = (0..edges.len())
        .map(|i| (start + i) % edges.len())
        .collect();
    let rotated: Vec<&Edge> = order.iter().map(|&i| &edges[i]).collect();
    let locs = locations(&rotated)
        .map_err(|(i, why)| bad(format!("edge {} `{}` {why}", order[i] + 1, words[order[i]])))?;
    let values = Values::of(&rotated, &locs).map_err(&bad)?;
    let mut skeleton = assemble(&rotated, &locs, &values);
    skeleton.name = words.join("-");
    skeleton.cycle = cycle.clone();
    Ok(skeleton)
}

/// Each edge must start where the previous one ended (`Rfe` ends in a read,
/// so the next edge starts from a read).
fn check_directions(words: &[&str], edges: &[Edge]) -> Result<(), String> {
    for i in 0..edges.len() {
        let j = (i + 1) % edges.len();
        if edges[i].to != edges[j].from {
            return Err(format!(
                "edge {} `{}` ends in a {} but edge {} `{}` starts from a {}",
                i + 1,
                words[i],
                access_word(edges[i].to),
                j + 1,
                words[j],
                access_word(edges[j].from)
            ));
        }
    }
    Ok(())
}

fn access_word(d: Dir) -> &'static str {
    match d {
        Dir::R => "read",
        Dir::W => "write",
    }
}

fn is_communication(e: &Edge) -> bool {
    matches!(e.kind, EdgeKind::Rf | EdgeKind::Fr | EdgeKind::Ws)
}

/// Where the cycle starts: after its last external edge, so that each
/// thread's events are contiguous; with no external edge (one thread), after
/// a communication edge, the only kind that may go back in program order.
fn rotation(edges: &[Edge]) -> Result<usize, String> {
    let external = edges.iter().filter(|e| e.external).count();
    if external == 1 {
        return Err(
            "it has one external edge, which would lead from a thread back to itself; an external edge needs another to come back"
                .to_string(),
        );
    }
    let last = edges.iter().rposition(|e| e.external);
    let last = match last {
        Some(i) => i,
        None => edges.iter().rposition(is_communication).ok_or(
            "it has no communication edge (Rf, Fr, Ws): program order alone cannot close a cycle",
        )?,
    };
    Ok((last + 1) % edges.len())
}

/// The location of each event (event `i` is where edge `i` starts):
/// a new one after each `d` edge, the last group merged with the first
/// when the closing edge keeps the location. Errors name the rotated index
/// of the edge whose `s`/`d` cannot hold.
fn locations(edges: &[&Edge]) -> Result<Vec<usize>, (usize, String)> {
    let n = edges.len();
    let mut locs = vec![0usize; n];
    for i in 1..n {
        locs[i] = match edges[i - 1].loc {
            SameLoc::Same => locs[i - 1],
            SameLoc::Different => locs[i - 1] + 1,
        };
    }
    if edges[n - 1].loc == SameLoc::Same {
        let last = locs[n - 1];
        for l in locs.iter_mut().filter(|l| **l == last) {
            *l = 0;
        }
    }
    let locs = renumber(&locs);
    for (i, e) in edges.iter().enumerate() {
        let same = locs[i] == locs[(i + 1) % n];
        match (e.loc, same) {
            (SameLoc::Same, false) => {
                return Err((i, "needs one location at both ends, and the other edges make them differ".to_string()))
            }
            (SameLoc::Different, true) => {
                return Err((i, "needs two locations, and the other edges make them one (a cycle changes location on none or on two edges or more)".to_string()))
            }
            _ => {}
        }
    }
    Ok(locs)
}

/// The value each event writes or must read, and the final values asked.
struct Values {
    event: Vec<Option<Value>>,
    /// For each write, the value of the write just before it in coherence
    /// (0, the initial value, for the first).
    co_prev: Vec<Option<Value>>,
    finals: Vec<(usize, Value)>,
}

/// What the cycle says about coherence: pairs of writes in coherence order
/// (`Ws`, and a read's `Rf` source before its `Fr` target), and the `Rf`
/// source of each read that has one.
fn coherence_constraints(edges: &[&Edge]) -> (Vec<(usize, usize)>, Vec<Option<usize>>) {
    let n = edges.len();
    let next = |i: usize| (i + 1) % n;
    let mut before: Vec<(usize, usize)> = Vec::new();
    let mut rf_source: Vec<Option<usize>> = vec![None; n];
    for (i, e) in edges.iter().enumerate() {
        match e.kind {
            EdgeKind::Ws => before.push((i, next(i))),
            EdgeKind::Rf => rf_source[next(i)] = Some(i),
            _ => {}
        }
    }
    for (i, e) in edges.iter().enumerate() {
        if let (EdgeKind::Fr, Some(w)) = (e.kind, rf_source[i]) {
            before.push((w, next(i)));
        }
    }
    (before, rf_source)
}

impl Values {
    fn of(edges: &[&Edge], locs: &[usize]) -> Result<Values, String> {
        let (before, rf_source) = coherence_constraints(edges);
        // `Rf` then `Fr` back to the write read from: coherence would put
        // that write before itself (`Rfe Fre`), an execution none can have.
        if before.iter().any(|(a, b)| a == b) {
            return Err(
                "a read reads from the write its `Fr` edge leads to, which would be coherence-before itself"
                    .to_string(),
            );
        }
        let mut values = Values::of_writes(edges, locs, &before)?;
        values.ask_reads(edges, &rf_source);
        Ok(values)
    }

    /// Writes of each location numbered 1, 2, ... in coherence order; the
    /// last one's value asked at the end when there are two or more.
    fn of_writes(
        edges: &[&Edge],
        locs: &[usize],
        before: &[(usize, usize)],
    ) -> Result<Values, String> {
        let n = edges.len();
        let mut values = Values {
            event: vec![None; n],
            co_prev: vec![None; n],
            finals: Vec::new(),
        };
        let location_count = locs.iter().max().map_or(0, |m| m + 1);
        for loc in 0..location_count {
            let writes: Vec<usize> = (0..n)
                .filter(|&i| locs[i] == loc && edges[i].from == Dir::W)
                .collect();
            let order = coherence(&writes, before).ok_or_else(|| {
                format!(
                    "its coherence edges on location {} form a cycle of their own",
                    crate::skeleton::location_name(loc)
                )
            })?;
            for (k, &w) in order.iter().enumerate() {
                values.event[w] = Some(k as Value + 1);
                values.co_prev[w] = Some(k as Value);
            }
            if order.len() >= 2 {
                values.finals.push((loc, order.len() as Value));
            }
        }
        Ok(values)
    }

    /// Each read asks for its `Rf` source's value, or for the value just
    /// before its `Fr` target; a read with neither asks nothing.
    fn ask_reads(&mut self, edges: &[&Edge], rf_source: &[Option<usize>]) {
        let n = edges.len();
        for (i, e) in edges.iter().enumerate() {
            if e.from != Dir::R {
                continue;
            }
            self.event[i] = match rf_source[i] {
                Some(w) => self.event[w],
                None if e.kind == EdgeKind::Fr => self.co_prev[(i + 1) % n],
                None => None,
            };
        }
    }
}

/// The writes in an order that respects `before`, ties broken by position
/// in the cycle; `None` when `before` is cyclic on them.
fn coherence(writes: &[usize], before: &[(usize, usize)]) -> Option<Vec<usize>> {
    let mut left: Vec<usize> = writes.to_vec();
    let mut order = Vec::new();
    while !left.is_empty() {
        let pick = left.iter().position(|&w| {
            !before
                .iter()
                .any(|&(a, b)| b == w && a != w && left.contains(&a))
        })?;
        order.push(left.remove(pick));
    }
    Some(order)
}

/// The skeleton: threads split after each external edge, fences and
/// dependencies placed between the events their edges join.
fn assemble(edges: &[&Edge], locs: &[usize], values: &Values) -> Skeleton {
    let mut threads: Vec<Vec<Step>> = vec![Vec::new()];
    for (i, e) in edges.iter().enumerate() {
        let dep = match i.checked_sub(1).map(|p| edges[p].kind) {
            Some(EdgeKind::Dp(d)) => Some(d),
            _ => None,
        };
        let current = threads.last_mut().expect("one thread at least");
        current.push(Step::Access(Event {
            dir: e.from,
            loc: locs[i],
            value: values.event[i],
            dep,
        }));
        if let EdgeKind::Fenced { sem, scope } = e.kind {
            current.push(Step::Fence { sem, scope });
        }
        if e.external && i + 1 < edges.len() {
            threads.push(Vec::new());
        }
    }
    Skeleton {
        name: String::new(),
        cycle: String::new(),
        threads,
        locations: locs.iter().max().map_or(0, |m| m + 1),
        finals: values.finals.clone(),
    }
}
