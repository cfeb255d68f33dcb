//! Models as data: memory models written in cat, the language of herd7
//! and Dat3M, run by the same engine as the built-in models.
//!
//! A cat file names a model wherever a model name goes: a name ending in
//! `.cat` is read as a path ([`crate::model_by_name`]). One file per step:
//!
//! - `lexer.rs` and `parser.rs`: the syntax, with both tools' comments;
//! - `compile.rs`: `include`s, names, types (set or relation), and which
//!   checks may prune partial candidates;
//! - `algebra.rs`: the operators on sets and relations;
//! - `base.rs`: the base sets and relations, and where each comes from in
//!   this engine (`sr`, `scta`, `syncbar`, `sync_fence`, the tags);
//! - `eval.rs`: how a check is evaluated over a candidate execution;
//! - `model.rs`: a compiled file as a [`crate::Model`];
//! - `mutate.rs` (with `source.rs`, `print.rs`, `polarity.rs`): every
//!   single-edit mutant of a file, for finding what the tests leave
//!   unchecked ([`mutate`]);
//! - `batch.rs`: many models judged over one search per test
//!   ([`batch::Batch`]), for mutants and model diffs.
//!
//! The language: `let`, `let rec ... and ...` (least fixed points; a
//! variable may not occur under `~` or right of `\`), `include "file"`
//! (relative to the including file), `|`, `&`, `\`, `;`, `S * T`, `~`,
//! `^-1`, `+`, `*`, `?`, `[S]`, `domain(r)`, `range(r)`, `toid(S)`, `id`,
//! `0`, `_`, the checks `acyclic`, `irreflexive`, `empty` (negated with
//! `~`, named with `as`, or `flag`ged), and `(* *)`, `/* */` and `//`
//! comments. `show` is read and ignored (it only picks what herd7 draws).
//! Not run, with an error that says so: functions (`let f(x) = ...`),
//! `undefined_unless`, and herd7's procedures, `match` and `forall`.
//!
//! ```
//! use litmus_model::cat::CatModel;
//! use litmus_model::Model;
//! let src = "SC\nlet com = rf | co | fr\nacyclic po | com as sc\n";
//! let m = CatModel::from_source("sc.cat".as_ref(), src, &mut |_| Err("no includes".into())).unwrap();
//! assert_eq!(m.check_names(), ["sc"]);
//! let err = CatModel::from_source("bad.cat".as_ref(), "acyclic po | R", &mut |_| Err("".into())).unwrap_err();
//! assert_eq!(err.to_string().split(": ").next(), Some("bad.cat:1:9"));
//! ```

mod algebra;
mod base;
pub mod batch;
mod compile;
mod error;
mod eval;
mod include;
mod lexer;
mod model;
pub mod mutate;
mod parser;
mod polarity;
mod print;
mod program;
mod source;

pub use error::{CatError, CatErrorKind, Pos};
pub use include::{read_from_disk, IncludeError, ReadInclude};
pub use model::{load, CatModel};
pub use parser::CheckKind;
