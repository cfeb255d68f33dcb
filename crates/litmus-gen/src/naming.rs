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
