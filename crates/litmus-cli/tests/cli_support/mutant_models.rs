//! The cat model and tests the `mutants` and enumerated `diff`/`mutants`
//! CLI tests share.

/// Coherence, and a check that forbids only a one-step `po; fr`: SB's
/// weak outcome needs two, so the model allows it, and the mutant that
/// makes the check `acyclic` forbids it (which no given test shows).
pub const TINY: &str = "\"tiny\"
acyclic po-loc | rf | co | fr as coherence
irreflexive po; fr as sb
";

/// SB, no verdict declared and no evidence: what makes the `acyclic`
/// mutant stronger on these tests, and nothing kills a mutant on it.
pub const SB: &str = "PTX sb
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1  | st.relaxed.gpu y, 1  ;
 ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, x ;
exists (P0:r0 == 0 /\\ P1:r0 == 0)
";

/// CoRR, declared forbidden: what coherence is for.
pub const CORR: &str = "PTX corr
{ x=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x ;
                     | ld.relaxed.gpu r1, x ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => forbidden
";
