//! The ordering vocabulary every instruction shares: memory-ordering
//! semantics (`.relaxed`, `.acquire`, ...) and scopes (`.cta` to `.sys`).
//! Its own file so that the async proxy's instructions
//! ([`crate::async_proxy`]), which the plain ones ([`crate::instr`]) hold,
//! are written in it without an import back from `instr`.

/// Memory-ordering semantics (`.weak`, `.relaxed`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sem {
    /// No semantics written, or `.weak`: not a strong operation.
    Weak,
    /// `.relaxed`: a strong access with no ordering of its own.
    Relaxed,
    /// `.acquire`: later accesses of the thread stay after it.
    Acquire,
    /// `.release`: earlier accesses of the thread stay before it.
    Release,
    /// `.acq_rel`: both acquire and release (fences and RMWs).
    AcqRel,
    /// Fences only.
    Sc,
    /// `ld.volatile` / `st.volatile`: the model treats it as `relaxed.sys`.
    Volatile,
}

impl Sem {
    /// Every variant, for lookups by spelling.
    pub const ALL: [Sem; 7] = [
        Sem::Weak,
        Sem::Relaxed,
        Sem::Acquire,
        Sem::Release,
        Sem::AcqRel,
        Sem::Sc,
        Sem::Volatile,
    ];

    /// The variant PTX spells `word` (without the dot): the inverse of
    /// `as_str`, shared by the text reader and the macro.
    pub fn from_ptx(word: &str) -> Option<Sem> {
        Sem::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            Sem::Weak => "weak",
            Sem::Relaxed => "relaxed",
            Sem::Acquire => "acquire",
            Sem::Release => "release",
            Sem::AcqRel => "acq_rel",
            Sem::Sc => "sc",
            Sem::Volatile => "volatile",
        }
    }
}

/// A scope. Ordered from narrowest to widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// `.cta`: the threads of one CTA (thread block).
    Cta,
    /// `.cluster`: the CTAs of one thread-block cluster.
    Cluster,
    /// `.gpu`: every thread of the device.
    Gpu,
    /// `.sys`: the device, the host and peer devices.
    Sys,
}

impl Scope {
    /// Every variant, for lookups by spelling.
    pub const ALL: [Scope; 4] = [Scope::Cta, Scope::Cluster, Scope::Gpu, Scope::Sys];

    /// The variant PTX spells `word` (without the dot): the inverse of
    /// `as_str`, shared by the text reader and the macro.
    pub fn from_ptx(word: &str) -> Option<Scope> {
        Scope::ALL.into_iter().find(|v| v.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Cta => "cta",
            Scope::Cluster => "cluster",
            Scope::Gpu => "gpu",
            Scope::Sys => "sys",
        }
    }
}
