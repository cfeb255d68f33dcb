//! The named shapes of the GPU testing campaigns, each defined by its diy7
//! cycle, so that a shape and the cycle written out give the same test.

use crate::cycle;
use crate::error::GenError;
use crate::skeleton::Skeleton;

/// Every shape the generator knows: its name and its cycle.
pub const SHAPES: &[(&str, &str)] = &[
    ("MP", "PodWW Rfe PodRR Fre"),
    ("SB", "PodWR Fre PodWR Fre"),
    ("LB", "PodRW Rfe PodRW Rfe"),
    ("S", "PodWW Rfe PodRW Wse"),
    ("R", "PodWW Wse PodWR Fre"),
    ("2+2W", "PodWW Wse PodWW Wse"),
    ("WRC", "Rfe PodRW Rfe PodRR Fre"),
    ("RWC", "Rfe PodRR Fre PodWR Fre"),
    ("ISA2", "PodWW Rfe PodRW Rfe PodRR Fre"),
    ("IRIW", "Rfe PodRR Fre Rfe PodRR Fre"),
    ("WWC", "Rfe PodRW Rfe PodRW Wse"),
    ("Z6.3", "PodWW Wse PodWW Rfe PodRR Fre"),
    ("WRW+2W", "Rfe PodRW Wse PodWW Wse"),
    ("3.2W", "PodWW Wse PodWW Wse PodWW Wse"),
    ("CoRR", "Rfe PosRR Fre"),
    ("CoRW", "Rfe PosRW Wse"),
    ("CoWR", "PosWR Fre Wse"),
    ("CoWW", "PosWW Wsi"),
];

/// The cycle of shape `name` (case as written in [`SHAPES`]).
pub fn cycle_of(name: &str) -> Option<&'static str> {
    SHAPES.iter().find(|(n, _)| *n == name).map(|(_, c)| *c)
}

/// The skeleton of shape `name`, named after the shape.
pub fn shape(name: &str) -> Result<Skeleton, GenError> {
    let cycle = cycle_of(name).ok_or_else(|| GenError::UnknownShape {
        name: name.to_string(),
        known: SHAPES
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", "),
    })?;
    let mut skeleton = cycle::skeleton(cycle).expect("the built-in shapes are valid cycles");
    skeleton.name = name.to_string();
    Ok(skeleton)
}
