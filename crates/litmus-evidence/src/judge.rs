//! How an outcome the hardware showed is judged against a model: allowed
//! after all once loops may iterate more than the model's bound, or
//! forbidden with the model's reason. The runner (a test's hardware half)
//! and the gate (recorded evidence) judge the same way, so both live here,
//! below the runner and beside the evidence that the gate reads.

use std::collections::BTreeSet;
use std::time::Duration;

use litmus_core::ir::Test;
use litmus_model::{check, explain_outcome, Model, Options};

/// The largest loop bound the judge tries when the hardware shows an
/// outcome that the configured bound cuts off.
const MAX_LOOP_BOUND: u32 = 8;
/// The longest one unrolled check of [`allowed_with_more_iterations`] takes.
const UNROLL_TIME: Duration = Duration::from_secs(2);

/// For each outcome of `outside` (seen on the hardware, outside what
/// `model` allows at the options' loop bound; `bounded`: the check cut
/// loops): `None` when the model allows it with more loop iterations (the
/// hardware's loops are not bounded as tightly as the model's), else the
/// model's reason, from a bounded explanation. the runner and the gate both judge
/// the hardware's outcomes this way.
pub fn forbidden_reasons(
    test: &Test,
    model: &dyn Model,
    options: &Options,
    bounded: bool,
    outside: &[&[u32]],
) -> Vec<Option<String>> {
    let unrolled = if bounded && !outside.is_empty() {
        allowed_with_more_iterations(test, model, options)
    } else {
        BTreeSet::new()
    };
    let budget = explain_budget(options);
    outside
        .iter()
        .map(|values| {
            (!unrolled.contains(*values)).then(|| {
                match explain_outcome(test, model, &budget, values) {
                    Ok(e) => e.to_text(2),
                    Err(e) => format!("no explanation: {e}"),
                }
            })
        })
        .collect()
}

/// The budget of one forbidden outcome's explanation. `check` has already
/// decided that the model forbids the outcome (a pruned search, fast); the
/// reason needs every candidate execution, which for a test with loops and
/// atomics can take minutes, so what a bounded search finds is shown.
fn explain_budget(opts: &Options) -> Options {
    Options {
        max_steps: opts.max_steps.min(EXPLAIN_STEPS),
        max_time: Some(opts.max_time.map_or(EXPLAIN_TIME, |t| t.min(EXPLAIN_TIME))),
        ..opts.clone()
    }
}

/// Search steps of one forbidden outcome's explanation.
const EXPLAIN_STEPS: u64 = 200_000;
/// Wall time of one forbidden outcome's explanation.
const EXPLAIN_TIME: Duration = Duration::from_secs(2);

/// The outcomes `model` allows with loops unrolled up to
/// 8 times, as far as 2 s of search per bound goes (the private constants
/// `MAX_LOOP_BOUND` and `UNROLL_TIME`): an
/// exhaustive check of a spin loop at eight iterations under a strict
/// model can take minutes, and this only excuses outcomes, so a bound
/// that does not finish in time keeps the previous bound's answer.
pub fn allowed_with_more_iterations(
    test: &Test,
    model: &dyn Model,
    options: &Options,
) -> BTreeSet<Vec<u32>> {
    let mut bound = options.loop_bound.max(1);
    let mut allowed = BTreeSet::new();
    while bound < MAX_LOOP_BOUND {
        bound *= 2;
        let options = Options {
            loop_bound: bound,
            max_time: Some(options.max_time.map_or(UNROLL_TIME, |t| t.min(UNROLL_TIME))),
            ..options.clone()
        };
        match check(test, model, &options) {
            Ok(r) => {
                allowed = r.allowed;
                if !r.bounded {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    allowed
}
