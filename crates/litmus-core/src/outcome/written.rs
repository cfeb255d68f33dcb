//! Reading an outcome written by a person (`P1:r0=1; P1:r1=0`), or by
//! litmus7 in its log, into the values of a test's observables, in their
//! order: `gpu-litmus explain --outcome` and the evidence import read them.

use crate::ir::{Test, VALUE_RANGE};
use crate::operand::parse_value;

use super::observables;

/// Why a written outcome does not read against a test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WrittenOutcomeError {
    /// A pair without `=`.
    #[error("expected `NAME=VALUE`, found `{0}`")]
    NotAPair(String),
    /// A name that is none of the test's observables; `known` lists them.
    #[error("unknown observable `{name}`; {known}")]
    Unknown {
        /// The name as written.
        name: String,
        /// The test's observables, or that it has none.
        known: String,
    },
    /// A value that is not a 32-bit number as a test writes one.
    #[error(
        "bad value `{value}` for {name}: expected a whole number from {} to {} (decimal or 0x hexadecimal)",
        VALUE_RANGE.start(),
        VALUE_RANGE.end()
    )]
    BadValue {
        /// The observable.
        name: String,
        /// The value as written.
        value: String,
    },
    /// An observable given twice.
    #[error("{0} is given twice")]
    Twice(String),
    /// Observables not given; `known` lists them all.
    #[error("the outcome must give every observable; missing: {missing} ({known})")]
    Missing {
        /// The observables not given, comma-separated.
        missing: String,
        /// The test's observables.
        known: String,
    },
}

/// Parses `text` into one value per observable of `test`, in the order
/// [`observables`] gives. Pairs are `NAME=VALUE` or `NAME==VALUE`,
/// separated by `;`, `,` or `/\`; the whole may sit in parentheses. Every
/// observable must be given, once. Values are read as a test writes them
/// (decimal, `0x` hexadecimal or negative, within 32 bits) and taken modulo
/// 2^32, as the model takes them.
///
/// ```
/// use litmus_core::ir::*;
/// use litmus_core::outcome::parse_written;
/// // MP's threads and condition `exists (P1:r0 == 1 /\ P1:r1 == 0)`, the
/// // bodies left out (litmus-text's `parse` reads the whole test).
/// let name = |s: &str| Name::new(s, Origin::NONE);
/// let is = |reg: &str, v| Expr::Cmp {
///     lhs: Term::Reg { thread: name("P1"), reg: name(reg) },
///     op: CmpOp::Eq,
///     rhs: Term::Imm(Imm::new(v, Origin::NONE)),
/// };
/// let mut mp = Test::new("MP");
/// for (t, cta) in [("P0", 0), ("P1", 1)] {
///     let placement = Placement::cta(cta);
///     mp.threads.push(Thread { name: name(t), placement, init: vec![], body: vec![] });
/// }
/// mp.condition.expr = Expr::And(Box::new(is("r0", 1)), Box::new(is("r1", 0)));
/// assert_eq!(parse_written(&mp, "P1:r1=0; P1:r0=1"), Ok(vec![1, 0]));
/// assert!(parse_written(&mp, "P1:r0=1").is_err());
/// ```
pub fn parse_written(test: &Test, text: &str) -> Result<Vec<u32>, WrittenOutcomeError> {
    let names: Vec<String> = observables(test).iter().map(|o| o.display(test)).collect();
    let known = || {
        if names.is_empty() {
            "the test observes nothing".to_string()
        } else {
            format!("the observables are: {}", names.join(", "))
        }
    };
    let mut body = text.trim();
    if let Some(inner) = body.strip_prefix('(').and_then(|b| b.strip_suffix(')')) {
        body = inner;
    }
    let mut values: Vec<Option<u32>> = vec![None; names.len()];
    for pair in body
        .split("/\\")
        .flat_map(|p| p.split([';', ',']))
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (name, value) = pair
            .split_once("==")
            .or_else(|| pair.split_once('='))
            .ok_or_else(|| WrittenOutcomeError::NotAPair(pair.to_string()))?;
        let (name, value) = (name.trim(), value.trim());
        let i =
            names
                .iter()
                .position(|n| n == name)
                .ok_or_else(|| WrittenOutcomeError::Unknown {
                    name: name.to_string(),
                    known: known(),
                })?;
        // As the model reads a test's values: modulo 2^32, so `-1` is
        // `0xffffffff`.
        let v =
            parse_value(value)
                .map(|v| v as u32)
                .ok_or_else(|| WrittenOutcomeError::BadValue {
                    name: name.to_string(),
                    value: value.to_string(),
                })?;
        if values[i].replace(v).is_some() {
            return Err(WrittenOutcomeError::Twice(name.to_string()));
        }
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| n.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(WrittenOutcomeError::Missing {
            missing: missing.join(", "),
            known: known(),
        });
    }
    Ok(values.into_iter().flatten().collect())
}
