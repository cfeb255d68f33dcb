//! PTX 7.5 proxies: the same memory reached through the generic proxy,
//! through surfaces, textures and the constant bank, and through virtual
//! aliases (two addresses mapped onto one allocation). Accesses through
//! different proxies, or through different aliases, are ordered only by a
//! proxy fence (`fence.proxy.<kind>`).

use crate::ir::Name;

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
        }
    }

    /// The load instruction of the proxy, as the `.litmus` dialect spells it.
    pub fn load_word(self) -> &'static str {
        match self {
            Proxy::Generic => "ld",
            Proxy::Surface => "suld",
            Proxy::Texture => "tld",
            Proxy::Constant => "cold",
        }
    }

    /// The store instruction of the proxy; `None` for the read-only ones.
    pub fn store_word(self) -> Option<&'static str> {
        match self {
            Proxy::Generic => Some("st"),
            Proxy::Surface => Some("sust"),
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

/// The first thing in `test` that needs PTX 7.5's proxies, in words
/// (`` location `y` is a generic alias of `x` ``, `` `tld` in thread `P1` ``),
/// or `None` for a proxy-free test: a proxy instruction, or an access to
/// (or a condition on) an alias. An alias declared and never used changes
/// nothing. Back ends that know nothing of proxies refuse a test with this
/// reason rather than read its aliases as separate memory.
pub fn first_proxy_use(test: &crate::ir::Test) -> Option<String> {
    use crate::instr::InstrKind;
    use crate::ir::Term;
    let alias = |name: &Name| {
        let a = test.location(&name.text)?.alias.as_ref()?;
        Some(format!(
            "location `{name}` is a {} alias of `{}`",
            a.proxy.as_str(),
            a.target
        ))
    };
    let in_threads = test.threads.iter().find_map(|t| {
        t.body.iter().find_map(|i| {
            let word = match &i.kind {
                InstrKind::ProxyLoad { proxy, .. } => proxy.load_word().to_string(),
                InstrKind::ProxyStore { proxy, .. } => {
                    proxy.store_word().unwrap_or("a proxy store").to_string()
                }
                InstrKind::ProxyFence(k) => format!("fence.proxy.{}", k.as_str()),
                other => return other.loc().and_then(alias),
            };
            Some(format!("`{word}` in thread `{}`", t.name))
        })
    });
    in_threads.or_else(|| {
        let mut terms = Vec::new();
        crate::validate::collect_terms(&test.condition.expr, &mut terms);
        terms.into_iter().find_map(|t| match t {
            Term::Loc(l) => alias(l),
            _ => None,
        })
    })
}
