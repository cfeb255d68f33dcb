//! A test's kin: the tests of a search set whose good configurations are
//! likely its own. On Hopper, which compiler built a module decides
//! whether a fence shows its weak outcomes (ptxas of CUDA 12 makes
//! `fence.acq_rel.cta` a bare `MEMBAR.ALL.CTA`, the driver's JIT does not;
//! `docs/findings.md`), and what a fence costs depends on the scope of the
//! accesses around it. So two tests are kin when they carry the same
//! fences (semantics and scope) and access memory at the same scopes,
//! whatever their shape: the credit a configuration earns on a test's kin
//! counts first when that test picks its next trial
//! ([`crate::family`]).
//!
//! ```
//! use litmus_tune::kin::Kin;
//! let parse = |s: &str| litmus_text::parse(s).unwrap();
//! let a = parse("PTX a\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n fence.acq_rel.cta | fence.acq_rel.cta ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
//! let b = parse("PTX b\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;\n fence.acq_rel.cta | ld.relaxed.gpu r1, y ;\n st.relaxed.gpu y, 1 | ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
//! let c = parse("PTX c\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n fence.acq_rel.gpu | fence.acq_rel.gpu ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n");
//! assert_eq!(Kin::of(&a), Kin::of(&b));
//! assert_ne!(Kin::of(&a), Kin::of(&c));
//! ```

use std::collections::BTreeSet;

use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;
use litmus_core::order::{Scope, Sem};

/// What makes two tests kin: their fences and the scopes of their
/// accesses, each as a set.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kin {
    fences: BTreeSet<(Sem, Scope)>,
    scopes: BTreeSet<Option<Scope>>,
}

impl Kin {
    /// The kin of `test`.
    pub fn of(test: &Test) -> Kin {
        let mut fences = BTreeSet::new();
        let mut scopes = BTreeSet::new();
        for i in test.threads.iter().flat_map(|t| &t.body) {
            match &i.kind {
                InstrKind::Fence { sem, scope, .. } => {
                    fences.insert((*sem, *scope));
                }
                InstrKind::Load { access, .. }
                | InstrKind::Store { access, .. }
                | InstrKind::Atom { access, .. } => {
                    scopes.insert(access.scope);
                }
                _ => {}
            }
        }
        Kin { fences, scopes }
    }

    /// Each test's class: the index of its kin among the distinct kin of
    /// `tests`, in order of first appearance; and how many classes.
    pub fn classes<'a>(tests: impl IntoIterator<Item = &'a Test>) -> (Vec<usize>, usize) {
        Kin::classes_of(tests.into_iter().map(Kin::of))
    }

    /// [`Kin::classes`] of kin already worked out.
    pub fn classes_of(kin: impl IntoIterator<Item = Kin>) -> (Vec<usize>, usize) {
        let mut seen: Vec<Kin> = Vec::new();
        let class = kin
            .into_iter()
            .map(|k| match seen.iter().position(|s| *s == k) {
                Some(i) => i,
                None => {
                    seen.push(k);
                    seen.len() - 1
                }
            })
            .collect();
        (class, seen.len())
    }
}
