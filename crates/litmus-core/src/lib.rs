//! The core of gpu-litmus: the litmus-test IR ([`ir`], [`instr`]) and its
//! validation ([`validate()`]).
//!
//! Every front end (the `litmus!` macro, the `.litmus` files that
//! `litmus-text` reads) produces a [`ir::Test`]; every back end (the model
//! checker, the PTX generator of `litmus-ptx`) consumes one. None of them
//! re-parses another's output, and the IR depends on none of them.

#![warn(missing_docs)]

pub mod async_proxy;
pub mod corpus;
pub mod files;
pub mod instr;
pub mod ir;
pub mod operand;
pub mod order;
pub mod outcome;
pub mod parallel;
pub mod printable;
pub mod proxy;
pub mod shell;
pub mod space;
pub mod validate;

pub use validate::{validate, ValidationError, ValidationErrorKind};
