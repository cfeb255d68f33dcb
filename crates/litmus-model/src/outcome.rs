//! Final outcomes: the values of a test's observables at the end of an
//! execution.
//!
//! The observables follow herd7 (see [`litmus_core::outcome`]): the
//! registers and locations the condition names, in order of first mention;
//! a condition that names nothing observes every register the threads
//! write. A location's final value is
//! that of any one co-maximal write, chosen independently per location
//! (coherence is partial in PTX), so one execution can give several
//! outcomes.

use litmus_core::ir::{Quantifier, Test};

/// The observables and their order are the ones the GPU harness records
/// ([`litmus_core::outcome`]), so that model and hardware outcomes compare
/// value for value.
pub use litmus_core::outcome::{eval, observables, Observable};

/// The values of the observables, in order.
pub type Outcome = Vec<u32>;

/// Whether an outcome is one the test's verdict is about: for `exists` and
/// `~exists` the outcomes that satisfy the condition, for `forall` those
/// that break it.
pub fn is_target(test: &Test, obs: &[Observable], values: &[u32]) -> bool {
    let sat = eval(test, obs, values);
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
