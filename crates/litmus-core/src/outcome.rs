//! What an outcome of a test is made of: the final values that the test's
//! condition reads. The model checker and the GPU harness both report
//! outcomes as values of these observables, in this order, so that their
//! results can be set side by side.

use crate::ir::{Expr, Term, Test};

mod written;

pub use written::{parse_written, WrittenOutcomeError};

/// One final value that an outcome records.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Observable {
    /// The final value of register `reg` of thread number `thread`.
    Reg {
        /// Index into `Test::threads`.
        thread: usize,
        /// The register's name.
        reg: String,
    },
    /// The final value of location number `loc`.
    Loc {
        /// Index into `Test::locations`.
        loc: usize,
    },
}

impl Observable {
    /// How the observable is written in a condition (`P1:r0`, `x`).
    pub fn display(&self, test: &Test) -> String {
        match self {
            Observable::Reg { thread, reg } => format!("{}:{reg}", test.threads[*thread].name),
            Observable::Loc { loc } => test.locations[*loc].name.text.clone(),
        }
    }
}

/// The observables of a test, as herd7 chooses them: the registers and
/// locations its condition names, in order of first mention. A test whose
/// condition names nothing observes every register its threads write.
/// Names that do not resolve are skipped: validation reports them.
///
/// ```
/// use litmus_core::{ir::Test, outcome::observables};
/// assert!(observables(&Test::new("t")).is_empty());
/// ```
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
                match term {
                    Term::Reg { thread, reg } => {
                        if let Some(t) =
                            test.threads.iter().position(|t| t.name.text == thread.text)
                        {
                            push(
                                out,
                                Observable::Reg {
                                    thread: t,
                                    reg: reg.text.clone(),
                                },
                            );
                        }
                    }
                    Term::Loc(name) => {
                        if let Some(loc) =
                            test.locations.iter().position(|l| l.name.text == name.text)
                        {
                            push(out, Observable::Loc { loc });
                        }
                    }
                    Term::Imm(_) => {}
                }
            }
        }
    }
}

/// Evaluates the condition's expression on one outcome, given as the values
/// of [`observables`] in order.
pub fn eval(test: &Test, observables: &[Observable], values: &[u32]) -> bool {
    eval_expr(test, &test.condition.expr, observables, values)
}

fn eval_expr(test: &Test, expr: &Expr, obs: &[Observable], values: &[u32]) -> bool {
    match expr {
        Expr::True => true,
        Expr::Not(e) => !eval_expr(test, e, obs, values),
        Expr::And(a, b) => eval_expr(test, a, obs, values) && eval_expr(test, b, obs, values),
        Expr::Or(a, b) => eval_expr(test, a, obs, values) || eval_expr(test, b, obs, values),
        Expr::Cmp { lhs, op, rhs } => {
            let l = term_value(test, lhs, obs, values);
            let r = term_value(test, rhs, obs, values);
            (l == r) == (*op == crate::ir::CmpOp::Eq)
        }
    }
}

fn term_value(test: &Test, term: &Term, obs: &[Observable], values: &[u32]) -> u32 {
    let find = |o: Observable| obs.iter().position(|x| *x == o).map_or(0, |i| values[i]);
    match term {
        Term::Imm(imm) => imm.value as u32,
        Term::Loc(name) => match test.locations.iter().position(|l| l.name.text == name.text) {
            Some(loc) => find(Observable::Loc { loc }),
            None => 0,
        },
        Term::Reg { thread, reg } => {
            match test.threads.iter().position(|t| t.name.text == thread.text) {
                Some(t) => find(Observable::Reg {
                    thread: t,
                    reg: reg.text.clone(),
                }),
                None => 0,
            }
        }
    }
}
