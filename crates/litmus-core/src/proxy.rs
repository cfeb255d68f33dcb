//! PTX 7.5 proxies: the same memory reached through the generic proxy,
//! through surfaces, textures and the constant bank, and through virtual
//! aliases (two addresses mapped onto one allocation). Accesses through
//! different proxies, or through different aliases, are ordered only by a
//! proxy fence (`fence.proxy.<kind>`).

use crate::operand::Name;

/// The path by which an access reaches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Proxy {
    /// Ordinary loads, stores and atomics (`ld`, `st`, `atom`, `red`).
    Generic,
    /// Surface accesses (`suld`, `sust`).
    Surface,
    /// Texture fetches (`tld`): read-only.
    Texture,
    /// The constant bank (`cold`): read-only.
    Constant,
    /// The async proxy (PTX ISA 8.0): the reads and writes of bulk copies
    /// (see [`crate::async_proxy`]). No alias is declared in it, so it is
    /// not in [`Proxy::ALL`].
    Async,
}

impl Proxy {
    /// Every variant, for lookups by spelling.
    pub const ALL: [Proxy; 4] = [
        Proxy::Generic,
        Proxy::Surface,
        Proxy::Texture,
        Proxy::Constant,
    ];

    /// The proxy an alias declaration spells `word` (`y @ texture aliases x`).
    pub fn from_word(word: &str) -> Option<Proxy> {
        Proxy::ALL.into_iter().find(|p| p.as_str() == word)
    }

    /// The spelling in an alias declaration.
    pub fn as_str(self) -> &'static str {
        match self {
            Proxy::Generic => "generic",
            Proxy::Surface => "surface",
            Proxy::Texture => "texture",
            Proxy::Constant => "constant",
            Proxy::Async => "async",
        }
    }

    /// The load instruction of the proxy, as the `.litmus` dialect spells it.
    pub fn load_word(self) -> &'static str {
        match self {
            Proxy::Generic => "ld",
            Proxy::Surface => "suld",
            Proxy::Texture => "tld",
            Proxy::Constant => "cold",
            Proxy::Async => "cp.async.bulk",
        }
    }

    /// The store instruction of the proxy; `None` for the read-only ones.
    pub fn store_word(self) -> Option<&'static str> {
        match self {
            Proxy::Generic => Some("st"),
            Proxy::Surface => Some("sust"),
            Proxy::Async => Some("cp.async.bulk"),
            Proxy::Texture | Proxy::Constant => None,
        }
    }

    /// The proxy whose load instruction is `word` (`suld`, `tld`, `cold`);
    /// `ld` is not one of them, since it is [`crate::instr::InstrKind::Load`].
    pub fn from_load_word(word: &str) -> Option<Proxy> {
        [Proxy::Surface, Proxy::Texture, Proxy::Constant]
            .into_iter()
            .find(|p| p.load_word() == word)
    }
}

/// What makes a location an alias: `y @ generic aliases x` declares `y` a
/// second virtual address of `x`'s memory, reached through `proxy`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alias {
    /// The proxy the alias is declared in.
    pub proxy: Proxy,
    /// The location aliased (itself possibly an alias).
    pub target: Name,
}

/// The kinds of `fence.proxy.<kind>`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProxyFenceKind {
    /// `fence.proxy.alias`: orders generic accesses through different
    /// virtual aliases of the same memory.
    Alias,
    /// `fence.proxy.surface`: orders the surface proxy with the generic one.
    Surface,
    /// `fence.proxy.texture`: orders the texture proxy with the generic one.
    Texture,
    /// `fence.proxy.constant`: orders the constant proxy with the generic one.
    Constant,
}

impl ProxyFenceKind {
    /// Every variant, for lookups by spelling.
    pub const ALL: [ProxyFenceKind; 4] = [
        ProxyFenceKind::Alias,
        ProxyFenceKind::Surface,
        ProxyFenceKind::Texture,
        ProxyFenceKind::Constant,
    ];

    /// The kind PTX spells `word` (without the dot).
    pub fn from_ptx(word: &str) -> Option<ProxyFenceKind> {
        ProxyFenceKind::ALL.into_iter().find(|k| k.as_str() == word)
    }

    /// The PTX spelling, without the dot.
    pub fn as_str(self) -> &'static str {
        match self {
            ProxyFenceKind::Alias => "alias",
            ProxyFenceKind::Surface => "surface",
            ProxyFenceKind::Texture => "texture",
            ProxyFenceKind::Constant => "constant",
        }
    }

    /// The kinds in words, for error messages.
    pub const EXPECTED: &'static str = ".alias, .surface, .texture or .constant";
}
