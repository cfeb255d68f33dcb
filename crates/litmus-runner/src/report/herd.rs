//! herd7's result block, for `gpu-litmus check --format herd`: the shape
//! that herd7 prints and that `mcompare7` and many scripts read, so that a
//! herd7 result file and ours compare line by line.
//!
//! ```text
//! Test MP Allowed
//! States 3
//! 1:r0=0; 1:r1=0;
//! 1:r0=0; 1:r1=1;
//! 1:r0=1; 1:r1=1;
//! No
//! Witnesses
//! Positive: 0 Negative: 3
//! Condition exists (1:r0=1 /\ 1:r1=0)
//! Observation MP Never 0 3
//! Time MP 0.00
//!
//! ```
//!
//! As herd7 writes them: threads by number (`1:r0`), locations in brackets
//! (`[x]`), `Allowed`/`Forbidden`/`Required` for `exists`/`~exists`/
//! `forall`; `Ok`/`No` whether the claim holds (`Loop Ok`/`Loop No` when
//! the loop bound cut some execution); `Positive`/`Negative` count
//! executions whose final state satisfies the condition's expression or
//! not (swapped for `~exists`, whose witnesses are the executions that do
//! not); `Observation` says `Never`, `Sometimes` or `Always` of the
//! expression. No `Hash=` line: herd7 hashes its own reading of the test
//! file, which this tool cannot reproduce. The same helpers shape
//! litmus7's block ([`super::litmus7`]).

use litmus_core::ir::{CmpOp, Expr, Quantifier, Term, Test};
use litmus_core::outcome::Observable;
use litmus_model::CheckResult;

/// herd7's block for `test` as the model checked it, ending with an empty
/// line as herd7's does.
pub fn block(test: &Test, result: &CheckResult) -> String {
    let name = &test.name.text;
    let q = test.condition.quantifier;
    let mut out = format!("Test {name} {}\n", kind(q));
    out.push_str(&format!("States {}\n", result.allowed.len()));
    for values in &result.allowed {
        out.push_str(&state(test, &result.observables, values));
        out.push('\n');
    }
    let (pos, neg) = (result.positive, result.negative);
    let loop_cut = if result.bounded { "Loop " } else { "" };
    out.push_str(&format!("{loop_cut}{}\n", ok_word(q, pos, neg)));
    let (wit_pos, wit_neg) = witnesses(q, pos, neg);
    out.push_str(&format!(
        "Witnesses\nPositive: {wit_pos} Negative: {wit_neg}\n"
    ));
    out.push_str(&format!("Condition {}\n", condition(test)));
    out.push_str(&observation(name, pos, neg));
    out.push_str(&format!(
        "Time {name} {:.2}\n\n",
        result.elapsed.as_secs_f64()
    ));
    out
}

/// herd7's word for the kind of test a quantifier makes.
pub(crate) fn kind(q: Quantifier) -> &'static str {
    match q {
        Quantifier::Exists => "Allowed",
        Quantifier::NotExists => "Forbidden",
        Quantifier::Forall => "Required",
    }
}

/// `Ok` when the claim holds, given the counts of states satisfying the
/// expression (`pos`) and not (`neg`); else `No`.
pub(crate) fn ok_word(q: Quantifier, pos: u64, neg: u64) -> &'static str {
    let ok = match q {
        Quantifier::Exists => pos > 0,
        Quantifier::NotExists => pos == 0,
        Quantifier::Forall => neg == 0,
    };
    if ok {
        "Ok"
    } else {
        "No"
    }
}

/// The `Positive`/`Negative` pair as herd7 and litmus7 print it: the
/// witnesses of the claim first, so `~exists` swaps the two.
pub(crate) fn witnesses(q: Quantifier, pos: u64, neg: u64) -> (u64, u64) {
    match q {
        Quantifier::NotExists => (neg, pos),
        Quantifier::Exists | Quantifier::Forall => (pos, neg),
    }
}

/// `Observation NAME Never|Sometimes|Always POS NEG` and its newline.
pub(crate) fn observation(name: &str, pos: u64, neg: u64) -> String {
    let how = if pos == 0 {
        "Never"
    } else if neg == 0 {
        "Always"
    } else {
        "Sometimes"
    };
    format!("Observation {name} {how} {pos} {neg}\n")
}

/// One final state, `1:r0=0; [y]=1;`.
pub(crate) fn state(test: &Test, observables: &[Observable], values: &[u32]) -> String {
    observables
        .iter()
        .zip(values)
        .map(|(o, v)| {
            let name = match o {
                Observable::Reg { thread, reg } => format!("{thread}:{reg}"),
                Observable::Loc { loc } => format!("[{}]", test.locations[*loc].name),
            };
            format!("{name}={v};")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The condition as herd7 prints it: `exists (1:r0=1 /\ [x]=0)`, `=` for
/// equality, `not (...)` for negation (and for `!=`), `/\` grouped inside
/// `\/` without parentheses.
pub(crate) fn condition(test: &Test) -> String {
    let q = match test.condition.quantifier {
        Quantifier::Exists => "exists",
        Quantifier::NotExists => "~exists",
        Quantifier::Forall => "forall",
    };
    format!("{q} ({})", prop(test, &test.condition.expr, Above::Top))
}

/// What encloses a sub-expression: whether it needs parentheses.
#[derive(Clone, Copy, PartialEq)]
enum Above {
    Top,
    And,
    Or,
}

fn prop(test: &Test, e: &Expr, above: Above) -> String {
    match e {
        Expr::True => "true".to_string(),
        Expr::Cmp { lhs, op, rhs } => {
            let atom = format!("{}={}", term(test, lhs), term(test, rhs));
            match op {
                CmpOp::Eq => atom,
                CmpOp::Ne => format!("not ({atom})"),
            }
        }
        Expr::Not(inner) => format!("not ({})", prop(test, inner, Above::Top)),
        // herd7 parenthesises a disjunction inside a conjunction, never
        // the other way round (`/\` binds tighter).
        Expr::And(a, b) => format!(
            "{} /\\ {}",
            prop(test, a, Above::And),
            prop(test, b, Above::And)
        ),
        Expr::Or(a, b) => {
            let s = format!(
                "{} \\/ {}",
                prop(test, a, Above::Or),
                prop(test, b, Above::Or)
            );
            if above == Above::And {
                format!("({s})")
            } else {
                s
            }
        }
    }
}

fn term(test: &Test, t: &Term) -> String {
    match t {
        Term::Reg { thread, reg } => {
            let index = test
                .threads
                .iter()
                .position(|th| th.name.text == thread.text)
                .map_or_else(|| thread.text.clone(), |i| i.to_string());
            format!("{index}:{reg}")
        }
        Term::Loc(loc) => format!("[{loc}]"),
        Term::Imm(imm) => imm.value.to_string(),
    }
}
