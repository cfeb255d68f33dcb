//! litmus-model: candidate-execution enumeration and axiomatic memory
//! models for litmus tests.
//!
//! The split follows herd7 and Dat3M: the enumerator builds the candidate
//! executions of a test (events per thread along each control path, rf,
//! coherence, Fence-SC orders, barrier synchronisation), and a [`Model`]
//! judges them. Models are chosen by name ([`model_by_name`],
//! [`model_from_env`]): `ptx` (default), `sc`, `ptx-2015`, `ptx-7.5`, or a path to a
//! cat file ([`cat`]).
//!
//! ```
//! use litmus_model::{check, model_by_name, Options};
//! # let test = litmus_core::ir::Test::new("empty");
//! # let _ = |test: &litmus_core::ir::Test| {
//! let result = check(test, model_by_name("ptx").unwrap(), &Options::default()).unwrap();
//! println!("{} allowed outcomes, claim holds: {}", result.allowed.len(), result.claim_holds);
//! # };
//! ```

#![warn(missing_docs)]

pub mod barrier;
pub mod budget;
pub mod cat;
pub mod check;
pub mod compare;
pub mod enumerate;
pub mod events;
pub mod explain;
mod forced;
pub mod model;
pub mod models;
pub mod outcome;
pub mod proxy;
pub mod relation;
pub mod termination;
pub mod twins;
mod verdicts;
pub use verdicts::Unchecked;

pub use budget::{BudgetExceeded, Options, TooLarge, DEFAULT_MAX_EVENTS};
pub use check::{check, check_with, CheckError, CheckResult};
pub use explain::{
    explain, explain_condition, explain_outcome, Explanation, Rejection, WitnessEdge, WitnessEvent,
};
pub use model::Model;
pub use models::{
    model_by_name, model_from_env, model_from_env_for, model_names, UnknownModel, DEFAULT_MODEL,
    MODELS, MODEL_ENV,
};
pub use outcome::{Observable, Outcome};
pub use termination::{check_termination, Hang, Stuck, Termination, Where};
