//! litmus-gen: families of litmus tests, from named shapes (MP, IRIW, ...)
//! and from diy7 cycles (`PodWW Rfe PodRR Fre`).
//!
//! A shape is a cycle ([`shapes::SHAPES`]); a cycle becomes a [`Skeleton`]
//! (who accesses what, and the outcome that closes the cycle); a
//! [`Variant`] (placement, scope, access semantics, fences, memory) makes
//! it an IR [`Test`](litmus_core::ir::Test); a [`family()`] is every variant
//! a [`FamilySpec`] asks for, each test once up to renaming
//! ([`canon`]).
//!
//! [`enumerate`] makes every cycle up to a length over a vocabulary of
//! edges ([`vocabulary`]: diy7 names, `*` expanded), as `diy7 -size N`
//! does, for the searches that look for tests telling two models apart;
//! [`naming::cycle_name`] names such a cycle after its shape;
//! [`candidates`] makes a search's candidate tests from shapes and cycles.
//!
//! The tests carry no verdict: this crate depends on `litmus-core` only,
//! and the layer that has a model (the `gpu-litmus gen` command) writes
//! the model's verdict in.
//!
//! ```
//! use std::collections::HashSet;
//! use litmus_gen::{family, shape, FamilySpec};
//!
//! let mut spec = FamilySpec::default();
//! spec.set("placements", "all").unwrap();
//! spec.set("fences", "none,sc").unwrap();
//! let mp = family(&shape("MP").unwrap(), &spec, &mut HashSet::new()).unwrap();
//! assert!(mp.tests.iter().any(|t| t.name.text == "MP+cta0_1+gpu+fence.sc.gpu@0,1"));
//! ```

#![warn(missing_docs)]

pub mod candidates;
pub mod canon;
pub mod cycle;
pub mod edge;
pub mod enumerate;
pub mod error;
pub mod family;
pub mod naming;
mod numbering;
pub mod placement;
pub mod relaxation;
pub mod shapes;
pub mod skeleton;
pub mod spec;
pub mod variant;
pub mod vocabulary;

pub use canon::{canonical, same_up_to_names};
pub use error::GenError;
pub use family::{family, variants, Family};
pub use shapes::{shape, SHAPES};
pub use skeleton::Skeleton;
pub use spec::{FamilySpec, FenceThreads};
pub use variant::{FenceChoice, Memory, SemChoice, Variant};
