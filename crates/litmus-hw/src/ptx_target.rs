//! Which ISA target the driver compiles a test's module for
//! (`LITMUS_PTX_TARGET`). The generated PTX says `.target sm_90`; the
//! published harness (cuda-litmus) builds its kernels with `nvcc -arch
//! sm_80`, so on a Hopper GPU the driver JIT-compiles PTX for `sm_80`.
//! Whether a fence compiled that way behaves as ours do is a question for
//! the hardware, so the target is a knob: its campaign's H100 log shows
//! `fence.acq_rel.cta` between CTAs at weak rates of 1e-8 to 2e-4 where
//! this harness, at `sm_90`, showed none in 4e9 to 7e9 instances a test.
//!
//! A module that uses what only a newer target has (`.cluster` scope,
//! `fence.acquire`, distributed shared memory) does not compile for an
//! older one: the driver's message says what, and the run fails with it.

use std::borrow::Cow;

use litmus_core::ptx::PTX_TARGET;

use super::GpuError;

/// The variable of [`PtxTarget`].
pub const PTX_TARGET_ENV: &str = "LITMUS_PTX_TARGET";

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
