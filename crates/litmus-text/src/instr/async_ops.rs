//! The async-proxy forms of the dialect: `cp.async.bulk...`,
//! `mbarrier...`, `fence.proxy.async...` and `fence.mbarrier_init...`,
//! written as PTX writes them (see `litmus_core::async_proxy`).

use crate::error::SyntaxError;
use crate::lex::Tok;
use litmus_core::async_proxy::{AsyncOp, AsyncSpace, OneWay};
use litmus_core::instr::{InstrKind, Scope, Sem};

use super::{Builder, Qual};

const BULK_FORMS: &str = "`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]`, \
     `cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size`, `cp.async.bulk.commit_group` \
     or `cp.async.bulk.wait_group{.read} N`";
const MBARRIER_FORMS: &str = "`mbarrier.init`, `mbarrier.arrive` or `mbarrier.try_wait`";
const ARRIVE_QUALS: &str = ".expect_tx, .release, .relaxed, .cta, .cluster, .shared, .shared::cta, .shared::cluster or .b64";
const WAIT_QUALS: &str =
    ".parity, .acquire, .relaxed, .cta, .cluster, .shared, .shared::cta or .b64";
const INIT_QUALS: &str = ".shared, .shared::cta or .b64";

impl<'s> Builder<'_, 's> {
    fn unknown_form(&mut self, expected: &'static str) {
        let mut instr = self.word.to_string();
        for q in &self.quals {
            instr.push('.');
            instr.push_str(q.word);
        }
        self.error(
            self.origin.0,
            SyntaxError::UnknownAsyncForm { instr, expected },
        );
    }

    /// `cp.async.bulk...`: the qualifiers of each form come in PTX's one
    /// order, so the head is matched whole.
    pub(super) fn bulk_copy(&mut self) -> Option<InstrKind> {
        let head: Vec<&str> = self.quals.iter().map(|q| q.word).collect();
        let op = match head.as_slice() {
            ["async", "bulk", "shared::cluster", "global", "mbarrier::complete_tx::bytes"] => {
                self.count(4, 4, "4 operands (`[dst], [src], size, [mbar]`)")?;
                AsyncOp::BulkLoad {
                    dst: self.loc(0)?,
                    src: self.loc(1)?,
                    size: self.imm(2)?,
                    mbar: self.loc(3)?,
                }
            }
            ["async", "bulk", "global", "shared::cta", "bulk_group"] => {
                self.count(3, 3, "3 operands (`[dst], [src], size`)")?;
                AsyncOp::BulkStore {
                    dst: self.loc(0)?,
                    src: self.loc(1)?,
                    size: self.imm(2)?,
                }
            }
            ["async", "bulk", "commit_group"] => {
                self.count(0, 0, "no operands")?;
                AsyncOp::CommitGroup
            }
            ["async", "bulk", "wait_group", rest @ ..] if matches!(rest, [] | ["read"]) => {
                self.count(1, 1, "1 operand (the groups that may stay pending)")?;
                AsyncOp::WaitGroup {
                    read: !rest.is_empty(),
                    pending: self.imm(0)?,
                }
            }
            _ => {
                self.unknown_form(BULK_FORMS);
                return None;
            }
        };
        Some(InstrKind::Async(op))
    }

    /// `mbarrier.init`, `mbarrier.arrive{.expect_tx}` and
    /// `mbarrier.try_wait{.parity}`, their other qualifiers in any order.
    pub(super) fn mbarrier(&mut self) -> Option<InstrKind> {
        let Some(first) = self.quals.first().copied() else {
            self.missing("an operation (.init, .arrive or .try_wait)");
            return None;
        };
        let rest: Vec<Qual<'s>> = self.quals[1..].to_vec();
        // PTX's arrive returns the barrier's state into a register that
        // litmus tests never read: `_` (or nothing) stands for it.
        if first.word == "arrive"
            && self
                .ops
                .first()
                .is_some_and(|o| o.tok.tok == Tok::Ident("_"))
        {
            self.ops.remove(0);
        }
        let op = match first.word {
            "init" => {
                for q in rest {
                    if !matches!(q.word, "shared" | "shared::cta" | "b64") {
                        self.unknown_qual(q, INIT_QUALS);
                    }
                }
                self.count(2, 2, "2 operands (`[mbar], count`)")?;
                AsyncOp::MbarrierInit {
                    mbar: self.loc(0)?,
                    count: self.imm(1)?,
                }
            }
            "arrive" => {
                let (sem, scope, flag) = self.mbarrier_quals(
                    &rest,
                    "expect_tx",
                    &[Sem::Release, Sem::Relaxed],
                    Sem::Release,
                    ARRIVE_QUALS,
                );
                let n = if flag { 2 } else { 1 };
                self.count(n, n, "`[mbar]`, and with .expect_tx the bytes expected")?;
                AsyncOp::MbarrierArrive {
                    mbar: self.loc(0)?,
                    sem,
                    scope,
                    expect_tx: if flag { Some(self.imm(1)?) } else { None },
                }
            }
            "try_wait" => {
                let (sem, scope, flag) = self.mbarrier_quals(
                    &rest,
                    "parity",
                    &[Sem::Acquire, Sem::Relaxed],
                    Sem::Acquire,
                    WAIT_QUALS,
                );
                let n = if flag { 3 } else { 2 };
                self.count(n, n, "`r, [mbar]`, and with .parity the phase parity")?;
                AsyncOp::MbarrierTryWait {
                    dst: self.reg(0)?,
                    mbar: self.loc(1)?,
                    sem,
                    scope,
                    parity: if flag { Some(self.imm(2)?) } else { None },
                }
            }
            _ => {
                self.unknown_form(MBARRIER_FORMS);
                return None;
            }
        };
        if self.failed {
            return None;
        }
        Some(InstrKind::Async(op))
    }

    /// The semantics, scope and optional flag (`expect_tx`, `parity`) of
    /// an arrive or a wait; PTX's defaults are `.release`/`.acquire` and
    /// `.cta`.
    fn mbarrier_quals(
        &mut self,
        quals: &[Qual<'s>],
        flag_word: &str,
        sems: &[Sem],
        default_sem: Sem,
        expected: &'static str,
    ) -> (Sem, Scope, bool) {
        let (mut sem, mut scope, mut flag) = (None, None, false);
        for q in quals.iter().copied() {
            match (Sem::from_ptx(q.word), Scope::from_ptx(q.word)) {
                (Some(s), _) if sems.contains(&s) => self.once(&mut sem, s, q, "semantics"),
                (_, Some(s @ (Scope::Cta | Scope::Cluster))) => {
                    self.once(&mut scope, s, q, "scope")
                }
                _ if q.word == flag_word && !flag => flag = true,
                _ if matches!(q.word, "shared" | "shared::cta" | "b64") => {}
                _ if q.word == "shared::cluster" && flag_word == "expect_tx" => {}
                _ => self.unknown_qual(q, expected),
            }
        }
        (
            sem.map_or(default_sem, |s| s.0),
            scope.map_or(Scope::Cta, |s| s.0),
            flag,
        )
    }

    /// `fence.proxy.async{.global,.shared::cta,.shared::cluster}`.
    pub(super) fn async_proxy_fence(&mut self) -> Option<InstrKind> {
        let space = match self.quals.get(2).copied() {
            None => AsyncSpace::All,
            Some(q) => match AsyncSpace::from_ptx(q.word) {
                Some(s) => s,
                None => {
                    self.unknown_qual(q, AsyncSpace::EXPECTED);
                    return None;
                }
            },
        };
        if let Some(q) = self.quals.get(3).copied() {
            self.unknown_qual(q, "nothing after the state space");
            return None;
        }
        self.count(0, 0, "no operands")?;
        Some(InstrKind::Async(AsyncOp::ProxyFence(space)))
    }

    /// The one-way proxy fences, each in its only form:
    /// `fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster`
    /// and `...acquire.sync_restrict::shared::cluster.cluster`.
    pub(super) fn one_way_proxy_fence(&mut self) -> Option<InstrKind> {
        let words: Vec<&str> = self.quals.iter().skip(2).map(|q| q.word).collect();
        let Some(way) = OneWay::ALL.into_iter().find(|w| {
            let form: Vec<&str> = w.ptx().split('.').skip(3).collect();
            form == words
        }) else {
            self.unknown_form(
                "`fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster` or `fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster`",
            );
            return None;
        };
        self.count(0, 0, "no operands")?;
        Some(InstrKind::Async(AsyncOp::ProxyFenceOneWay(way)))
    }

    /// `fence.mbarrier_init.release.cluster`, its only form.
    pub(super) fn mbarrier_init_fence(&mut self) -> Option<InstrKind> {
        let words: Vec<&str> = self.quals.iter().map(|q| q.word).collect();
        if words != ["mbarrier_init", "release", "cluster"] {
            self.unknown_form("`fence.mbarrier_init.release.cluster`");
            return None;
        }
        self.count(0, 0, "no operands")?;
        Some(InstrKind::Async(AsyncOp::MbarrierInitFence))
    }
}
