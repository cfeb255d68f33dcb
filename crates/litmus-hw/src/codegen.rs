//! How a test's module is built for the GPU beyond what the test says: the
//! target it is compiled for (`LITMUS_PTX_TARGET`), how its roles
//! address global memory (`LITMUS_ADDRESSING`), and (for
//! `LITMUS_CTA_SPREAD=by-lane`, see `arrangement.rs`) how far apart an
//! instance's CTAs lie: what a run asks of the generator (a
//! `litmus_ptx::Codegen`; `modules.rs` makes each module once a run). The
//! knobs at their defaults ask for the generator's default module. The
//! first two are where the published harness (cuda-litmus) differs from
//! ours: it builds its
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

use litmus_core::ir::Test;
use litmus_ptx::isa::SmArch;
use litmus_ptx::{Addressing, Codegen, Layout};

use super::arrangement::CtaSpread;
use super::{GpuError, Knobs};

/// The variable of [`PtxTarget`].
pub const PTX_TARGET_ENV: &str = "LITMUS_PTX_TARGET";
/// The variable of the roles' [`Addressing`].
pub const ADDRESSING_ENV: &str = "LITMUS_ADDRESSING";

/// What the knobs ask of the generator, the device aside.
pub(crate) fn of_knobs(k: &Knobs) -> Codegen {
    Codegen {
        addressing: k.addressing,
        spread_by_lane: k.cta_spread == CtaSpread::ByLane,
        dependent_launch: false,
    }
}

/// The variable of [`Knobs::dependent_launch`].
pub const DEPENDENT_LAUNCH_ENV: &str = "LITMUS_DEPENDENT_LAUNCH";

/// The first target with programmatic dependent launches.
const DEPENDENT_LAUNCH_ARCH: SmArch = SmArch::new(90);

/// What a run with `k` on a device of `arch` asks of the generator: the
/// knobs' codegen ([`of_knobs`]), and where the target the knobs build
/// for (the device's own unless `LITMUS_PTX_TARGET` names one) has
/// dependent launches, kernels that wait for the grid before them
/// ([`Codegen::dependent_launch`]), so that the harness may queue each
/// launch while the one before it drains: on an H200 at 2,048 × 64
/// stride 4, with a kernel and a classifier like ours, that took a launch
/// from 16.4 µs to 14.3 µs and raised no weak fraction less (MP 8.9e-3 to
/// 1.3e-2, WRC 3.1e-3 to 3.0e-3; `scripts/probes/dependent_launch.cu`).
/// Only a test on one GPU without host threads: the launches of the
/// others wait for the host between them anyway.
pub(crate) fn on_device(test: &Test, k: &Knobs, arch: SmArch) -> Result<Codegen, GpuError> {
    let plain = of_knobs(k);
    if !k.dependent_launch || k.ptx_target.on(arch) < DEPENDENT_LAUNCH_ARCH {
        return Ok(plain);
    }
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    Ok(Codegen {
        dependent_launch: !layout.multi_gpu() && !layout.has_start_flag(),
        ..plain
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

    /// Dependent launches: only where the target has them, the knob
    /// leaves them on, and the test runs on one GPU without host threads.
    #[test]
    fn kernels_wait_for_the_grid_before_them_only_where_launches_may_depend() {
        let test = litmus_text::parse(MP).unwrap();
        let k = Knobs::default();
        let hopper = SmArch::new(90);
        let waits = |test: &Test, k: &Knobs, arch: SmArch| {
            on_device(test, k, arch).unwrap().dependent_launch
        };
        assert!(waits(&test, &k, hopper));
        // Both kernels wait, and the module now needs sm_90 and PTX 7.8.
        let m = crate::Modules::of(&test).for_device(&k, hopper).unwrap();
        assert_eq!(m.matches("\tgriddepcontrol.wait;").count(), 2, "{m}");
        assert!(m.contains(".version 7.8\n.target sm_90\n"), "{m}");
        assert!(!waits(&test, &k, SmArch::new(80)));
        let off = Knobs {
            dependent_launch: false,
            ..Knobs::default()
        };
        assert!(!waits(&test, &off, hopper));
        let ampere_target = Knobs {
            ptx_target: PtxTarget::Arch(SmArch::new(80)),
            ..Knobs::default()
        };
        assert!(!waits(&test, &ampere_target, hopper));
        // A test on two GPUs, or with a host thread, waits for the host.
        let two = MP.replace("P1@cta 1,gpu 0", "P1@cta 0,gpu 1");
        let two = litmus_text::parse(&two).unwrap();
        assert!(!waits(&two, &k, hopper));
        let host = MP
            .replace("P1@cta 1,gpu 0", "P1@host")
            .replace(".gpu", ".sys")
            .replace("{ x=0; y=0; }", "{ host x=0; host y=0; }");
        let host = litmus_text::parse(&host).unwrap();
        assert!(!waits(&host, &k, hopper));
    }

    #[test]
    fn the_module_follows_both_knobs() {
        let test = litmus_text::parse(MP).unwrap();
        let ptx = litmus_ptx::generate(&test).unwrap();
        assert_eq!(of_knobs(&Knobs::default()), Codegen::default());
        let module = |k: &Knobs| {
            crate::Modules::with_default(&test, &ptx)
                .for_knobs(k)
                .unwrap()
        };
        let k = Knobs {
            addressing: Addressing::Generic,
            ..Knobs::default()
        };
        let m = module(&k);
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
        let m = module(&k);
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
        for (a, _) in litmus_ptx::isa::ARCHES {
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
