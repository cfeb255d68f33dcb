//! How the generated kernel reaches PTX 7.5 aliases, and which proxy uses
//! the hardware cannot give.
//!
//! An alias has no memory of its own: every access to it reaches its
//! *root* (the end of its chain of aliases), at the root's slot for the
//! instance, through one of the root's *views*. View 0 is the location
//! buffer as allocated; each generic alias that some access (or texture)
//! goes through is one more virtual mapping of the same physical memory,
//! whose base the host passes as a kernel parameter. A texture alias is a
//! texture object over the view its chain names (the model's virtual
//! address: the first generic alias on the chain, or the root), passed as
//! a kernel parameter too.
//!
//! What CUDA cannot build is refused with the reason: surfaces (they bind
//! CUDA arrays only, which have no global address, so no surface can alias
//! a global location), the constant bank (filled before a launch, it cannot
//! alias memory the kernel writes), and the proxy fences the mixed-proxy
//! model has but PTX does not (`fence.proxy.surface`, `.texture`,
//! `.constant`: PTX's proxy fences are `.alias` and the `.async` ones).

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Location, Test};
use litmus_core::proxy::{Proxy, ProxyFenceKind};

use crate::PtxError;

/// How the kernel reaches one alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasLoc {
    /// Index into `Test::locations` of the alias.
    pub loc: usize,
    /// Its root's slot: an index into [`crate::Layout::global_locs`]. The
    /// alias uses the root's permutation and memory.
    pub slot: usize,
    /// How its accesses reach that memory.
    pub reach: Reach,
}

/// The path by which the kernel's accesses reach an alias's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Generic accesses through view `v` (0: the buffer itself; `v ≥ 1`:
    /// the mapping of [`crate::Layout::views`]`[v - 1]`).
    View(usize),
    /// Texture fetches through texture object `t` (an index into
    /// [`crate::Layout::textures`]).
    Texture(usize),
}

/// A texture object the host creates for a texture alias.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextureAlias {
    /// Index into `Test::locations` of the texture alias.
    pub loc: usize,
    /// The view the texture reads through (see [`Reach::View`]).
    pub view: usize,
}

/// The aliases of a test as the kernel reaches them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Plan {
    pub aliases: Vec<AliasLoc>,
    pub views: Vec<usize>,
    pub textures: Vec<TextureAlias>,
}

/// The location's root and its virtual address (both indices into
/// `Test::locations`), as the model defines them: the root is the end of
/// the chain of aliases, the virtual address the first generic alias on
/// the chain (the location itself included), or the root when there is
/// none. `None` for a name that does not resolve (validation reports it).
pub(crate) fn root_and_vloc(test: &Test, name: &str) -> Option<(usize, usize)> {
    let index = |n: &str| test.locations.iter().position(|l| l.name.text == n);
    let mut at = index(name)?;
    let mut vloc = None;
    // Validation rejects cycles; the bound keeps an unvalidated test finite.
    for _ in 0..=test.locations.len() {
        let Some(alias) = &test.locations[at].alias else {
            return Some((at, vloc.unwrap_or(at)));
        };
        if vloc.is_none() && alias.proxy == Proxy::Generic {
            vloc = Some(at);
        }
        at = index(&alias.target.text)?;
    }
    None
}

/// The instruction an access is written as, for messages.
fn access_word(kind: &InstrKind) -> &'static str {
    match kind {
        InstrKind::Load { .. } => "ld",
        InstrKind::Store { .. } => "st",
        InstrKind::Atom { dst: Some(_), .. } => "atom",
        InstrKind::Atom { dst: None, .. } => "red",
        InstrKind::ProxyLoad { proxy, .. } => proxy.load_word(),
        InstrKind::ProxyStore { proxy, .. } => proxy.store_word().unwrap_or("a proxy store"),
        _ => "an access",
    }
}

/// Why a proxy fence has no PTX instruction, or `None` when it has one.
fn fence_refusal(kind: ProxyFenceKind) -> Option<String> {
    match kind {
        ProxyFenceKind::Alias => None,
        other => Some(format!(
            "PTX has no such instruction (its proxy fences are fence.proxy.alias and \
             fence.proxy.async[.global|.shared::cta|.shared::cluster]); on the hardware the \
             {} proxy is ordered with the generic one only across kernel launches",
            other.as_str()
        )),
    }
}

/// Why the harness cannot reach `loc` (an alias declared in `proxy`).
fn proxy_refusal(loc: &Location, proxy: Proxy) -> Option<String> {
    let target = loc.alias.as_ref().map_or("?", |a| a.target.text.as_str());
    match proxy {
        Proxy::Generic | Proxy::Texture => None,
        // No alias is declared in the async proxy: it reaches memory
        // through bulk copies of locations (`async_ops.rs`), never an alias.
        Proxy::Async => Some(format!(
            "`{}` is an alias in the async proxy: the harness reaches the async proxy through \
             bulk copies of locations, not through aliases",
            loc.name
        )),
        Proxy::Surface => Some(format!(
            "`{}` is a surface alias of `{target}`: CUDA surfaces bind only CUDA arrays, \
             which have no global address, so no surface can alias a global location",
            loc.name
        )),
        Proxy::Constant => Some(format!(
            "`{}` is read through the constant bank: the constant bank is filled before \
             a launch and cannot alias global memory that the kernel writes",
            loc.name
        )),
    }
}

/// Plans how the kernel reaches the test's aliases, or refuses the first
/// proxy use (in thread and program order) that the hardware cannot give.
/// `global_locs` are the roots' slots (indices into `Test::locations`).
pub(crate) fn plan(test: &Test, global_locs: &[usize]) -> Result<Plan, PtxError> {
    let mut plan = Plan::default();
    let refuse = |thread: &str, word: &str, why: String| {
        Err(PtxError::Unsupported(format!(
            "`{word}` in thread `{thread}`: {why}"
        )))
    };
    for t in &test.threads {
        for ins in &t.body {
            if let InstrKind::ProxyFence(kind) = &ins.kind {
                if let Some(why) = fence_refusal(*kind) {
                    let word = format!("fence.proxy.{}", kind.as_str());
                    return refuse(&t.name.text, &word, why);
                }
                continue;
            }
            let (Some(name), Some(proxy)) = (ins.kind.loc(), ins.kind.proxy()) else {
                continue;
            };
            let Some(loc) = test.location(&name.text) else {
                continue;
            };
            // A constant-bank read goes through the constant proxy even
            // when the location is a generic alias.
            let declared = loc.alias.as_ref().map(|a| a.proxy);
            for p in [Some(proxy), declared].into_iter().flatten() {
                if let Some(why) = proxy_refusal(loc, p) {
                    return refuse(&t.name.text, access_word(&ins.kind), why);
                }
            }
            if loc.alias.is_none() {
                continue;
            }
            add_alias(test, &name.text, proxy, global_locs, &mut plan);
        }
    }
    Ok(plan)
}

/// Records how accesses through `proxy` reach alias `name`, once.
fn add_alias(test: &Test, name: &str, proxy: Proxy, global_locs: &[usize], plan: &mut Plan) {
    let Some((root, vloc)) = root_and_vloc(test, name) else {
        return;
    };
    let Some(loc) = test.locations.iter().position(|l| l.name.text == name) else {
        return;
    };
    if plan.aliases.iter().any(|a| a.loc == loc) {
        return;
    }
    // Validation keeps roots global; a root outside the slots has no
    // memory the kernel could reach.
    let Some(slot) = global_locs.iter().position(|g| *g == root) else {
        return;
    };
    let view = if vloc == root {
        0
    } else {
        match plan.views.iter().position(|v| *v == vloc) {
            Some(v) => v + 1,
            None => {
                plan.views.push(vloc);
                plan.views.len()
            }
        }
    };
    let reach = if proxy == Proxy::Texture {
        plan.textures.push(TextureAlias { loc, view });
        Reach::Texture(plan.textures.len() - 1)
    } else {
        Reach::View(view)
    };
    plan.aliases.push(AliasLoc { loc, slot, reach });
}
