//! Stable, readable names: the shape, then what the variant chose, joined
//! by `+`: `IRIW+cta01_2_3+gpu+fence.sc.gpu@1,3`.
//!
//! | part | written |
//! |---|---|
//! | shape | `MP`, or a cycle's edges joined by `-` |
//! | placement | `cta01_2_3`: thread digits grouped by CTA (`gpu0_1`: by GPU) |
//! | accesses | the scope for relaxed ones (`gpu`), `rel_acq.gpu` for release stores and acquire loads, `weak` for plain ones |
//! | fences | `fence.<sem>.<scope>@<threads>` (the fences' own scope), absent when none |
//! | memory | `shared`, absent for global memory |

use crate::edge::{Dep, Edge, EdgeKind, SameLoc};
use crate::skeleton::Skeleton;
use crate::variant::{Memory, SemChoice, Variant};

impl Variant {
    /// The name of `skeleton` in this variant.
    pub fn name(&self, skeleton: &Skeleton) -> String {
        name(skeleton, self)
    }
}

/// The name of `skeleton` in `variant`.
pub fn name(skeleton: &Skeleton, variant: &Variant) -> String {
    let mut parts = vec![skeleton.name.clone(), variant.placement.name()];
    let scope = variant.scope.as_str();
    parts.push(match variant.sem {
        SemChoice::Weak => "weak".to_string(),
        SemChoice::Relaxed => scope.to_string(),
        SemChoice::RelAcq => format!("rel_acq.{scope}"),
    });
    if let Some(f) = &variant.fence {
        let threads: Vec<String> = f.threads.iter().map(|t| t.to_string()).collect();
        let fence_scope = f.scope.map_or(scope, |s| s.as_str());
        parts.push(format!(
            "fence.{}.{fence_scope}@{}",
            f.sem.as_str(),
            threads.join(",")
        ));
    }
    if variant.memory == Memory::Shared {
        parts.push("shared".to_string());
    }
    parts.join("+")
}

/// The family of a test named by [`name`]: the shape its name starts with
/// (the longest, so that `2+2W` and `WRW+2W` stay whole), else the name up
/// to its first `+` (a cycle's tests, or names `gen` did not write).
///
/// ```
/// assert_eq!(litmus_gen::naming::family("WRW+2W+cta0_12+gpu"), "WRW+2W");
/// assert_eq!(litmus_gen::naming::family("IRIW+cta0123+gpu"), "IRIW");
/// assert_eq!(litmus_gen::naming::family("mp_relaxed"), "mp_relaxed");
/// ```
pub fn family(name: &str) -> &str {
    crate::SHAPES
        .iter()
        .map(|(shape, _)| *shape)
        .filter(|shape| {
            name.strip_prefix(shape)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('+'))
        })
        .max_by_key(|shape| shape.len())
        .map_or_else(
            || name.split('+').next().unwrap_or(name),
            |shape| &name[..shape.len()],
        )
}

/// The name of the family of an enumerated cycle: the named shape whose
/// cycle it is, with every thread's program-order edge plain
/// (`Rfe PodRR Fre PodWW` is `MP`), then, when one of them is not plain,
/// what each thread has in the shape's thread order, diy7's way
/// (`Fence.sc.gpudWW Rfe PodRR Fre` is `MP+fence.sc.gpu+po`); a cycle of
/// no named shape is its edges joined by `-`. So `diff` lists `MP+...`,
/// not `Rfe-PodRR-Fre-PodWW+...`, and [`family`] groups the tests by
/// shape.
///
/// ```
/// use litmus_gen::naming::cycle_name;
/// assert_eq!(cycle_name("Rfe PodRR Fre PodWW"), "MP");
/// assert_eq!(cycle_name("Fre Fence.sc.ctadWR Fre PodWR"), "SB+fence.sc.cta+po");
/// assert_eq!(cycle_name("Rfe PodRW PodWR Fre"), "Rfe-PodRW-PodWR-Fre");
/// ```
pub fn cycle_name(cycle: &str) -> String {
    let words: Vec<&str> = cycle.split_whitespace().collect();
    let Ok(edges) = words
        .iter()
        .enumerate()
        .map(|(i, w)| Edge::parse(w, i + 1))
        .collect::<Result<Vec<_>, _>>()
    else {
        return words.join("-");
    };
    let plain: Vec<String> = edges
        .iter()
        .zip(&words)
        .map(|(e, w)| plain_form(e, w))
        .collect();
    let n = words.len();
    let mut best: Option<String> = None;
    for (shape, shape_cycle) in crate::SHAPES {
        let target: Vec<&str> = shape_cycle.split(' ').collect();
        if target.len() != n {
            continue;
        }
        for r in 0..n {
            if (0..n).any(|i| plain[(i + r) % n] != target[i]) {
                continue;
            }
            let turned = |i: usize| (&edges[(i + r) % n], words[(i + r) % n]);
            let as_shape = (0..n).all(|i| normal(turned(i).1) == target[i]);
            let name = if as_shape {
                shape.to_string()
            } else {
                let parts: Vec<String> = (0..n)
                    .map(turned)
                    .filter(|(e, _)| !e.external)
                    .map(|(e, w)| part(e, w))
                    .collect();
                format!("{shape}+{}", parts.join("+"))
            };
            if best.as_ref().is_none_or(|b| name < *b) {
                best = Some(name);
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.unwrap_or_else(|| words.join("-"))
}

/// The edge with its fence or dependency taken away (`Fence.sc.gpudWW` →
/// `PodWW`, `DpDatadW` → `PodRW`), spelled as [`crate::SHAPES`] spell
/// edges (`Coe` → `Wse`).
fn plain_form(e: &Edge, word: &str) -> String {
    match e.kind {
        EdgeKind::Fenced { .. } | EdgeKind::Dp(_) => {
            let loc = if e.loc == SameLoc::Same { 's' } else { 'd' };
            format!("Po{loc}{}{}", e.from.letter(), e.to.letter())
        }
        _ => normal(word),
    }
}

/// `Coe`/`Coi` as `Wse`/`Wsi`; every other edge as written.
fn normal(word: &str) -> String {
    match word {
        "Coe" => "Wse".to_string(),
        "Coi" => "Wsi".to_string(),
        w => w.to_string(),
    }
}

/// What a thread's internal edge adds to a shape's name: `po`,
/// `fence.sc.gpu`, `data`, `ctrl`, or the edge itself in lower case.
fn part(e: &Edge, word: &str) -> String {
    match e.kind {
        EdgeKind::Po => "po".to_string(),
        EdgeKind::Fenced { sem, scope } => format!("fence.{}.{}", sem.as_str(), scope.as_str()),
        EdgeKind::Dp(Dep::Data) => "data".to_string(),
        EdgeKind::Dp(Dep::Ctrl) => "ctrl".to_string(),
        _ => normal(word).to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_of_named_shapes_take_the_shape_name_in_any_rotation() {
        for (shape, cycle) in crate::SHAPES {
            let words: Vec<&str> = cycle.split(' ').collect();
            for r in 0..words.len() {
                let turned: Vec<&str> = (0..words.len())
                    .map(|i| words[(i + r) % words.len()])
                    .collect();
                assert_eq!(cycle_name(&turned.join(" ")), *shape, "{turned:?}");
            }
        }
        assert_eq!(cycle_name("Coe PodWW Coe PodWW"), "2+2W");
    }

    #[test]
    fn fences_and_dependencies_name_each_thread_in_the_shapes_order() {
        // MP's writer is its first thread, whichever edge the cycle starts
        // with.
        assert_eq!(
            cycle_name("Rfe Fence.acq_rel.ctadRR Fre Fence.sc.gpudWW"),
            "MP+fence.sc.gpu+fence.acq_rel.cta"
        );
        assert_eq!(cycle_name("Rfe DpDatadW Rfe PodRW"), "LB+data+po");
        assert_eq!(cycle_name("Rfe Fence.sc.syssRR Fre"), "CoRR+fence.sc.sys");
        // Not a shape: the edges.
        assert_eq!(cycle_name("Rfe Fre"), "Rfe-Fre");
        assert_eq!(cycle_name("Rfe Fre PodWW PodWW"), "Rfe-Fre-PodWW-PodWW");
    }
}
