//! A family: every variant a [`FamilySpec`] asks for of one skeleton, each
//! test once up to renaming ([`crate::canon`]).

use std::collections::HashSet;

use litmus_core::ir::Test;

use crate::canon::canonical;
use crate::error::GenError;
use crate::placement::Placement;
use crate::skeleton::Skeleton;
use crate::spec::FamilySpec;
use crate::variant::{FenceChoice, Memory, Variant};

/// The tests of one shape or cycle.
#[derive(Clone, Debug)]
pub struct Family {
    /// The shape's name, or the cycle's edges joined by `-`.
    pub name: String,
    /// The variants asked for, before duplicates were dropped.
    pub variants: usize,
    /// The tests, each new up to renaming of threads, CTAs, locations,
    /// registers and values; no verdict declared.
    pub tests: Vec<Test>,
}

/// Every variant of `skeleton` that `spec` asks for, in a stable order
/// (placement, memory, scope, semantics, fences).
pub fn variants(skeleton: &Skeleton, spec: &FamilySpec) -> Result<Vec<Variant>, GenError> {
    let threads = skeleton.threads.len();
    let mut placements: Vec<Placement> = Vec::new();
    for p in &spec.placements {
        for placement in p.resolve(threads)? {
            if !placements.contains(&placement) {
                placements.push(placement);
            }
        }
    }
    // Resolved even when no fence is asked for, so that a thread set that
    // does not fit the shape is an error either way.
    let fence_sets = spec.fence_threads.resolve(skeleton)?;
    let mut fences: Vec<Option<FenceChoice>> = Vec::new();
    for f in &spec.fences {
        match f {
            None => fences.push(None),
            Some(sem) => {
                for &scope in &spec.fence_scopes {
                    for threads in fence_sets.iter().cloned() {
                        fences.push(Some(FenceChoice {
                            sem: *sem,
                            scope,
                            threads,
                        }));
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for placement in &placements {
        for &memory in &spec.memories {
            if memory == Memory::Shared && !placement.one_cta() {
                continue;
            }
            for &scope in &spec.scopes {
                for &sem in &spec.sems {
                    for fence in &fences {
                        out.push(Variant {
                            placement: placement.clone(),
                            scope,
                            sem,
                            fence: fence.clone(),
                            memory,
                        });
                    }
                }
            }
        }
    }
    if out.is_empty() {
        return Err(GenError::NoVariant {
            name: skeleton.name.clone(),
        });
    }
    Ok(out)
}

/// The family of `skeleton` under `spec`. Tests whose canonical form is in
/// `seen` are dropped, and the new forms added, so that one `seen` across
/// several families writes each test once.
pub fn family(
    skeleton: &Skeleton,
    spec: &FamilySpec,
    seen: &mut HashSet<String>,
) -> Result<Family, GenError> {
    let variants = variants(skeleton, spec)?;
    let count = variants.len();
    let tests = variants
        .iter()
        .map(|v| v.instantiate(skeleton))
        .filter(|t| seen.insert(canonical(t)))
        .collect();
    Ok(Family {
        name: skeleton.name.clone(),
        variants: count,
        tests,
    })
}
