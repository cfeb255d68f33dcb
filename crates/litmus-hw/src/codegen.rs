//! How a test's module is built for the GPU beyond what the test says: the
//! target the driver compiles it for (`LITMUS_PTX_TARGET`), how its roles
//! address global memory (`LITMUS_ADDRESSING`), and (for
//! `LITMUS_CTA_SPREAD=by-lane`, see `arrangement.rs`) how far apart an
//! instance's CTAs lie. A knob at its default leaves the caller's module
//! as it is. The first two are where the
//! published harness (cuda-litmus) differs from ours: it builds its
//! kernels with `nvcc -arch sm_80`, so on a Hopper GPU the driver
//! JIT-compiles PTX for `sm_80`, and its `cuda::atomic` accesses go
//! through generic addresses, where ours are generated for `sm_90` with
//! `.global` ones. Neither changes what PTX means; whether the hardware
//! runs them alike is the question, so they are knobs: an earlier
//! version of that harness shows `fence.acq_rel.cta` between CTAs weak on
//! an H100 at rates of 1e-8 to 2e-4, where this one, as generated, showed
//! none in 4e9 to 8e9 instances a test (that version also spread each
//! lane's CTAs apart: `LITMUS_CTA_SPREAD`).
//!
//! A module that uses what only a newer target has (`.cluster` scope,
//! distributed shared memory) does not compile for an older one: the
//! driver's message says what, and the run fails with it. (The H100's
//! driver does compile `fence.acquire` for `sm_80`.)

use std::borrow::Cow;

use litmus_core::ir::Test;
use litmus_core::ptx::{generate_with, Addressing, Codegen, PTX_TARGET};

use super::arrangement::CtaSpread;
use super::{GpuError, Knobs};

/// The variable of [`PtxTarget`].
pub const PTX_TARGET_ENV: &str = "LITMUS_PTX_TARGET";
/// The variable of the roles' [`Addressing`].
pub const ADDRESSING_ENV: &str = "LITMUS_ADDRESSING";

/// The module a run loads: `ptx` (the test's, as its caller generated it)
/// regenerated from `test` when the knobs ask for generic addressing or a
/// CTA spread by lane, and retargeted when they ask for another target.
pub(crate) fn module_for<'a>(
    test: &Test,
    ptx: &'a str,
    k: &Knobs,
) -> Result<Cow<'a, str>, GpuError> {
    let codegen = Codegen {
        addressing: k.addressing,
        spread_by_lane: k.cta_spread == CtaSpread::ByLane,
    };
    let ptx = match codegen == Codegen::default() {
        true => Cow::Borrowed(ptx),
        false => Cow::Owned(generate_with(test, codegen).map_err(GpuError::Ptx)?),
    };
    Ok(match k.ptx_target.retarget(&ptx) {
        Cow::Borrowed(_) => ptx,
        Cow::Owned(text) => Cow::Owned(text),
    })
}

/// `global` or `generic`.
pub fn addressing_name(a: Addressing) -> &'static str {
    match a {
        Addressing::Global => "global",
        Addressing::Generic => "generic",
    }
}

/// Reads `LITMUS_ADDRESSING`'s value.
pub fn parse_addressing(text: &str) -> Result<Addressing, GpuError> {
    match text.trim() {
        "global" => Ok(Addressing::Global),
        "generic" => Ok(Addressing::Generic),
        _ => Err(GpuError::knob(
            ADDRESSING_ENV,
            text,
            "`global` or `generic`",
        )),
    }
}

/// The `.target` a test's module is compiled for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PtxTarget {
    /// As generated: Hopper.
    #[default]
    Sm90,
    /// Ampere, as the published harness builds its kernels.
    Sm80,
    /// Volta, the first target with the PTX memory model's scopes.
    Sm70,
}

impl PtxTarget {
    /// Every target, newest first.
    pub const ALL: [PtxTarget; 3] = [PtxTarget::Sm90, PtxTarget::Sm80, PtxTarget::Sm70];

    /// `sm_90`, `sm_80` or `sm_70`.
    pub fn as_str(self) -> &'static str {
        match self {
            PtxTarget::Sm90 => "sm_90",
            PtxTarget::Sm80 => "sm_80",
            PtxTarget::Sm70 => "sm_70",
        }
    }

    /// Reads `LITMUS_PTX_TARGET`'s value.
    pub fn parse(text: &str) -> Result<PtxTarget, GpuError> {
        PtxTarget::ALL
            .into_iter()
            .find(|t| t.as_str() == text.trim())
            .ok_or_else(|| GpuError::knob(PTX_TARGET_ENV, text, "`sm_90`, `sm_80` or `sm_70`"))
    }

    /// `ptx` with its `.target` line set to this target (unchanged at the
    /// generated one).
    pub fn retarget(self, ptx: &str) -> Cow<'_, str> {
        let generated = format!("\n.target {PTX_TARGET}\n");
        if self.as_str() == PTX_TARGET || !ptx.contains(&generated) {
            return Cow::Borrowed(ptx);
        }
        Cow::Owned(ptx.replacen(&generated, &format!("\n.target {}\n", self.as_str()), 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    #[test]
    fn retargeting_changes_the_target_line_and_nothing_else() {
        let ptx = litmus_core::ptx::generate(&litmus_core::text::parse(MP).unwrap()).unwrap();
        assert!(matches!(PtxTarget::Sm90.retarget(&ptx), Cow::Borrowed(_)));
        let old = PtxTarget::Sm80.retarget(&ptx);
        assert!(old.contains("\n.target sm_80\n") && !old.contains("sm_90"));
        let back: Vec<&str> = old.lines().filter(|l| !l.starts_with(".target")).collect();
        let orig: Vec<&str> = ptx.lines().filter(|l| !l.starts_with(".target")).collect();
        assert_eq!(back, orig);
    }

    #[test]
    fn the_module_follows_both_knobs() {
        let test = litmus_core::text::parse(MP).unwrap();
        let ptx = litmus_core::ptx::generate(&test).unwrap();
        let k = Knobs::default();
        assert!(matches!(
            module_for(&test, &ptx, &k).unwrap(),
            Cow::Borrowed(_)
        ));
        let k = Knobs {
            addressing: Addressing::Generic,
            ptx_target: PtxTarget::Sm80,
            ..Knobs::default()
        };
        let m = module_for(&test, &ptx, &k).unwrap();
        assert!(m.contains("\n.target sm_80\n"));
        assert!(
            m.contains("ld.relaxed.gpu.u32 %t1r0")
                && !m.contains("ld.relaxed.gpu.global.u32 %t1r0")
        );
        // The CTA spread regenerates the module: role 1's CTA is
        // `2·lane + 1` on (one more `or.b32 s, s, 1`).
        let k = Knobs {
            cta_spread: CtaSpread::ByLane,
            ..Knobs::default()
        };
        let m = module_for(&test, &ptx, &k).unwrap();
        let ors = |t: &str| {
            t.lines()
                .filter(|l| l.trim().starts_with("or.b32") && l.ends_with(", 1;"))
                .count()
        };
        assert_eq!(ors(&m), ors(&ptx) + 1);
        for a in [Addressing::Global, Addressing::Generic] {
            assert_eq!(parse_addressing(addressing_name(a)).unwrap(), a);
        }
        let e = parse_addressing("flat").unwrap_err().to_string();
        assert!(
            e.contains("LITMUS_ADDRESSING") && e.contains("`generic`"),
            "{e}"
        );
    }

    #[test]
    fn every_target_reads_back_and_a_bad_one_says_what_is_accepted() {
        for t in PtxTarget::ALL {
            assert_eq!(PtxTarget::parse(t.as_str()).unwrap(), t);
        }
        let e = PtxTarget::parse("sm_75").unwrap_err().to_string();
        assert!(
            e.contains("LITMUS_PTX_TARGET") && e.contains("`sm_80`"),
            "{e}"
        );
    }
}
