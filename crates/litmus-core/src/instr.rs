//! Instructions of a litmus thread and their PTX qualifiers.
//!
//! Qualifiers are stored as written; which combinations PTX allows is
//! decided by [`crate::validate()`], so that a mistake gets a message rather
//! than being unrepresentable.

use crate::async_proxy::AsyncOp;
use crate::operand::{Imm, Name, Operand, Origin};
use crate::proxy::{Proxy, ProxyFenceKind};

pub use crate::order::{Scope, Sem};

/// The semantics and scope of a memory access, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Access {
    /// The ordering semantics.
    pub sem: Sem,
    /// `None` when no scope was written: required for relaxed, acquire and
    /// release; absent on weak and volatile accesses.
    pub scope: Option<Scope>,
}

impl Access {
    /// A weak access with no scope: what a plain `ld`/`st` is.
    pub const WEAK: Access = Access {
        sem: Sem::Weak,
        scope: None,
    };

    /// A strong access: `sem` with a written `scope`.
    pub fn new(sem: Sem, scope: Scope) -> Access {
        Access {
            sem,
            scope: Some(scope),
        }
    }
}

/// A PTX cache operator on a weak load or store. The model ignores it; the
/// generated PTX keeps it, because hardware does not ignore it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CacheOp {
    /// Loads: cache at all levels.
    Ca,
    /// Loads and stores: cache in L2, not L1.
    Cg,
    /// Loads and stores: evict first (streaming).
    Cs,
    /// Loads: last use.
    Lu,
    /// Loads: do not cache, fetch again.
    Cv,
    /// Stores: write back.
    Wb,
    /// Stores: write through.
    Wt,
}

impl CacheOp {
    /// Every variant, for lookups by spelling.
    pub const ALL: [CacheOp; 7] = [
        CacheOp::Ca,
        CacheOp::Cg,
        CacheOp::Cs,
        CacheOp::Lu,
        CacheOp::Cv,
        CacheOp::Wb,
        CacheOp::Wt,
    ];

    /// The variant PTX spells `word` (without the dot): the inverse of
    /// `as_str`, shared by the text reader and the macro.
    pub fn from_ptx(word: &str) -> Option<CacheOp> {
        CacheOp::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheOp::Ca => "ca",
            CacheOp::Cg => "cg",
            CacheOp::Cs => "cs",
            CacheOp::Lu => "lu",
            CacheOp::Cv => "cv",
            CacheOp::Wb => "wb",
            CacheOp::Wt => "wt",
        }
    }

    /// Whether PTX accepts this operator on `ld`.
    pub fn allowed_on_load(self) -> bool {
        matches!(
            self,
            CacheOp::Ca | CacheOp::Cg | CacheOp::Cs | CacheOp::Lu | CacheOp::Cv
        )
    }

    /// Whether PTX accepts this operator on `st`.
    pub fn allowed_on_store(self) -> bool {
        matches!(self, CacheOp::Wb | CacheOp::Cg | CacheOp::Cs | CacheOp::Wt)
    }
}

/// How a fence was spelled. All spellings of `fence.sc` mean the same to the
/// model; the PTX generator and the text printer keep the spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FenceSpelling {
    /// `fence.<sem>.<scope>`.
    Fence,
    /// `membar.cta` / `membar.gl` / `membar.sys` (= `fence.sc` of that scope).
    Membar,
}

/// Read-modify-write operations of `atom` and `red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomOp {
    /// `exch`: writes the operand, returns the old value.
    Exch,
    /// `add`: addition modulo 2^32.
    Add,
    /// `sub`: subtraction modulo 2^32.
    Sub,
    /// `and`: bitwise and.
    And,
    /// `or`: bitwise or.
    Or,
    /// `xor`: bitwise exclusive or.
    Xor,
    /// `min`: the smaller value, compared unsigned (`.u32`).
    Min,
    /// `max`: the larger value, compared unsigned (`.u32`).
    Max,
    /// `inc`: `old >= operand ? 0 : old + 1` (unsigned, as PTX defines it).
    Inc,
    /// `dec`: `old == 0 || old > operand ? operand : old - 1` (unsigned, as PTX defines it).
    Dec,
    /// Compare and swap: `operand` is the compared value, `new` the value
    /// written when the comparison succeeds.
    Cas,
}

impl AtomOp {
    /// Every variant, for lookups by spelling.
    pub const ALL: [AtomOp; 11] = [
        AtomOp::Exch,
        AtomOp::Add,
        AtomOp::Sub,
        AtomOp::And,
        AtomOp::Or,
        AtomOp::Xor,
        AtomOp::Min,
        AtomOp::Max,
        AtomOp::Inc,
        AtomOp::Dec,
        AtomOp::Cas,
    ];

    /// The variant PTX spells `word` (without the dot): the inverse of
    /// `as_str`, shared by the text reader and the macro.
    pub fn from_ptx(word: &str) -> Option<AtomOp> {
        AtomOp::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            AtomOp::Exch => "exch",
            AtomOp::Add => "add",
            AtomOp::Sub => "sub",
            AtomOp::And => "and",
            AtomOp::Or => "or",
            AtomOp::Xor => "xor",
            AtomOp::Min => "min",
            AtomOp::Max => "max",
            AtomOp::Inc => "inc",
            AtomOp::Dec => "dec",
            AtomOp::Cas => "cas",
        }
    }
}

/// Register arithmetic (`dst = a op b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `add`: addition modulo 2^32.
    Add,
    /// `sub`: subtraction modulo 2^32.
    Sub,
    /// `mul`: multiplication modulo 2^32 (`mul.lo`).
    Mul,
    /// `and`: bitwise and.
    And,
    /// `or`: bitwise or.
    Or,
    /// `xor`: bitwise exclusive or.
    Xor,
}

impl BinOp {
    /// Every variant, for lookups by spelling.
    pub const ALL: [BinOp; 6] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
    ];

    /// The variant PTX spells `word` (without the dot): the inverse of
    /// `as_str`, shared by the text reader and the macro.
    pub fn from_ptx(word: &str) -> Option<BinOp> {
        BinOp::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
        }
    }
}

/// CTA barrier flavours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierKind {
    /// Arrive and wait (`bar.sync`, `bar.cta.sync`).
    Sync,
    /// Arrive without waiting (`bar.arrive`, `bar.cta.arrive`): takes part
    /// in completion, receives no synchronisation.
    Arrive,
}

/// Branch conditions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchCond {
    /// `beq a, b, L`.
    Eq,
    /// `bne a, b, L`.
    Ne,
}

/// One instruction with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instr {
    /// What the instruction does.
    pub kind: InstrKind,
    /// Where it was written, for error messages.
    pub origin: Origin,
}

impl Instr {
    /// An instruction of `kind` written at `origin`.
    pub fn new(kind: InstrKind, origin: Origin) -> Instr {
        Instr { kind, origin }
    }
}

/// The instruction set of a litmus thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InstrKind {
    /// `ld.<sem>.<scope> dst, loc`.
    Load {
        /// The register loaded into.
        dst: Name,
        /// The location read.
        loc: Name,
        /// Semantics and scope as written.
        access: Access,
        /// The cache operator, if one was written (weak loads only).
        cache: Option<CacheOp>,
    },
    /// `st.<sem>.<scope> loc, value`.
    Store {
        /// The location written.
        loc: Name,
        /// The value stored: a register or a constant.
        value: Operand,
        /// Semantics and scope as written.
        access: Access,
        /// The cache operator, if one was written (weak stores only).
        cache: Option<CacheOp>,
    },
    /// `fence.<sem>.<scope>` or `membar.<level>`; the seed names `TFB`,
    /// `TF` and `TFS` are `membar.cta`, `membar.gl` and `membar.sys`.
    Fence {
        /// The ordering semantics (`Sc` for every `membar`).
        sem: Sem,
        /// The scope (`membar.gl` is `Gpu`).
        scope: Scope,
        /// How it was written, so printing gives it back.
        spelling: FenceSpelling,
    },
    /// `atom.<sem>.<scope>.<op> dst, loc, operand[, new]`, or, with no
    /// `dst`, `red.<sem>.<scope>.<op> loc, operand`.
    Atom {
        /// The register receiving the old value; `None` for `red`.
        dst: Option<Name>,
        /// The read-modify-write operation.
        op: AtomOp,
        /// The location updated.
        loc: Name,
        /// Semantics and scope as written.
        access: Access,
        /// The operand of `op`; the compared value for `cas`.
        operand: Operand,
        /// The value written by a successful `cas`; `None` for other ops.
        new: Option<Operand>,
    },
    /// A CTA barrier, in the corpus dialect `bar.cta.sync I[, ID[, Q]]`:
    /// `instance` names the static barrier, `id` the hardware barrier
    /// resource (a constant or a register), `quorum` how many threads must
    /// arrive. An ISA `bar.sync id[, count]` is `instance = id`, `id = None`,
    /// `quorum = count`.
    Barrier {
        /// Whether the thread waits for the others.
        kind: BarrierKind,
        /// The static barrier this instruction belongs to.
        instance: Imm,
        /// The hardware barrier resource; `None` when it is `instance`.
        id: Option<Operand>,
        /// How many threads must arrive; `None` for every thread of the CTA.
        quorum: Option<Operand>,
    },
    /// `bar.warp.sync` (`__syncwarp()`) with a full mask.
    WarpSync,
    /// `dst = src` (`ld dst, src` or `mov` in the text format).
    Mov {
        /// The register written.
        dst: Name,
        /// The value copied: a register or a constant.
        src: Operand,
    },
    /// `dst = a op b`.
    BinOp {
        /// The register written.
        dst: Name,
        /// The operation.
        op: BinOp,
        /// The left operand.
        a: Operand,
        /// The right operand.
        b: Operand,
    },
    /// A branch target.
    Label(Name),
    /// `suld.weak r, s`, `tld.weak r, t` or `cold.weak r, c`: a load
    /// through the surface, texture or constant proxy (PTX 7.5).
    ProxyLoad {
        /// The register loaded into.
        dst: Name,
        /// The location read.
        loc: Name,
        /// The proxy read through (never [`Proxy::Generic`]: that is `Load`).
        proxy: Proxy,
        /// Semantics and scope as written (only weak exists).
        access: Access,
    },
    /// `sust.weak s, v`: a store through a non-generic proxy (only the
    /// surface proxy is writable; validation rejects the others).
    ProxyStore {
        /// The location written.
        loc: Name,
        /// The value stored.
        value: Operand,
        /// The proxy written through.
        proxy: Proxy,
        /// Semantics and scope as written (only weak exists).
        access: Access,
    },
    /// `fence.proxy.<kind>`: orders accesses of two proxies (or two
    /// aliases) of the same memory within the thread's CTA.
    ProxyFence(ProxyFenceKind),
    /// An instruction of the async proxy: bulk copies, their completion,
    /// mbarriers and the async proxy fences (see [`crate::async_proxy`]).
    Async(AsyncOp),
    /// `beq`/`bne a, b, target`, or with `cond = None` an unconditional
    /// `goto target`.
    Branch {
        /// The condition and its two operands; `None` for an unconditional `goto`.
        cond: Option<(BranchCond, Operand, Operand)>,
        /// The label jumped to.
        target: Name,
    },
}

impl InstrKind {
    /// The register this instruction writes, if any.
    pub fn dst(&self) -> Option<&Name> {
        match self {
            InstrKind::Load { dst, .. }
            | InstrKind::ProxyLoad { dst, .. }
            | InstrKind::Mov { dst, .. }
            | InstrKind::BinOp { dst, .. } => Some(dst),
            InstrKind::Atom { dst, .. } => dst.as_ref(),
            InstrKind::Async(AsyncOp::MbarrierTryWait { dst, .. }) => Some(dst),
            _ => None,
        }
    }

    /// The registers this instruction reads, in operand order.
    pub fn srcs(&self) -> Vec<&Name> {
        let ops: Vec<&Operand> = match self {
            InstrKind::Store { value, .. } | InstrKind::ProxyStore { value, .. } => vec![value],
            InstrKind::Atom { operand, new, .. } => std::iter::once(operand).chain(new).collect(),
            InstrKind::Barrier { id, quorum, .. } => id.iter().chain(quorum).collect(),
            InstrKind::Mov { src, .. } => vec![src],
            InstrKind::BinOp { a, b, .. } => vec![a, b],
            InstrKind::Branch {
                cond: Some((_, a, b)),
                ..
            } => vec![a, b],
            _ => vec![],
        };
        ops.into_iter()
            .filter_map(|o| match o {
                Operand::Reg(n) => Some(n),
                Operand::Imm(_) => None,
            })
            .collect()
    }

    /// The proxy a memory access goes through (`ld`, `st`, `atom` and
    /// `red` the generic one); `None` for every other instruction.
    pub fn proxy(&self) -> Option<Proxy> {
        match self {
            InstrKind::Load { .. } | InstrKind::Store { .. } | InstrKind::Atom { .. } => {
                Some(Proxy::Generic)
            }
            InstrKind::ProxyLoad { proxy, .. } | InstrKind::ProxyStore { proxy, .. } => {
                Some(*proxy)
            }
            _ => None,
        }
    }

    /// The location this instruction accesses, if any.
    pub fn loc(&self) -> Option<&Name> {
        match self {
            InstrKind::Load { loc, .. }
            | InstrKind::Store { loc, .. }
            | InstrKind::ProxyLoad { loc, .. }
            | InstrKind::ProxyStore { loc, .. }
            | InstrKind::Atom { loc, .. } => Some(loc),
            _ => None,
        }
    }
}
