//! The edges a cycle enumeration draws from, read from a list as a user
//! writes it (`gpu-litmus diff --edges`): diy7 edge names, where `*` stands
//! for each letter or word that fits at its place, as diy7's relax lists
//! allow (`Pod**` is the four `Pod` edges).
//!
//! A `*` is tried as `R` and `W` (directions), `s` and `d` (same or
//! different location), `e` and `i` (external or internal), a fence's `sc`
//! and `acq_rel`, and a scope `cta`, `gpu` and `sys`: every spelling that
//! reads as an edge is kept. So `Fence.*.*d**` is the 24 fenced edges
//! between different locations at the three scopes every PTX model knows;
//! `fence.acquire`, `fence.release` and the `cluster` scope are there when
//! written out (`Fence.release.clusterdWW`).
//!
//! Edges that mean the same (`Wse` and `Coe`) are one edge: the first
//! spelling is kept, so that no cycle is enumerated twice under two names.

use crate::edge::Edge;
use crate::error::GenError;

/// The vocabulary when none is given: communication between threads, plain
/// program order between two locations (the shapes of every campaign), and
/// program order with a `fence.sc` or `fence.acq_rel` at CTA, GPU or system
/// scope between them: 31 edges. Cycles of up to 4 edges over it are every
/// two-thread shape with each thread's fence chosen on its own, which the
/// family options (`--fences`, one fence for every thread) cannot give.
pub const DEFAULT_EDGES: &[&str] = &["Rfe", "Fre", "Wse", "Pod**", "Fence.*.*d**"];

/// The most edges a vocabulary may hold, wildcards expanded: past it even
/// cycles of four edges are too many to check.
pub const MAX_VOCABULARY: usize = 64;

/// The most `*` in one edge: each multiplies the spellings tried by 11.
const MAX_STARS: usize = 4;

/// What a `*` may stand for.
const FILLERS: &[&str] = &[
    "R", "W", "s", "d", "e", "i", "sc", "acq_rel", "cta", "gpu", "sys",
];

/// The edges of `list` (diy7 names, `*` expanded), each once, in the order
/// written; the first spelling of edges that mean the same. Fails, naming
/// `--edges`, on an empty list, a name that is no edge, a `*` pattern that
/// matches none, or more than [`MAX_VOCABULARY`] edges.
pub fn vocabulary(list: &[String]) -> Result<Vec<(String, Edge)>, GenError> {
    let bad = |value: &str, why: String| GenError::option("edges", value, why);
    if list.is_empty() {
        return Err(bad(
            "",
            "no edge; give diy7 edge names such as Rfe,Fre,PodWR".into(),
        ));
    }
    let mut out: Vec<(String, Edge)> = Vec::new();
    for item in list {
        let spellings = expand(item).map_err(|why| bad(item, why))?;
        for spelling in spellings {
            let edge = Edge::parse(&spelling, 1).map_err(|e| bad(item, reason(e)))?;
            if !out.iter().any(|(_, e)| *e == edge) {
                out.push((spelling, edge));
            }
        }
        if out.len() > MAX_VOCABULARY {
            return Err(bad(
                &list.join(","),
                format!(
                    "more than {MAX_VOCABULARY} edges once `*` is expanded; the cycles over so many are too many to check: give fewer"
                ),
            ));
        }
    }
    Ok(out)
}

/// The spellings of `item` with each `*` filled in, those that read as
/// edges; `item` itself when it has no `*`.
fn expand(item: &str) -> Result<Vec<String>, String> {
    let stars = item.matches('*').count();
    if stars == 0 {
        return Ok(vec![item.to_string()]);
    }
    if stars > MAX_STARS {
        return Err(format!("at most {MAX_STARS} `*` in one edge"));
    }
    let mut spellings = vec![String::new()];
    for (k, part) in item.split('*').enumerate() {
        if k > 0 {
            spellings = spellings
                .iter()
                .flat_map(|s| FILLERS.iter().map(move |f| format!("{s}{f}")))
                .collect();
        }
        for s in &mut spellings {
            s.push_str(part);
        }
    }
    spellings.retain(|s| Edge::parse(s, 1).is_ok());
    if spellings.is_empty() {
        return Err(
            "matches no edge (a `*` stands for R or W, s or d, e or i, sc or acq_rel, cta, gpu or sys)"
                .into(),
        );
    }
    Ok(spellings)
}

/// An edge's error without the cycle position it was written for.
fn reason(e: GenError) -> String {
    match e {
        GenError::BadEdge { why, .. } | GenError::Inexpressible { why, .. } => why,
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        vocabulary(&list)
            .unwrap()
            .into_iter()
            .map(|(n, _)| n)
            .collect()
    }

    #[test]
    fn stars_expand_to_every_edge_they_spell() {
        assert_eq!(names(&["Pod**"]), ["PodRR", "PodRW", "PodWR", "PodWW"]);
        assert_eq!(names(&["Rf*"]), ["Rfe", "Rfi"]);
        let fences = names(&["Fence.*.*dWW"]);
        assert_eq!(
            fences,
            [
                "Fence.sc.ctadWW",
                "Fence.sc.gpudWW",
                "Fence.sc.sysdWW",
                "Fence.acq_rel.ctadWW",
                "Fence.acq_rel.gpudWW",
                "Fence.acq_rel.sysdWW",
            ]
        );
        assert_eq!(names(&["Fence.*.*d**"]).len(), 24);
    }

    #[test]
    fn the_default_vocabulary_is_31_edges_each_once() {
        assert_eq!(names(DEFAULT_EDGES).len(), 31);
    }

    #[test]
    fn synonyms_and_repeats_are_one_edge_under_the_first_spelling() {
        assert_eq!(names(&["Wse", "Coe", "Rfe", "Rfe"]), ["Wse", "Rfe"]);
    }

    #[test]
    fn bad_lists_name_the_item_at_fault() {
        let err = |list: &[&str]| {
            let list: Vec<String> = list.iter().map(|s| s.to_string()).collect();
            vocabulary(&list).unwrap_err().to_string()
        };
        let e = err(&["Rfe", "PodQQ"]);
        assert!(e.starts_with("edges `PodQQ`: "), "{e}");
        assert!(!e.contains("of the cycle"), "{e}");
        let e = err(&["Pox*"]);
        assert!(e.contains("`Pox*`: matches no edge"), "{e}");
        let e = err(&["DpAddrdW"]);
        assert!(e.contains("no address dependency"), "{e}");
        assert!(err(&[]).contains("no edge"));
        let e = err(&["*****"]);
        assert!(e.contains("at most 4 `*`"), "{e}");
        let e = err(&[
            "Fence.*.*d**",
            "Fence.*.*s**",
            "Fence.release.*d**",
            "Pod**",
            "Rfe",
        ]);
        assert!(e.contains("more than 64 edges"), "{e}");
    }
}
