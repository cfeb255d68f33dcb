//! Validation with spans: `litmus_core::validate` finds the mistakes (the
//! same checks as for `.litmus` files), and each is reported at the token its
//! origin points to.

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Name, Operand, Test};
use litmus_core::{ValidationError, ValidationErrorKind as K};

use crate::errors::Range;
use crate::parse::Ctx;
use crate::sites::Site;

/// Validates `test`, adding one error per mistake to `cx.errors`, in source
/// order.
pub(crate) fn check(test: &Test, cx: &mut Ctx) {
    let mut found: Vec<(u32, syn::Error)> = Vec::new();
    if let Err(errors) = litmus_core::validate(test) {
        for e in errors {
            // Reported below, with a message about what was meant.
            if matches!(&e.kind, K::RegisterReadBeforeWrite { reg, .. } if test.location(reg).is_some())
            {
                continue;
            }
            let at = where_is(&e, cx);
            found.push((e.origin.0, at.error(message(&e, test))));
        }
    }
    for (name, message) in locations_as_registers(test) {
        let at = cx
            .sites
            .get(name.origin)
            .map_or(Range::single(proc_macro2::Span::call_site()), |s| s.range);
        found.push((name.origin.0, at.error(message)));
    }
    // Origins are handed out in source order.
    found.sort_by_key(|(origin, _)| *origin);
    for (_, e) in found {
        cx.errors.push(e);
    }
}

/// The tokens an error is about: the part of an instruction that is wrong
/// where the error names one (the `.release` of `Ld.release.gpu`), else all
/// of what its origin covers.
fn where_is(e: &ValidationError, cx: &Ctx) -> Range {
    let Some(Site { range, instr }) = cx.sites.get(e.origin).copied() else {
        return Range::single(proc_macro2::Span::call_site());
    };
    let Some(parts) = instr else {
        return range;
    };
    let part = match &e.kind {
        K::BadSemantics { .. } => parts.sem,
        K::UnexpectedScope { .. } | K::ClusterScopeWithoutClusters | K::BadScope { .. } => {
            parts.scope
        }
        K::BadCacheOp { .. } | K::CacheOpOnStrong(_) => parts.cache,
        K::CasNeedsNew => parts.args,
        K::MissingScope { .. } | K::MembarCluster => return parts.head,
        _ => None,
    };
    part.map_or(parts.head, Range::single)
}

/// Validation's message, with a hint where the macro's syntax is the likely
/// cause.
fn message(e: &ValidationError, test: &Test) -> String {
    let hint = match &e.kind {
        K::UnknownLocation(loc) => test
            .threads
            .iter()
            .find(|t| {
                t.body
                    .iter()
                    .any(|i| i.kind.dst().is_some_and(|d| &d.text == loc))
            })
            .map(|t| {
                format!(
                    " (for the register of thread `{}`, write `{}.{loc}`)",
                    t.name, t.name
                )
            }),
        K::MissingScope { instr, sem } => {
            let op = match *instr {
                "ld" => "Ld",
                "st" => "St",
                "atom" => "Atom",
                _ => "Red",
            };
            Some(format!(": e.g. `{op}.{sem}.gpu`"))
        }
        _ => None,
    };
    format!("{e}{}", hint.unwrap_or_default())
}

/// Registers and locations share one namespace in the macro (`x` in a
/// condition is a location, `t1.x` a register): a register named like a
/// location is almost always a store or load written the wrong way
/// (`x = 1` for `St(x, 1)`), so it is reported.
fn locations_as_registers(test: &Test) -> Vec<(Name, String)> {
    let is_loc = |n: &Name| test.location(&n.text).is_some();
    let mut out = Vec::new();
    for thread in &test.threads {
        for instr in &thread.body {
            if let Some(dst) = instr.kind.dst().filter(|d| is_loc(d)) {
                out.push((
                    dst.clone(),
                    format!(
                        "`{dst}` is a location, not a register: write `St({dst}, ..)` to store to it, or pick another register name"
                    ),
                ));
            }
            let operands: Vec<&Operand> = match &instr.kind {
                InstrKind::Store { value, .. } | InstrKind::ProxyStore { value, .. } => vec![value],
                InstrKind::Mov { src, .. } => vec![src],
                InstrKind::BinOp { a, b, .. } => vec![a, b],
                InstrKind::Atom { operand, new, .. } => {
                    std::iter::once(operand).chain(new).collect()
                }
                InstrKind::Branch {
                    cond: Some((_, a, b)),
                    ..
                } => vec![a, b],
                _ => vec![],
            };
            for op in operands {
                if let Operand::Reg(r) = op {
                    if is_loc(r) {
                        out.push((
                            r.clone(),
                            format!("`{r}` is a location, not a register: load it first (`r0 = Ld({r})`) and use the register"),
                        ));
                    }
                }
            }
        }
    }
    out
}
