//! The PTX 7.5 rules: alias declarations, and which instructions may
//! reach a location declared in a proxy.

use std::collections::HashSet;

use super::{Validator, K};
use crate::instr::InstrKind;
use crate::ir::{Name, Origin};
use crate::proxy::Proxy;

impl Validator<'_> {
    /// Every alias names a declared location, is not itself shared
    /// memory, and no chain of aliases comes back to where it started.
    pub(super) fn aliases(&mut self) {
        for loc in &self.test.locations {
            let Some(alias) = &loc.alias else { continue };
            let Some(&target) = self.locations.get(alias.target.text.as_str()) else {
                self.push(
                    K::UnknownAliasTarget {
                        alias: loc.name.text.clone(),
                        target: alias.target.text.clone(),
                    },
                    alias.target.origin,
                );
                continue;
            };
            if target.alias.is_none() && !target.space.is_global_like() {
                self.push(
                    K::AliasOfShared(alias.target.text.clone()),
                    alias.target.origin,
                );
            }
            if self.alias_cycle(&loc.name) {
                self.push(K::AliasCycle(loc.name.text.clone()), loc.name.origin);
            }
        }
    }

    /// Whether following `start`'s aliases comes back to `start`.
    fn alias_cycle(&self, start: &Name) -> bool {
        let mut seen = HashSet::new();
        let mut at = start.text.as_str();
        while let Some(alias) = self.locations.get(at).and_then(|l| l.alias.as_ref()) {
            at = alias.target.text.as_str();
            if at == start.text || !seen.insert(at) {
                return at == start.text;
            }
        }
        false
    }

    /// The proxy the location is declared in: `None` for an ordinary
    /// location (or an unknown one, reported elsewhere).
    fn declared_proxy(&self, loc: &Name) -> Option<Proxy> {
        self.locations
            .get(loc.text.as_str())
            .and_then(|l| l.alias.as_ref())
            .map(|a| a.proxy)
    }

    /// Whether the instruction's proxy may reach its location.
    pub(super) fn proxy_access(&mut self, kind: &InstrKind, origin: Origin) {
        let (word, loc, proxy, store) = match kind {
            InstrKind::Load { loc, .. } => ("ld", loc, Proxy::Generic, false),
            InstrKind::Store { loc, .. } => ("st", loc, Proxy::Generic, true),
            InstrKind::Atom { loc, dst, .. } => {
                let word = if dst.is_some() { "atom" } else { "red" };
                (word, loc, Proxy::Generic, true)
            }
            InstrKind::ProxyLoad { loc, proxy, .. } => (proxy.load_word(), loc, *proxy, false),
            InstrKind::ProxyStore { loc, proxy, .. } => {
                (proxy.store_word().unwrap_or("store"), loc, *proxy, true)
            }
            _ => return,
        };
        let declared = self.declared_proxy(loc);
        if matches!(
            kind,
            InstrKind::ProxyLoad { .. } | InstrKind::ProxyStore { .. }
        ) && proxy == Proxy::Generic
        {
            self.push(K::GenericProxyInstr, origin);
            return;
        }
        let read_only = |p: Option<Proxy>| matches!(p, Some(Proxy::Texture | Proxy::Constant));
        if store && (read_only(Some(proxy)) || read_only(declared)) {
            let p = if read_only(Some(proxy)) {
                proxy
            } else {
                declared.unwrap_or(proxy)
            };
            self.push(
                K::ReadOnlyProxy {
                    instr: word,
                    loc: loc.text.clone(),
                    proxy: p.as_str(),
                },
                loc.origin,
            );
            return;
        }
        let fits = match proxy {
            Proxy::Generic => matches!(declared, None | Some(Proxy::Generic)),
            // Dat3M's corpus reads the constant bank through a generic
            // alias too (Proxy-Const-MP-cause-different-cta).
            Proxy::Constant => matches!(declared, Some(Proxy::Constant | Proxy::Generic)),
            p => declared == Some(p),
        };
        if fits {
            return;
        }
        let kind = match declared {
            Some(d) if proxy == Proxy::Generic => K::ProxyLocationNeedsProxy {
                instr: word,
                loc: loc.text.clone(),
                proxy: d.as_str(),
                use_instr: d.load_word(),
            },
            _ => K::ProxyInstrNeedsAlias {
                instr: word,
                loc: loc.text.clone(),
                proxy: proxy.as_str(),
            },
        };
        self.push(kind, loc.origin);
    }
}
