//! The writer: a [`Test`] as Dat3M's dialect, with the extensions only
//! where the test needs them, columns aligned as in the corpus.

use litmus_core::async_proxy::AsyncOp;
use std::collections::HashSet;
use std::fmt::Write;

use litmus_core::instr::{
    Access, BarrierKind, BranchCond, CacheOp, FenceSpelling, InstrKind, Scope,
};
use litmus_core::ir::{CmpOp, Expr, Operand, Placement, Quantifier, Space, Term, Test};

/// Writes `test` in the `.litmus` dialect. For every test that
/// [`crate::parse`] returns, `parse(&print(&t))` equals `t`.
///
/// ```
/// let src = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)";
/// let test = litmus_text::parse(src).unwrap();
/// let printed = litmus_text::print(&test);
/// assert_eq!(litmus_text::parse(&printed).unwrap(), test);
/// ```
pub fn print(test: &Test) -> String {
    let mut out = String::new();
    out.push_str("PTX ");
    out.push_str(&name(&test.name.text));
    out.push('\n');
    if !test.doc.0.is_empty() {
        // Strings have no escapes in Dat3M; the doc is not part of the
        // test's meaning, so a quote inside it is written as `'`.
        let _ = writeln!(out, "\"{}\"", test.doc.0.join("\n").replace('"', "'"));
    }
    out.push_str("{\n");
    for loc in &test.locations {
        let space = match loc.space {
            Space::Global => "",
            Space::Shared => "shared ",
            Space::SharedCluster => "shared::cluster ",
            Space::Host => "host ",
        };
        // GPU 0 is the default and is not written, so files without
        // several GPUs print as before.
        let home = if loc.gpu == 0 {
            String::new()
        } else {
            format!("gpu {} ", loc.gpu)
        };
        match &loc.alias {
            Some(a) => {
                let _ = writeln!(
                    out,
                    "{home}{} @ {} aliases {};",
                    loc.name,
                    a.proxy.as_str(),
                    a.target
                );
            }
            None => {
                let _ = writeln!(out, "{home}{space}{}={};", loc.name, loc.init.value);
            }
        }
    }
    let mut seen = HashSet::new();
    for (i, t) in test.threads.iter().enumerate() {
        // A name read back means its first thread; a later thread of the
        // same name (an invalid test, but printable) is given by index.
        let first = seen.insert(t.name.text.as_str());
        for init in &t.init {
            let who = if first {
                t.name.text.clone()
            } else {
                i.to_string()
            };
            let _ = writeln!(out, "{who}:{}={};", init.reg, init.value.value);
        }
    }
    out.push_str("}\n");
    let columns: Vec<Vec<String>> = test
        .threads
        .iter()
        .map(|t| {
            std::iter::once(format!("{}@{}", t.name, placement(t.placement)))
                .chain(t.body.iter().map(|i| instr(&i.kind, test)))
                .collect()
        })
        .collect();
    let rows = columns.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for row in 0..rows {
        for (i, col) in columns.iter().enumerate() {
            let cell = col.get(row).map_or("", String::as_str);
            let sep = if i + 1 == columns.len() { ";" } else { "|" };
            let _ = write!(out, " {cell:<w$} {sep}", w = widths[i]);
        }
        out.push('\n');
    }
    out.push_str(&print_condition(test));
    if let Some(v) = test.verdict {
        let _ = write!(out, " => {}", v.verdict.as_str());
    }
    if let Some(t) = test.termination {
        let _ = write!(out, " => {}", t.as_str());
    }
    out.push('\n');
    out
}

/// A name that is one run of non-space characters is written bare, as in
/// Dat3M; any other in quotes, with `\` escaping `"` and `\`.
fn name(n: &str) -> String {
    if !n.is_empty() && !n.starts_with('"') && !n.chars().any(char::is_whitespace) {
        return n.to_string();
    }
    let mut out = String::from("\"");
    for c in n.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn placement(p: Placement) -> String {
    // A host thread is `@host`. A GPU coordinate on one (built IR only:
    // validation refuses it, and the reader refuses `host` with another
    // key) is still written, so that the mistake shows in the text.
    let mut s = if !p.host {
        format!("cta {},gpu {}", p.cta, p.gpu)
    } else {
        let mut s = String::from("host");
        if p.cta != 0 {
            let _ = write!(s, ",cta {}", p.cta);
        }
        if p.gpu != 0 {
            let _ = write!(s, ",gpu {}", p.gpu);
        }
        s
    };
    if let Some(w) = p.warp {
        let _ = write!(s, ",warp {w}");
    }
    if let Some(c) = p.cluster {
        let _ = write!(s, ",cluster {c}");
    }
    s
}

fn operand(o: &Operand) -> String {
    match o {
        Operand::Reg(n) => n.text.clone(),
        Operand::Imm(i) => i.value.to_string(),
    }
}

/// `.sem[.scope][.cache]`, with a weak access written `.weak` as the
/// corpus does.
fn access(a: Access, cache: Option<CacheOp>) -> String {
    let mut s = format!(".{}", a.sem.as_str());
    if let Some(scope) = a.scope {
        s.push('.');
        s.push_str(scope.as_str());
    }
    if let Some(c) = cache {
        s.push('.');
        s.push_str(c.as_str());
    }
    s
}

/// The condition of `test` as the dialect writes it, without the declared
/// verdict: `exists (P1:r0 == 1 /\ P1:r1 == 0)`, for pages and messages
/// that name what a test asks.
///
/// ```
/// let t = litmus_text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n~exists (P0:r0 == 1)").unwrap();
/// assert_eq!(litmus_text::print_condition(&t), "~exists (P0:r0 == 1)");
/// ```
pub fn print_condition(test: &Test) -> String {
    // The dialect's spelling; the others are the quantifier's own words.
    let q = match test.condition.quantifier {
        Quantifier::NotExists => "~exists",
        q => q.as_str(),
    };
    format!("{q} ({})", expr(&test.condition.expr, Prec::Or))
}

/// One instruction of `test` as the dialect writes it (`bar.cta.sync 1`),
/// for messages that point at an instruction.
pub fn print_instr(kind: &InstrKind, test: &Test) -> String {
    instr(kind, test)
}

fn instr(kind: &InstrKind, test: &Test) -> String {
    match kind {
        InstrKind::Load {
            dst,
            loc,
            access: a,
            cache,
        } => format!("ld{} {dst}, {loc}", access(*a, *cache)),
        InstrKind::Store {
            loc,
            value,
            access: a,
            cache,
        } => format!("st{} {loc}, {}", access(*a, *cache), operand(value)),
        InstrKind::Fence {
            sem,
            scope,
            spelling: FenceSpelling::Fence,
        } => format!("fence.{}.{}", sem.as_str(), scope.as_str()),
        InstrKind::Fence {
            scope,
            spelling: FenceSpelling::Membar,
            ..
        } => {
            let level = match scope {
                Scope::Gpu => "gl",
                other => other.as_str(),
            };
            format!("membar.{level}")
        }
        InstrKind::ProxyLoad {
            dst,
            loc,
            proxy,
            access: a,
        } => format!("{}{} {dst}, {loc}", proxy.load_word(), access(*a, None)),
        InstrKind::ProxyStore {
            loc,
            value,
            proxy,
            access: a,
        } => {
            // Only `sust` exists; a store through a read-only proxy (which
            // validation rejects) is printed as its intent.
            let word = match proxy.store_word() {
                Some("st") | None => format!("{}st", proxy.as_str()),
                Some(w) => w.to_string(),
            };
            format!("{word}{} {loc}, {}", access(*a, None), operand(value))
        }
        InstrKind::ProxyFence(k) => format!("fence.proxy.{}", k.as_str()),
        InstrKind::Async(op) => async_op(op),
        InstrKind::Atom {
            dst,
            op,
            loc,
            access: a,
            operand: v,
            new,
        } => {
            let mut s = match dst {
                Some(_) => "atom".to_string(),
                None => "red".to_string(),
            };
            s.push('.');
            s.push_str(a.sem.as_str());
            if let Some(scope) = a.scope {
                s.push('.');
                s.push_str(scope.as_str());
            }
            let _ = write!(s, ".{} ", op.as_str());
            if let Some(d) = dst {
                let _ = write!(s, "{d}, ");
            }
            let _ = write!(s, "{loc}, {}", operand(v));
            if let Some(n) = new {
                let _ = write!(s, ", {}", operand(n));
            }
            s
        }
        InstrKind::Barrier {
            kind,
            instance,
            id,
            quorum,
        } => {
            let k = match kind {
                BarrierKind::Sync => "sync",
                BarrierKind::Arrive => "arrive",
            };
            match (id, quorum) {
                // Only the ISA form has a count without an id.
                (None, Some(q)) => format!("bar.{k} {}, {}", instance.value, operand(q)),
                _ => {
                    let mut s = format!("bar.cta.{k} {}", instance.value);
                    for o in id.iter().chain(quorum) {
                        let _ = write!(s, ", {}", operand(o));
                    }
                    s
                }
            }
        }
        InstrKind::WarpSync => "bar.warp.sync".to_string(),
        InstrKind::Mov { dst, src } => {
            // `ld r, v` is Dat3M's assignment, but reads a location when `v`
            // names one.
            let is_loc = matches!(src, Operand::Reg(n) if test.location(&n.text).is_some());
            let m = if is_loc { "mov" } else { "ld" };
            format!("{m} {dst}, {}", operand(src))
        }
        InstrKind::BinOp { dst, op, a, b } => {
            format!("{} {dst}, {}, {}", op.as_str(), operand(a), operand(b))
        }
        InstrKind::Label(l) => format!("{l}:"),
        InstrKind::Branch { cond: None, target } => format!("goto {target}"),
        InstrKind::Branch {
            cond: Some((c, a, b)),
            target,
        } => {
            let m = match c {
                BranchCond::Eq => "beq",
                BranchCond::Ne => "bne",
            };
            format!("{m} {}, {}, {target}", operand(a), operand(b))
        }
    }
}

/// Binding strength, loosest first.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    Or,
    And,
    Atom,
}

/// `e` written so that it parses back to the same tree in a context that
/// binds at least as tight as `ctx`: operators group to the left, so a
/// right operand of the same operator needs parentheses.
fn expr(e: &Expr, ctx: Prec) -> String {
    let (s, prec) = match e {
        Expr::True => ("true".to_string(), Prec::Atom),
        Expr::Cmp { lhs, op, rhs } => {
            let op = match op {
                CmpOp::Eq => "==",
                CmpOp::Ne => "!=",
            };
            (format!("{} {op} {}", term(lhs), term(rhs)), Prec::Atom)
        }
        Expr::Not(inner) => {
            let body = match **inner {
                Expr::Not(_) | Expr::True => expr(inner, Prec::Atom),
                _ => format!("({})", expr(inner, Prec::Or)),
            };
            (format!("~{body}"), Prec::Atom)
        }
        Expr::And(a, b) => (
            format!("{} /\\ {}", expr(a, Prec::And), expr(b, Prec::Atom)),
            Prec::And,
        ),
        Expr::Or(a, b) => (
            format!("{} \\/ {}", expr(a, Prec::Or), expr(b, Prec::And)),
            Prec::Or,
        ),
    };
    if prec < ctx {
        format!("({s})")
    } else {
        s
    }
}

fn term(t: &Term) -> String {
    match t {
        Term::Reg { thread, reg } => format!("{thread}:{reg}"),
        Term::Loc(l) => l.text.clone(),
        Term::Imm(i) => i.value.to_string(),
    }
}

/// An async-proxy instruction: its PTX head, and its operands with
/// addresses in brackets as PTX writes them.
fn async_op(op: &AsyncOp) -> String {
    let head = op.head();
    match op {
        AsyncOp::BulkLoad {
            dst,
            src,
            size,
            mbar,
        } => format!("{head} [{dst}], [{src}], {}, [{mbar}]", size.value),
        AsyncOp::BulkStore { dst, src, size } => {
            format!("{head} [{dst}], [{src}], {}", size.value)
        }
        AsyncOp::WaitGroup { pending, .. } => format!("{head} {}", pending.value),
        AsyncOp::MbarrierInit { mbar, count } => format!("{head} [{mbar}], {}", count.value),
        AsyncOp::MbarrierArrive {
            mbar, expect_tx, ..
        } => match expect_tx {
            Some(tx) => format!("{head} [{mbar}], {}", tx.value),
            None => format!("{head} [{mbar}]"),
        },
        AsyncOp::MbarrierTryWait {
            dst, mbar, parity, ..
        } => match parity {
            Some(p) => format!("{head} {dst}, [{mbar}], {}", p.value),
            None => format!("{head} {dst}, [{mbar}]"),
        },
        AsyncOp::CommitGroup
        | AsyncOp::ProxyFence(_)
        | AsyncOp::ProxyFenceOneWay(_)
        | AsyncOp::MbarrierInitFence => head,
    }
}
