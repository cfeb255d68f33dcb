//! What one role's instructions refer to (its registers, the addresses
//! of its slots, its labels and loop bound) and how its global accesses
//! are addressed: what every emitter of a role's instructions reads, the
//! plain ones ([`crate::instr`]) and the async proxy's
//! ([`crate::async_ops`]) alike.

use std::collections::BTreeMap;

use litmus_core::ir::{Operand, Space};

use crate::emit::Emitter;
use crate::PtxError;

/// How a role's accesses reach global (and mapped host) memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Addressing {
    /// Through the `.global` state space (`ld.relaxed.gpu.global.u32`).
    #[default]
    Global,
    /// Through generic addresses (`ld.relaxed.gpu.u32`), as libcu++'s
    /// `cuda::atomic` does and so the published harnesses' kernels: the
    /// same memory and the same PTX semantics, another path through the
    /// SM (generic loads and stores, `LD`/`ST`, not `LDG`/`STG`).
    Generic,
}

/// What one role's instructions refer to.
pub(crate) struct RoleCtx {
    /// Test register name → PTX register.
    pub regs: BTreeMap<String, String>,
    /// Location name → its space and address register (64-bit for global,
    /// 32-bit for shared; a cluster-shared location's in the cluster's
    /// window).
    pub addrs: BTreeMap<String, (Space, String)>,
    /// Shared location name → the address of the instance's slot in this
    /// CTA's own window (`.shared::cta`), where this CTA holds it: what
    /// `mbarrier.try_wait` and a bulk store's source need.
    pub local: BTreeMap<String, String>,
    /// Texture alias name → its texture object and the texel (the slot's
    /// word in the location buffer) this role's instance reads.
    pub textures: BTreeMap<String, (String, String)>,
    /// Label name → (its index in the body, its PTX label).
    pub labels: BTreeMap<String, (usize, String)>,
    /// Counts backward branches taken.
    pub iters: String,
    pub loop_bound: String,
    /// Where a role goes when it has looped too often.
    pub giveup: String,
    /// Instruction index → (hardware barrier, thread count) of this role's
    /// CTA barriers (role-per-warp mode).
    pub barriers: BTreeMap<usize, (u32, u32)>,
    /// How the role's global accesses are addressed.
    pub addressing: Addressing,
}

impl RoleCtx {
    pub(crate) fn reg(&self, name: &str) -> Result<&str, PtxError> {
        self.regs
            .get(name)
            .map(String::as_str)
            .ok_or_else(|| PtxError::Invalid(format!("unknown register `{name}`")))
    }

    /// A register holding the operand: immediates are moved into a fresh
    /// one, since PTX stores and atomics take registers.
    pub(crate) fn value(&self, op: &Operand, out: &mut Emitter) -> Result<String, PtxError> {
        match op {
            Operand::Reg(name) => Ok(self.reg(&name.text)?.to_string()),
            Operand::Imm(imm) => {
                let r = out.r32();
                out.ins(format!("mov.u32 {r}, {}", imm.value as u32));
                Ok(r)
            }
        }
    }

    pub(crate) fn addr(&self, loc: &str) -> Result<(&'static str, String), PtxError> {
        let (space, reg) = self
            .addrs
            .get(loc)
            .ok_or_else(|| PtxError::Invalid(format!("unknown location `{loc}`")))?;
        let space = match space {
            // Mapped page-locked host memory is reached through global
            // addresses: its device pointer lies in the global window.
            Space::Global | Space::Host => match self.addressing {
                Addressing::Global => ".global",
                Addressing::Generic => "",
            },
            Space::Shared => ".shared",
            Space::SharedCluster => ".shared::cluster",
        };
        Ok((space, format!("[{reg}]")))
    }
}
