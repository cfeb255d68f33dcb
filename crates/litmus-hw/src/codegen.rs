//! How a test's module is built for the GPU beyond what the test says: the
//! target it is compiled for (`LITMUS_PTX_TARGET`), how its roles
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
//! The target is the device's own by default; `toolchain.rs` retargets
//! the module and refuses, in one line, a target without an instruction
//! the module uses (`.cluster` scope needs `sm_90`).

use std::borrow::Cow;

use litmus_core::ir::Test;
use litmus_core::ptx::isa::SmArch;
use litmus_core::ptx::{generate_with, Addressing, Codegen};

use super::arrangement::CtaSpread;
use super::{GpuError, Knobs};

/// The variable of [`PtxTarget`].
pub const PTX_TARGET_ENV: &str = "LITMUS_PTX_TARGET";
/// The variable of the roles' [`Addressing`].
pub const ADDRESSING_ENV: &str = "LITMUS_ADDRESSING";

/// The module a run loads: `ptx` (the test's, as its caller generated it)
/// regenerated from `test` when the knobs ask for generic addressing or a
/// CTA spread by lane. The target comes later, from the device
/// (`toolchain`).
pub(crate) fn module_for<'a>(
    test: &Test,
    ptx: &'a str,
    k: &Knobs,
) -> Result<Cow<'a, str>, GpuError> {
    let codegen = Codegen {
        addressing: k.addressing,
        spread_by_lane: k.cta_spread == CtaSpread::ByLane,
    };
    Ok(match codegen == Codegen::default() {
        true => Cow::Borrowed(ptx),
        false => Cow::Owned(generate_with(test, codegen).map_err(GpuError::Ptx)?),
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
    /// The device's own architecture (`sm_86` on an A10G).
    #[default]
    Native,
    /// A fixed target since Volta: older than the device's, the driver
    /// compiles it forward (the published harness builds for `sm_80`); a
    /// newer one cannot run there, and the run says so.
    Arch(SmArch),
}

impl PtxTarget {
    /// `native`, or the target's name (`sm_80`).
    pub fn as_str(self) -> String {
        match self {
            PtxTarget::Native => "native".into(),
            PtxTarget::Arch(a) => a.to_string(),
        }
    }

    /// Reads `LITMUS_PTX_TARGET`'s value.
    pub fn parse(text: &str) -> Result<PtxTarget, GpuError> {
        if text.trim() == "native" {
            return Ok(PtxTarget::Native);
        }
        SmArch::parse(text)
            .filter(|_| text.trim().starts_with("sm_"))
            .map(PtxTarget::Arch)
            .ok_or_else(|| {
                GpuError::knob(
                    PTX_TARGET_ENV,
                    text,
                    &format!("`native` or one of {}", SmArch::known()),
                )
            })
    }

    /// The target on a device of architecture `device`.
    pub fn on(self, device: SmArch) -> SmArch {
        match self {
            PtxTarget::Native => device,
            PtxTarget::Arch(a) => a,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

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
            ..Knobs::default()
        };
        let m = module_for(&test, &ptx, &k).unwrap();
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
        for (a, _) in litmus_core::ptx::isa::ARCHES {
            let t = PtxTarget::parse(&a.to_string()).unwrap();
            assert_eq!((t, t.on(SmArch::new(90))), (PtxTarget::Arch(a), a));
        }
        let native = PtxTarget::parse("native").unwrap();
        assert_eq!(native.on(SmArch::new(86)), SmArch::new(86));
        for bad in ["sm_61", "86", "ampere"] {
            let e = PtxTarget::parse(bad).unwrap_err().to_string();
            assert!(
                e.contains("LITMUS_PTX_TARGET") && e.contains("`native` or one of sm_70, sm_72"),
                "{e}"
            );
        }
    }
}
