//! Helpers shared by the model's integration tests.

#![allow(dead_code)]

use litmus_core::ir::{Test, Verdict};
use litmus_model::{check, model_by_name, CheckResult, Options};

/// Parses a `.litmus` text, panicking with the parser's message.
pub fn parse(src: &str) -> Test {
    litmus_core::text::parse(src)
        .unwrap_or_else(|e| panic!("test text does not parse:\n{e}\n{src}"))
}

/// Checks a `.litmus` text under a model.
pub fn run(src: &str, model: &str) -> CheckResult {
    let test = parse(src);
    check(&test, model_by_name(model).unwrap(), &Options::default())
        .unwrap_or_else(|e| panic!("check failed: {e}\n{src}"))
}

/// The verdict on the condition's outcome (allowed: some consistent
/// execution satisfies an `exists` condition).
pub fn verdict(src: &str, model: &str) -> Verdict {
    run(src, model).verdict()
}

pub const ALLOWED: Verdict = Verdict::Allowed;
pub const FORBIDDEN: Verdict = Verdict::Forbidden;
