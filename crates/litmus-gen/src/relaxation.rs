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

use litmus_core::instr::{Access, InstrKind, Sem};
use litmus_core::ir::Test;

use crate::canon::canonical;

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
