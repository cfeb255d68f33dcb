//! PTX generation for gpu-litmus: one module per test
//! ([`litmus_core::ir::Test`]), holding the test kernel
//! ([`layout::TEST_KERNEL`]) and the classification kernel
//! ([`layout::CLASSIFY_KERNEL`]). It sits between the IR (`litmus-core`),
//! which it reads, and the hardware (`litmus-hw`) and the toolchain
//! (`litmus-toolchain`), which load and compile what it writes.
//!
//! The harness follows the published parallel-testing designs (MC Mutants,
//! GPUHarbor): every GPU thread plays every role of the test, each for a
//! different instance; instance `i`'s role `k` runs in CTA
//! `(i / T - cta_offset(k)) mod C`, at a lane given by a per-role
//! permutation, so roles declared in one CTA share a CTA and roles declared
//! in different CTAs never do. Global locations of instance `i` sit at
//! `(j·N + perm_j(i))·stride` words, a second permutation per location.
//! The classifier folds each instance's outcome into a hash table on the
//! GPU, so only the histogram crosses to the host, and resets the
//! instance's memory for the next launch, so a launch is two kernels and no
//! memsets. PTX 7.5 aliases have no slot of their own: a generic alias is
//! its root's slot through a second virtual mapping, a texture alias a
//! texture fetch of it (see `proxies`).
//!
//! ```
//! use litmus_core::ir::*;
//! use litmus_core::instr::*;
//! let mut t = Test::new("st");
//! t.locations.push(Location { name: Name::new("x", Origin::NONE), space: Space::Global, gpu: 0, init: Imm::new(0, Origin::NONE), alias: None });
//! t.threads.push(Thread { name: Name::new("P0", Origin::NONE), placement: Placement::cta(0), init: vec![],
//!     body: vec![Instr::new(InstrKind::Store { loc: Name::new("x", Origin::NONE),
//!         value: Operand::Imm(Imm::new(1, Origin::NONE)), access: Access::WEAK, cache: None }, Origin::NONE)] });
//! let ptx = litmus_ptx::generate(&t).unwrap();
//! assert!(ptx.contains(".entry litmus_test("));
//! ```

#![warn(missing_docs)]

mod async_ops;
mod barriers;
mod classify;
mod common;
mod cta_table;
mod draw;
mod emit;
mod environment;
mod histogram;
mod instr;
mod interleave;
pub mod isa;
mod kernel;
pub mod layout;
mod plan;
mod proxies;
mod retry;
mod role;
mod role_ctx;
mod shared_slots;
mod start;

pub use layout::Layout;
pub use role_ctx::Addressing;

/// PTX ISA version of the modules before PTX 8.6 became a module's
/// version only where it needs it: the newest a module may say, since the
/// one-sided fences are the newest instructions the generator writes.
pub const PTX_VERSION: &str = "8.6";
/// Target of the newest modules: Hopper, for `.cluster` scope. A module
/// says the lowest target its instructions need ([`isa::Needs`]); the GPU
/// half retargets it to the device.
pub const PTX_TARGET: &str = "sm_90";

/// Why a test has no PTX.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PtxError {
    /// The test is valid, but the generated harness cannot run it (shared
    /// memory on several GPUs, CTA barriers beside clusters, ...).
    #[error("the GPU harness cannot run this test: {0}")]
    Unsupported(String),
    /// The test fails validation; the message lists the errors.
    #[error("the test is not valid: {0}")]
    Invalid(String),
}

/// Generates the PTX module of a test. The test must be valid
/// ([`litmus_core::validate()`]); an invalid one gives [`PtxError::Invalid`].
pub fn generate(test: &litmus_core::ir::Test) -> Result<String, PtxError> {
    generate_with(test, Codegen::default())
}

/// How a module differs from [`generate`]'s, for the harness's codegen
/// knobs. Each is generated only when asked, so that the default module
/// stays the one every GPU run has checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Codegen {
    /// How the roles' global accesses are addressed
    /// (`LITMUS_ADDRESSING`).
    pub addressing: Addressing,
    /// An instance's CTAs `2·lane + 1` units apart (times their declared
    /// offset) instead of neighbouring (`LITMUS_CTA_SPREAD=by-lane`): the
    /// lanes of one warp meet their partners in different CTAs. A shift
    /// per lane is a bijection on the units, and an odd distance keeps
    /// different declared CTAs apart. Every-role mode only.
    pub spread_by_lane: bool,
    /// Both kernels wait for the grid before them in their stream to
    /// finish (`griddepcontrol.wait`) before they touch global memory, so
    /// that the harness may launch each while the one before it drains
    /// (a programmatic dependent launch, `sm_90` and later). Without such
    /// a launch the wait returns at once.
    pub dependent_launch: bool,
}

/// The instruction that makes a kernel wait for the grid before it when
/// both were launched as programmatic dependents
/// ([`Codegen::dependent_launch`]); a module that has it may be launched
/// so.
pub const DEPENDENT_WAIT: &str = "griddepcontrol.wait";

/// [`generate`], with the differences `codegen` asks for.
pub fn generate_with(test: &litmus_core::ir::Test, codegen: Codegen) -> Result<String, PtxError> {
    if let Err(errors) = litmus_core::validate(test) {
        return Err(PtxError::Invalid(
            errors
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        ));
    }
    let layout = Layout::of(test)?;
    let mut out = emit::Emitter::default();
    out.raw(&format!(
        "// gpu-litmus: test `{}`, {} roles, {} observables\n",
        test.name,
        layout.roles.len(),
        layout.observables.len()
    ));
    let mut body = emit::Emitter::default();
    kernel::test_kernel(test, &layout, codegen, &mut body)?;
    classify::classify_kernel(test, &layout, codegen, &mut body);
    let body = body.finish();
    // The header last: it is the lowest version and target that every
    // instruction of the body exists on, so the module is portable.
    out.raw(&isa::header(&isa::Needs::of(&body)));
    out.raw("\n");
    out.raw(&body);
    Ok(out.finish())
}
