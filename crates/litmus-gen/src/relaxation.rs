//! A test's relaxation: the same threads, placements and condition with
//! every fence taken out and every strong access made relaxed. Variants
//! that differ only in fences and access semantics share one, so it names
//! the family a search can learn from: the weak outcome of a fenced variant
//! is a subset of its relaxation's behaviour, and on the hardware a fenced
//! variant whose relaxation never shows its weak outcome has not shown it
//! either (the 414 cuda-litmus variants whose every relaxation-mate went
//! unseen in the published H100 campaign were all unseen there too).
//!
//! ```
//! use litmus_gen::relaxation::relaxation_key;
//! let text = |body: &str| format!(
//!     "PTX MP\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n{body}exists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
//! let fenced = litmus_text::parse(&text(
//!     " st.relaxed.gpu x, 1 | ld.acquire.gpu r0, y ;\n fence.sc.gpu | ld.relaxed.gpu r1, x ;\n st.relaxed.gpu y, 1 | ;\n")).unwrap();
//! let plain = litmus_text::parse(&text(
//!     " st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\n")).unwrap();
//! assert_eq!(relaxation_key(&fenced), relaxation_key(&plain));
//! ```
//!
//! Among the variants of one relaxation, a [`Standing`] orders them: a
//! variant is at most as strong as another when each of its fences and
//! access semantics is, place by place. On the hardware what a stronger
//! variant shows a weaker one shows too, so a search that has not yet seen
//! a weaker variant's weak outcome need not spend on the stronger ones.

use litmus_core::instr::{Access, Instr, InstrKind, Scope, Sem};
use litmus_core::ir::Test;

use crate::canon::{canonical, canonical_orders};

/// `test` with its fences removed and its acquire, release, acq_rel and sc
/// accesses made relaxed at the same scope (weak and volatile accesses, and
/// every other instruction, stay as written).
pub fn relaxation(test: &Test) -> Test {
    let mut t = test.clone();
    for thread in &mut t.threads {
        thread
            .body
            .retain(|i| !matches!(i.kind, InstrKind::Fence { .. }));
        for instr in &mut thread.body {
            match &mut instr.kind {
                InstrKind::Load { access, .. }
                | InstrKind::Store { access, .. }
                | InstrKind::Atom { access, .. } => relax(access),
                _ => {}
            }
        }
    }
    t
}

/// The canonical text of [`relaxation`]: equal for two tests that differ
/// only in fences, access semantics and names.
pub fn relaxation_key(test: &Test) -> String {
    canonical(&relaxation(test))
}

/// Where a test stands among the variants of its relaxation.
///
/// ```
/// use litmus_gen::relaxation::Standing;
/// let sb = |fence: &str| litmus_text::parse(&format!(
///     "PTX SB\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n{fence} ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n")).unwrap();
/// let none = Standing::of(&sb(""));
/// let one = Standing::of(&sb(" fence.sc.cta | ;\n"));
/// let both = Standing::of(&sb(" fence.sc.gpu | fence.sc.cta ;\n"));
/// assert!(none.at_most(&one) && one.at_most(&both) && none.at_most(&both));
/// assert!(!both.at_most(&one));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// The relaxation's key ([`relaxation_key`]).
    pub key: String,
    /// For each thread order that prints the key, the rank of every place
    /// in those threads: before each instruction of the relaxation the
    /// fences there, then the instruction's own semantics; after a
    /// thread's last instruction, the fences there.
    places: Vec<Vec<Rank>>,
}

/// How strong one place is, in two parts compared separately (a
/// `fence.sc.cta` is neither weaker nor stronger than a
/// `fence.acq_rel.gpu`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rank {
    sem: u8,
    scope: u8,
}

impl Rank {
    fn at_most(self, other: Rank) -> bool {
        self.sem <= other.sem && self.scope <= other.scope
    }

    fn max(self, other: Rank) -> Rank {
        Rank {
            sem: self.sem.max(other.sem),
            scope: self.scope.max(other.scope),
        }
    }

    /// An access's scope is its relaxation's too (the key holds it), so
    /// only a fence's counts here.
    fn of(sem: Sem, scope: Option<Scope>) -> Rank {
        let sem = match sem {
            Sem::Weak | Sem::Relaxed | Sem::Volatile => 0,
            Sem::Acquire | Sem::Release => 1,
            Sem::AcqRel => 2,
            Sem::Sc => 3,
        };
        let scope = match scope {
            None => 0,
            Some(Scope::Cta) => 1,
            Some(Scope::Cluster) => 2,
            Some(Scope::Gpu) => 3,
            Some(Scope::Sys) => 4,
        };
        Rank { sem, scope }
    }
}

impl Standing {
    /// `test`'s standing.
    pub fn of(test: &Test) -> Standing {
        let (key, orders) = canonical_orders(&relaxation(test));
        let places = orders
            .iter()
            .map(|order| {
                order
                    .iter()
                    .flat_map(|&i| places_of(&test.threads[i].body))
                    .collect()
            })
            .collect();
        Standing { key, places }
    }

    /// Whether this variant is at most as strong as `other`: the same
    /// relaxation, and with their threads lined up (any way the key
    /// allows) no place stronger than `other`'s.
    pub fn at_most(&self, other: &Standing) -> bool {
        let Some(mine) = self.places.first() else {
            return false;
        };
        self.key == other.key
            && other.places.iter().any(|theirs| {
                mine.len() == theirs.len() && mine.iter().zip(theirs).all(|(a, b)| a.at_most(*b))
            })
    }
}

/// The places of one thread's body, as [`Standing`] lists them.
fn places_of(body: &[Instr]) -> Vec<Rank> {
    let mut out = Vec::new();
    let mut fences = Rank::default();
    for instr in body {
        let own = match &instr.kind {
            InstrKind::Fence { sem, scope, .. } => {
                fences = fences.max(Rank::of(*sem, Some(*scope)));
                continue;
            }
            InstrKind::Load { access, .. }
            | InstrKind::Store { access, .. }
            | InstrKind::Atom { access, .. } => Rank::of(access.sem, None),
            _ => Rank::default(),
        };
        out.push(std::mem::take(&mut fences));
        out.push(own);
    }
    out.push(fences);
    out
}

fn relax(access: &mut Access) {
    if matches!(
        access.sem,
        Sem::Acquire | Sem::Release | Sem::AcqRel | Sem::Sc
    ) {
        access.sem = Sem::Relaxed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Test {
        litmus_text::parse(text).expect("the test parses")
    }

    const SB: &str = "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n";

    #[test]
    fn fences_and_semantics_do_not_change_the_key() {
        let fenced = SB
            .replace(
                " ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;",
                " fence.sc.cta | fence.acq_rel.gpu ;\n ld.acquire.gpu r0, y | ld.relaxed.gpu r1, x ;",
            )
            .replace("st.relaxed.gpu y", "st.release.gpu y");
        assert_ne!(fenced, SB);
        assert_eq!(relaxation_key(&parse(&fenced)), relaxation_key(&parse(SB)));
        let relaxed = relaxation(&parse(&fenced));
        assert!(relaxed
            .threads
            .iter()
            .flat_map(|t| &t.body)
            .all(|i| !matches!(i.kind, InstrKind::Fence { .. })));
    }

    #[test]
    fn placement_scope_and_condition_change_the_key() {
        let key = relaxation_key(&parse(SB));
        let one_cta = SB.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 0");
        let cta_scope = SB.replace("st.relaxed.gpu x", "st.relaxed.cta x");
        let other_outcome = SB.replace("P1:r1 == 0", "P1:r1 == 1");
        for other in [one_cta, cta_scope, other_outcome] {
            assert_ne!(relaxation_key(&parse(&other)), key, "{other}");
        }
    }
}
