//! The ordering forms of the dialect: fences (`fence.sc`,
//! `fence.proxy.<kind>`, `membar`), CTA barriers (`bar...`) and
//! `bar.warp.sync`. Apart from `instr.rs` for its length, as the async
//! forms are in `async_ops.rs`.

use crate::error::SyntaxError;
use litmus_core::instr::{BarrierKind, FenceSpelling, InstrKind, Scope, Sem};
use litmus_core::proxy::ProxyFenceKind;

use super::Builder;

const FENCE_QUALS: &str = "semantics (.sc, .acq_rel, .acquire, .release) and a scope \
     (.cta, .cluster, .gpu, .sys)";
const PROXY_FENCE_KINDS: &str = "a proxy kind (.alias, .surface, .texture or .constant)";
const BAR_FORMS: &str =
    "`bar.cta.sync`, `bar.cta.arrive`, `bar.sync`, `bar.arrive` or `bar.warp.sync`";

impl Builder<'_, '_> {
    /// `fence.proxy.<kind>`, the quals after `proxy` already known.
    pub(super) fn proxy_fence(&mut self) -> Option<InstrKind> {
        self.count(0, 0, "no operands")?;
        match self.quals.get(1..).unwrap_or_default() {
            [] => {
                self.missing(PROXY_FENCE_KINDS);
                None
            }
            [k] => {
                let k = *k;
                match ProxyFenceKind::from_ptx(k.word) {
                    Some(kind) => Some(InstrKind::ProxyFence(kind)),
                    None => {
                        self.unknown_qual(k, PROXY_FENCE_KINDS);
                        None
                    }
                }
            }
            [_, extra, ..] => {
                let extra = *extra;
                self.unknown_qual(extra, "nothing after the proxy kind");
                None
            }
        }
    }

    pub(super) fn fence(&mut self) -> Option<InstrKind> {
        if self.quals.first().is_some_and(|q| q.word == "proxy")
            && self.quals.get(1).is_some_and(|q| q.word == "async")
        {
            return self.async_proxy_fence();
        }
        if self.quals.first().is_some_and(|q| q.word == "proxy")
            && self
                .quals
                .get(1)
                .is_some_and(|q| q.word == "async::generic")
        {
            return self.one_way_proxy_fence();
        }
        if self
            .quals
            .first()
            .is_some_and(|q| q.word == "mbarrier_init")
        {
            return self.mbarrier_init_fence();
        }
        if self.quals.first().is_some_and(|q| q.word == "proxy") {
            return self.proxy_fence();
        }
        let (mut sem, mut scope) = (None, None);
        for q in self.quals.clone() {
            if let Some(s) = Sem::from_ptx(q.word) {
                self.once(&mut sem, s, q, "semantics");
            } else if let Some(s) = Scope::from_ptx(q.word) {
                self.once(&mut scope, s, q, "scope");
            } else {
                self.unknown_qual(q, FENCE_QUALS);
            }
        }
        self.count(0, 0, "no operands")?;
        if self.failed {
            return None;
        }
        let Some((sem, _)) = sem else {
            self.missing("semantics (.sc, .acq_rel, .acquire or .release)");
            return None;
        };
        let Some((scope, _)) = scope else {
            self.missing("a scope (.cta, .cluster, .gpu or .sys)");
            return None;
        };
        Some(InstrKind::Fence {
            sem,
            scope,
            spelling: FenceSpelling::Fence,
        })
    }

    pub(super) fn missing(&mut self, what: &'static str) {
        self.error(
            self.origin.0,
            SyntaxError::MissingQualifier {
                instr: self.word.to_string(),
                what,
            },
        );
    }

    pub(super) fn membar(&mut self) -> Option<InstrKind> {
        let mut level = None;
        for q in self.quals.clone() {
            let scope = match q.word {
                "cta" => Scope::Cta,
                "gl" => Scope::Gpu,
                "sys" => Scope::Sys,
                // Not a membar level; kept so that validation can say
                // which fence to write instead.
                "cluster" => Scope::Cluster,
                _ => {
                    self.unknown_qual(q, "a level (.cta, .gl or .sys)");
                    continue;
                }
            };
            self.once(&mut level, scope, q, "level");
        }
        self.count(0, 0, "no operands")?;
        if self.failed {
            return None;
        }
        let Some((scope, _)) = level else {
            self.missing("a level (.cta, .gl or .sys)");
            return None;
        };
        Some(InstrKind::Fence {
            sem: Sem::Sc,
            scope,
            spelling: FenceSpelling::Membar,
        })
    }

    pub(super) fn barrier(&mut self) -> Option<InstrKind> {
        let words: Vec<&str> = self.quals.iter().map(|q| q.word).collect();
        let (kind, cta) = match words.as_slice() {
            ["cta", "sync"] => (BarrierKind::Sync, true),
            ["cta", "arrive"] => (BarrierKind::Arrive, true),
            ["sync"] => (BarrierKind::Sync, false),
            ["arrive"] => (BarrierKind::Arrive, false),
            ["warp", "sync"] => return self.warp_sync(),
            [] => {
                self.missing(BAR_FORMS);
                return None;
            }
            _ => {
                let q = *self
                    .quals
                    .iter()
                    .find(|q| !matches!(q.word, "cta" | "sync" | "arrive" | "warp"))
                    .unwrap_or(&self.quals[0]);
                self.unknown_qual(q, BAR_FORMS);
                return None;
            }
        };
        if cta {
            // Dat3M: `bar.cta.sync instance[, id[, quorum]]`.
            self.count(1, 3, "1 to 3 operands (`bar.cta.sync I[, ID[, Q]]`)")?;
            let instance = self.imm(0)?;
            let id = if self.ops.len() > 1 {
                Some(self.value(1)?)
            } else {
                None
            };
            let quorum = if self.ops.len() > 2 {
                Some(self.value(2)?)
            } else {
                None
            };
            Some(InstrKind::Barrier {
                kind,
                instance,
                id,
                quorum,
            })
        } else {
            // PTX ISA: `bar.sync id[, count]`.
            self.count(1, 2, "1 or 2 operands (`bar.sync id[, count]`)")?;
            let instance = self.imm(0)?;
            let quorum = if self.ops.len() > 1 {
                Some(self.value(1)?)
            } else {
                None
            };
            Some(InstrKind::Barrier {
                kind,
                instance,
                id: None,
                quorum,
            })
        }
    }

    pub(super) fn warp_sync(&mut self) -> Option<InstrKind> {
        self.count(
            0,
            1,
            "no operand or the full mask (`bar.warp.sync 0xffffffff`)",
        )?;
        if !self.ops.is_empty() {
            let mask = self.imm(0)?;
            if mask.value != 0xffff_ffff && mask.value != -1 {
                self.error(mask.origin.0, SyntaxError::WarpMask(mask.value));
                return None;
            }
        }
        Some(InstrKind::WarpSync)
    }
}
