//! PTX 7.5 proxies in the events: which proxy an event goes through and
//! which virtual address it uses, beside the physical location that rf,
//! coherence and values follow.
//!
//! As in Dat3M (`vloc`), a location's *virtual address* is the location
//! itself when it is ordinary or a generic alias (`y @ generic aliases x`
//! is a second virtual address of `x`'s memory), and its target's virtual
//! address when it is a surface, texture or constant alias (those are the
//! target's address seen through another proxy). Its *physical* location
//! is the end of its chain of aliases.

use litmus_core::ir::{Term, Test};
use litmus_core::proxy::{Proxy, ProxyFenceKind};

use crate::events::PathError;

/// How an event reaches memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProxyTag {
    /// The proxy of a memory access or fence; `None` for
    /// `fence.proxy.alias`, which belongs to no proxy (Dat3M tags it
    /// `ALIAS` only).
    pub proxy: Option<Proxy>,
    /// Memory accesses: the index of the location whose virtual address
    /// the access uses (see the module docs).
    pub vloc: Option<usize>,
    /// Whether the event is a `fence.proxy.<kind>`.
    pub fence: Option<ProxyFenceKind>,
}

impl ProxyTag {
    /// What every event of a proxy-free test has: the generic proxy.
    pub const GENERIC: ProxyTag = ProxyTag {
        proxy: Some(Proxy::Generic),
        vloc: None,
        fence: None,
    };

    /// A memory access through `proxy` at virtual address `vloc`.
    pub fn access(proxy: Proxy, vloc: usize) -> ProxyTag {
        ProxyTag {
            proxy: Some(proxy),
            vloc: Some(vloc),
            fence: None,
        }
    }

    /// A `fence.proxy.<kind>`: tagged with the proxy it orders against
    /// the generic one, or with none for `.alias`.
    pub fn proxy_fence(kind: ProxyFenceKind) -> ProxyTag {
        let proxy = match kind {
            ProxyFenceKind::Alias => None,
            ProxyFenceKind::Surface => Some(Proxy::Surface),
            ProxyFenceKind::Texture => Some(Proxy::Texture),
            ProxyFenceKind::Constant => Some(Proxy::Constant),
        };
        ProxyTag {
            proxy,
            vloc: None,
            fence: Some(kind),
        }
    }

    /// `same-proxy`: both events go through one proxy.
    pub fn same_proxy(&self, other: &ProxyTag) -> bool {
        self.proxy.is_some() && self.proxy == other.proxy
    }
}

/// The physical location and the virtual address (both indices into
/// `Test::locations`) of the location called `name`.
pub(crate) fn addresses(test: &Test, name: &str) -> Result<(usize, usize), PathError> {
    let index = |n: &str| {
        test.locations
            .iter()
            .position(|l| l.name.text == n)
            .ok_or_else(|| PathError::UnknownLocation(n.to_string()))
    };
    let start = index(name)?;
    let (mut phys, mut virt) = (start, None);
    // Validation rejects cycles; the bound keeps an unvalidated test finite.
    for _ in 0..=test.locations.len() {
        let Some(alias) = &test.locations[phys].alias else {
            return Ok((phys, virt.unwrap_or(phys)));
        };
        if virt.is_none() && alias.proxy == Proxy::Generic {
            virt = Some(phys);
        }
        phys = index(&alias.target.text)?;
    }
    Err(PathError::UnknownLocation(name.to_string()))
}

/// Why a model without proxies cannot check `test` (`None` when the test
/// uses none), and, for a model with them, what it cannot do yet: a
/// condition on an alias's final value (the final state is kept per
/// declared location, and an alias has no memory of its own).
pub(crate) fn unsupported(test: &Test, model: &str, proxies: bool) -> Option<PathError> {
    if !proxies {
        return test.first_proxy_use().map(|what| PathError::Proxies {
            what,
            model: model.to_string(),
        });
    }
    test.condition
        .expr
        .terms()
        .into_iter()
        .find_map(|t| match t {
            Term::Loc(l) if test.location(&l.text).is_some_and(|d| d.alias.is_some()) => {
                Some(PathError::AliasInCondition(l.text.clone()))
            }
            _ => None,
        })
}
