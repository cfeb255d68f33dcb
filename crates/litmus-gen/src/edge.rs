//! One edge of a diy7 cycle, read from its name.
//!
//! The vocabulary is diy7's, with PTX fences spelled after the instruction:
//!
//! | edge | relation | from, to | location | thread |
//! |---|---|---|---|---|
//! | `Pos`/`Pod` + `RR`,`RW`,`WR`,`WW` | program order | as written | same / different | same |
//! | `Fence.<sem>.<scope>` + `s`/`d` + two of `R`,`W` (`Fence.sc.gpudWW`) | program order with a fence between | as written | same / different | same |
//! | `DpData` + `s`/`d` + `W`, `DpCtrl` + `s`/`d` + `R`/`W` | dependency from a read | `R`, as written | same / different | same |
//! | `Rfe`, `Rfi` | reads-from | `W` to `R` | same | other / same |
//! | `Fre`, `Fri` | from-read | `R` to `W` | same | other / same |
//! | `Wse`, `Wsi` (also `Coe`, `Coi`) | coherence | `W` to `W` | same | other / same |
//!
//! `DpAddr` is read and refused: the IR names locations, it does not
//! compute addresses, so an address dependency has no form.

use litmus_core::instr::{Scope, Sem};

use crate::error::GenError;

/// The direction of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// A load.
    R,
    /// A store.
    W,
}

impl Dir {
    fn from_char(c: char) -> Option<Dir> {
        match c {
            'R' => Some(Dir::R),
            'W' => Some(Dir::W),
            _ => None,
        }
    }

    /// `R` or `W`.
    pub fn letter(self) -> char {
        match self {
            Dir::R => 'R',
            Dir::W => 'W',
        }
    }
}

/// Whether the two ends of an edge access one location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SameLoc {
    /// The same location (`s`, and every communication edge).
    Same,
    /// Different locations (`d`).
    Different,
}

/// A dependency a later access has on a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dep {
    /// The stored value is computed from the read's register.
    Data,
    /// The access comes after a branch on the read's register.
    Ctrl,
}

/// What an edge relates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Program order, nothing between.
    Po,
    /// Program order with a `fence.<sem>.<scope>` between.
    Fenced {
        /// The fence's semantics.
        sem: Sem,
        /// The fence's scope.
        scope: Scope,
    },
    /// Program order with a dependency on the first access (a read).
    Dp(Dep),
    /// Reads-from.
    Rf,
    /// From-read: the read reads a write coherence-before the target.
    Fr,
    /// Coherence order.
    Ws,
}

/// One edge of a cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// What the edge relates.
    pub kind: EdgeKind,
    /// Whether its ends are in different threads (`e`) or one (`i`; every
    /// program-order edge).
    pub external: bool,
    /// Whether its ends access the same location.
    pub loc: SameLoc,
    /// The access it starts from.
    pub from: Dir,
    /// The access it ends at.
    pub to: Dir,
}

impl Edge {
    /// Reads the edge `text`, the `index`-th (from 1) of its cycle.
    pub fn parse(text: &str, index: usize) -> Result<Edge, GenError> {
        let bad = |why: &str| GenError::BadEdge {
            index,
            edge: text.to_string(),
            why: why.to_string(),
        };
        if let Some(edge) = communication(text) {
            return Ok(edge);
        }
        if let Some(rest) = text.strip_prefix("Po") {
            let (loc, from, to) = po_suffix(rest).ok_or_else(|| {
                bad("a program-order edge is `Pos` or `Pod` and two of R, W (`PodWR`)")
            })?;
            return Ok(internal(EdgeKind::Po, loc, from, to));
        }
        if let Some(rest) = text.strip_prefix("Fence.") {
            return fenced(rest).map_err(|why| bad(&why));
        }
        if text.starts_with("DpAddr") {
            return Err(GenError::Inexpressible {
                index,
                edge: text.to_string(),
                why: "the IR names locations and has no computed addresses, so it has no address dependency; DpData and DpCtrl are expressible".to_string(),
            });
        }
        for (prefix, dep) in [("DpData", Dep::Data), ("DpCtrl", Dep::Ctrl)] {
            if let Some(rest) = text.strip_prefix(prefix) {
                let mut chars = rest.chars();
                let loc = chars.next().and_then(loc_letter);
                let to = chars.next().and_then(Dir::from_char);
                let (Some(loc), Some(to), None) = (loc, to, chars.next()) else {
                    return Err(bad(&format!(
                        "a dependency is `{prefix}` then `s` or `d` then the target's R or W (`{prefix}dW`)"
                    )));
                };
                if dep == Dep::Data && to == Dir::R {
                    return Err(bad(
                        "a data dependency feeds a stored value, so it ends in a write (`DpDatadW`)",
                    ));
                }
                return Ok(internal(EdgeKind::Dp(dep), loc, Dir::R, to));
            }
        }
        Err(bad("not a diy7 edge; the edges are Pos/Pod + RR|RW|WR|WW, Rfe, Rfi, Fre, Fri, Wse, Wsi, Coe, Coi, Fence.<sem>.<scope> + s|d + two of R, W (Fence.sc.gpudWW), DpData + s|d + W, DpCtrl + s|d + R|W"))
    }
}

fn internal(kind: EdgeKind, loc: SameLoc, from: Dir, to: Dir) -> Edge {
    Edge {
        kind,
        external: false,
        loc,
        from,
        to,
    }
}

fn communication(text: &str) -> Option<Edge> {
    // `get`, not slicing: a non-ASCII edge is an error, not a panic.
    let (head, tail) = (text.get(..2)?, text.get(2..)?);
    let (kind, from, to) = match head {
        "Rf" => (EdgeKind::Rf, Dir::W, Dir::R),
        "Fr" => (EdgeKind::Fr, Dir::R, Dir::W),
        "Ws" | "Co" => (EdgeKind::Ws, Dir::W, Dir::W),
        _ => return None,
    };
    let external = match tail {
        "e" => true,
        "i" => false,
        _ => return None,
    };
    Some(Edge {
        kind,
        external,
        loc: SameLoc::Same,
        from,
        to,
    })
}

fn loc_letter(c: char) -> Option<SameLoc> {
    match c {
        's' => Some(SameLoc::Same),
        'd' => Some(SameLoc::Different),
        _ => None,
    }
}

/// `s`/`d` then two directions: the tail of `PodWR` and of fenced edges.
fn po_suffix(rest: &str) -> Option<(SameLoc, Dir, Dir)> {
    let mut chars = rest.chars();
    let loc = loc_letter(chars.next()?)?;
    let from = Dir::from_char(chars.next()?)?;
    let to = Dir::from_char(chars.next()?)?;
    chars.next().is_none().then_some((loc, from, to))
}

/// `<sem>.<scope>` + `s|d` + two directions, after `Fence.`.
fn fenced(rest: &str) -> Result<Edge, String> {
    let shape = "a fenced edge is `Fence.<sem>.<scope>` then `s` or `d` then two of R, W (`Fence.sc.gpudWW`)";
    let (sem, tail) = rest.split_once('.').ok_or(shape)?;
    let sem = match Sem::from_ptx(sem) {
        Some(s @ (Sem::Sc | Sem::AcqRel | Sem::Acquire | Sem::Release)) => s,
        _ => {
            return Err(format!(
                "unknown fence semantics `{sem}`; a fence is sc, acq_rel, acquire or release"
            ))
        }
    };
    let split = tail.len().checked_sub(3).ok_or(shape)?;
    let (scope, suffix) = tail.get(..split).zip(tail.get(split..)).ok_or(shape)?;
    let scope = Scope::from_ptx(scope).ok_or(format!(
        "unknown fence scope `{scope}`; the scopes are cta, cluster, gpu, sys"
    ))?;
    let (loc, from, to) = po_suffix(suffix).ok_or(shape)?;
    Ok(internal(EdgeKind::Fenced { sem, scope }, loc, from, to))
}
