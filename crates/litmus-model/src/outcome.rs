//! Final outcomes: the values of a test's observables at the end of an
//! execution.
//!
//! The observables follow herd7: the registers and locations the condition
//! names, in order of first mention; a condition that names nothing
//! observes every register the threads write. A location's final value is
//! that of any one co-maximal write, chosen independently per location
//! (coherence is partial in PTX), so one execution can give several
//! outcomes.

use litmus_core::ir::{CmpOp, Expr, Quantifier, Term, Test};

/// One final value an outcome records.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Observable {
    /// Register `reg` of thread number `thread`.
    Reg { thread: usize, reg: String },
    /// Location number `loc`.
    Loc { loc: usize },
}

impl Observable {
    /// As a condition writes it: `P1:r0`, `x`.
    pub fn display(&self, test: &Test) -> String {
        match self {
            Observable::Reg { thread, reg } => format!("{}:{reg}", test.threads[*thread].name),
            Observable::Loc { loc } => test.locations[*loc].name.text.clone(),
        }
    }
}

/// The values of the observables, in order.
pub type Outcome = Vec<u32>;

/// The observables of `test` (see the module documentation).
pub fn observables(test: &Test) -> Vec<Observable> {
    let mut out = Vec::new();
    collect(test, &test.condition.expr, &mut out);
    if out.is_empty() {
        for (t, thread) in test.threads.iter().enumerate() {
            for instr in &thread.body {
                if let Some(dst) = instr.kind.dst() {
                    push(
                        &mut out,
                        Observable::Reg {
                            thread: t,
                            reg: dst.text.clone(),
                        },
                    );
                }
            }
        }
    }
    out
}

fn push(out: &mut Vec<Observable>, o: Observable) {
    if !out.contains(&o) {
        out.push(o);
    }
}

fn term_observable(test: &Test, term: &Term) -> Option<Observable> {
    match term {
        Term::Reg { thread, reg } => test
            .threads
            .iter()
            .position(|t| t.name.text == thread.text)
            .map(|t| Observable::Reg {
                thread: t,
                reg: reg.text.clone(),
            }),
        Term::Loc(name) => test
            .locations
            .iter()
            .position(|l| l.name.text == name.text)
            .map(|loc| Observable::Loc { loc }),
        Term::Imm(_) => None,
    }
}

fn collect(test: &Test, expr: &Expr, out: &mut Vec<Observable>) {
    match expr {
        Expr::True => {}
        Expr::Not(e) => collect(test, e, out),
        Expr::And(a, b) | Expr::Or(a, b) => {
            collect(test, a, out);
            collect(test, b, out);
        }
        Expr::Cmp { lhs, rhs, .. } => {
            for term in [lhs, rhs] {
                if let Some(o) = term_observable(test, term) {
                    push(out, o);
                }
            }
        }
    }
}

/// Evaluates an expression on one outcome.
pub fn eval_expr(test: &Test, expr: &Expr, obs: &[Observable], values: &[u32]) -> bool {
    match expr {
        Expr::True => true,
        Expr::Not(e) => !eval_expr(test, e, obs, values),
        Expr::And(a, b) => eval_expr(test, a, obs, values) && eval_expr(test, b, obs, values),
        Expr::Or(a, b) => eval_expr(test, a, obs, values) || eval_expr(test, b, obs, values),
        Expr::Cmp { lhs, op, rhs } => {
            let value = |t: &Term| match t {
                Term::Imm(i) => i.value as u32,
                other => term_observable(test, other)
                    .and_then(|o| obs.iter().position(|x| *x == o))
                    .map_or(0, |i| values[i]),
            };
            (value(lhs) == value(rhs)) == (*op == CmpOp::Eq)
        }
    }
}

/// Whether an outcome is one the test's verdict is about: for `exists` and
/// `~exists` the outcomes that satisfy the condition, for `forall` those
/// that break it.
pub fn is_target(test: &Test, obs: &[Observable], values: &[u32]) -> bool {
    let sat = eval_expr(test, &test.condition.expr, obs, values);
    match test.condition.quantifier {
        Quantifier::Exists | Quantifier::NotExists => sat,
        Quantifier::Forall => !sat,
    }
}

/// `P0:r0=1; x=2`.
pub fn format_outcome(test: &Test, obs: &[Observable], values: &[u32]) -> String {
    obs.iter()
        .zip(values)
        .map(|(o, v)| format!("{}={v}", o.display(test)))
        .collect::<Vec<_>>()
        .join("; ")
}
