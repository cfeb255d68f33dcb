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

use litmus_core::async_proxy::{AsyncSpace, OneWay};
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
    /// Fences of the async proxy (`fence.proxy.async`, and the implicit
    /// ones at a bulk copy's completion): the state space they order.
    pub space: Option<AsyncSpace>,
    /// A one-way proxy fence: the one direction it orders (PTX 8.6,
    /// `fence.proxy.async::generic.{release,acquire}`).
    pub one_way: Option<OneWay>,
    /// The events of a bulk copy: the copy's number in its thread. They
    /// are in program order after what the thread did before issuing the
    /// copy, and before what it does after only through a completion.
    pub copy: Option<u32>,
    /// A completion (`cp.async.bulk.wait_group`): the copies it waits
    /// for, a bit per number.
    pub completes: u64,
    /// Whether the completion waits for the copies' reads only
    /// (`wait_group.read`).
    pub completes_reads_only: bool,
}

impl ProxyTag {
    /// What every event of a proxy-free test has: the generic proxy.
    pub const GENERIC: ProxyTag = ProxyTag {
        proxy: Some(Proxy::Generic),
        vloc: None,
        fence: None,
        space: None,
        one_way: None,
        copy: None,
        completes: 0,
        completes_reads_only: false,
    };

    /// A memory access through `proxy` at virtual address `vloc`.
    pub fn access(proxy: Proxy, vloc: usize) -> ProxyTag {
        ProxyTag {
            proxy: Some(proxy),
            vloc: Some(vloc),
            ..ProxyTag::GENERIC
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
            fence: Some(kind),
            ..ProxyTag::GENERIC
        }
    }

    /// A fence of the async proxy ordering `space`: `fence.proxy.async`
    /// as written, or the one implied at a bulk copy's completion.
    pub fn async_fence(space: AsyncSpace) -> ProxyTag {
        ProxyTag {
            proxy: Some(Proxy::Async),
            space: Some(space),
            ..ProxyTag::GENERIC
        }
    }

    /// A one-way proxy fence of the async proxy: `space` as its
    /// `.sync_restrict` names it, and the direction it orders.
    pub fn one_way_fence(way: OneWay) -> ProxyTag {
        ProxyTag {
            one_way: Some(way),
            ..ProxyTag::async_fence(way.space())
        }
    }

    /// Whether `self` is in program order before `later`, an event after
    /// it on the same thread's path: always, unless `self` belongs to a
    /// bulk copy (PTX ISA, "cp.async.bulk": the copy is performed asynchronously)
    /// that `later` is not part of and that no completion between them
    /// waited for. `between` are the tags of the events after `self` up
    /// to `later`, itself included.
    pub fn po_before<'a>(
        &self,
        kind_is_read: bool,
        later: &ProxyTag,
        mut between: impl Iterator<Item = &'a ProxyTag>,
    ) -> bool {
        let Some(copy) = self.copy else { return true };
        if later.copy == Some(copy) {
            return true;
        }
        let bit = 1u64 << copy;
        between.any(|t| t.completes & bit != 0 && (kind_is_read || !t.completes_reads_only))
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
pub(crate) fn unsupported(
    test: &Test,
    model: &str,
    proxies: bool,
    async_proxy: bool,
) -> Option<PathError> {
    if !async_proxy {
        if let Some(what) = test.first_async_use() {
            return Some(PathError::Async {
                what,
                model: model.to_string(),
            });
        }
    }
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
