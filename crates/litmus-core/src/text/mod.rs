//! The `.litmus` text format: Dat3M's PTX dialect, read ([`parse`]) and
//! written ([`print()`]).
//!
//! ```text
//! PTX MP-relacq
//! "Message passing with release and acquire"
//! {
//! x=0; y=0;
//! P1:r0=0;
//! }
//!  P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
//!  st.weak x, 1        | ld.acquire.gpu r0, y ;
//!  st.release.gpu y, 1 | ld.weak r1, x        ;
//! exists (P1:r0 == 1 /\ P1:r1 == 0)
//! ```
//!
//! # The dialect
//!
//! - `PTX <name>`: the name is the rest of the line up to white space, so
//!   `SB+sc-gpu` is a name. Then any number of `"..."` strings (the test's
//!   [`Doc`](crate::ir::Doc); they may span lines and have no escapes).
//! - The init block `{ ... }`: items separated by `;` (the last one may
//!   lack it): `x=0` declares a location, `P1:r1=0` (or `1:r1=0`) gives a
//!   register of a thread its initial value. Registers not given start at 0.
//! - **Locations used but not declared start at 0**, as herd7 and Dat3M
//!   read them: a location that an instruction accesses or the condition
//!   names, and the init block does not declare, is a global location
//!   initialised to 0, declared after the others in the order of first use
//!   (thread by thread, then the condition; so [`print()`] writes it in the
//!   init block). Only an access's location operand declares one:
//!   `ld r0, y` with no qualifier stays a copy of register `y` unless `y`
//!   is a location. (The `litmus!` macro still requires every location
//!   declared: in Rust source an undeclared name is likelier a typo.)
//! - The thread header row `P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;`, then one row
//!   per instruction line: cells separated by `|`, rows ended by `;`, one
//!   cell per thread, empty cells allowed. Line breaks and spaces do not
//!   matter; the rows end at `exists`, `~exists` or `forall` (so those are
//!   reserved words).
//! - Instructions: `ld.<sem>[.<scope>] r, x` and `st.<sem>[.<scope>] x, v`
//!   (sem `weak|relaxed|acquire|release|volatile`; no sem is weak);
//!   `ld r, v` with no qualifier is an assignment ([`Mov`]) unless `v` is a
//!   declared location, then it is a weak load; `fence.<sem>.<scope>` (sem
//!   `sc|acq_rel|acquire|release`); `membar.cta|gl|sys` (`gl` is the GPU
//!   scope); `atom.<sem>.<scope>.<op> r, x, v[, v2]` and
//!   `red.<sem>.<scope>.<op> x, v` (op `exch|add|sub|and|or|xor|min|max|inc|dec|cas`;
//!   `cas` takes the compared value and the new one; **no sem means
//!   `.relaxed`, no scope `.gpu`**, as in PTX); `bar.cta.sync I[, ID[, Q]]`
//!   and `bar.cta.arrive I[, ID[, Q]]` (barrier instance, id, quorum; see
//!   [`InstrKind::Barrier`]); labels `LC00:`; `goto L`; `beq a, b, L`,
//!   `bne a, b, L`; `add|sub|mul|and|or|xor r, a, b`. Qualifiers may come in
//!   any order. Operands are registers or integers (decimal, `0x` hex, or
//!   negative).
//! - The condition: `exists`, `~exists` or `forall`, then an expression over
//!   `P0:r0` (or `0:r0`, thread by index), locations and integers, with
//!   `==` (or `=`), `!=`, `/\`, `\/`, `~` and parentheses. `/\` binds
//!   tighter than `\/`; both group to the left.
//!
//! # Extensions
//!
//! The IR holds what Dat3M's dialect cannot say. The printer writes these
//! forms only when a test needs them, so every test Dat3M can express
//! prints as Dat3M reads it.
//!
//! | IR | written |
//! |---|---|
//! | shared location | `shared x=0;` in the init block (`global x=0;` is also read) |
//! | cluster-shared location | `shared::cluster x=0;` |
//! | location in page-locked host memory | `host x=0;` |
//! | location in another GPU's global memory | `gpu 1 x=0;` (the words of a thread's `@gpu 1`; GPU 0 is the default and is not written; Dat3M has no such form) |
//! | host (CPU) thread | `P2@host` (`host` stands alone: a host thread has no CTA, cluster, GPU or warp); its strong accesses may leave the scope out, which means `.sys` (for `atom` and `red` too, where a GPU thread's default is `.gpu`), and take only `.sys` otherwise (see [`crate::validate()`]) |
//! | warp and cluster placement | `P0@cta 0,gpu 0,warp 1,cluster 0` (keys in any order, each at most once; `cta` and `gpu` default to 0, so a thread with no `@...` runs in CTA 0 of GPU 0) |
//! | thread names other than `P<n>` | any identifier: `t0@cta 0,gpu 0`, `t0:r0` in the condition |
//! | cache operator | `ld.weak.ca r0, x`, `st.weak.wt x, 1` (written after the semantics, as PTX does) |
//! | `bar.warp.sync` | `bar.warp.sync` (the full mask `0xffffffff` may be written) |
//! | ISA barrier with count, no id | `bar.sync 1, 64`, `bar.arrive 1, 64` |
//! | register copy from a name that is also a location | `mov r0, x` (`mov` takes any register or number) |
//! | declared verdict | `exists (P1:r0 == 1) => forbidden` (or `=> allowed`), after the condition |
//! | a test name with white space | `PTX "my test"` (`\"` and `\\` escape inside) |
//! | the condition `true` | `exists (true)` |
//!
//! # Errors
//!
//! [`parse`] reports every mistake it can find at once, each with its line
//! and column: syntax errors (each init item and each cell is read on its
//! own, so one bad instruction does not hide the next), then, when the text
//! is well formed, every [`crate::validate()`] error. No input makes it panic
//! or loop; conditions deeper than [`MAX_DEPTH`] are refused.
//!
//! [`Mov`]: crate::instr::InstrKind::Mov
//! [`InstrKind::Barrier`]: crate::instr::InstrKind::Barrier

mod condition;
mod cursor;
mod error;
mod gpu_ptx;
mod implicit;
mod instr;
mod lex;
mod parse;
mod position;
mod print;

pub use condition::MAX_DEPTH;
pub use error::{Diagnostic, DiagnosticKind, SyntaxError, TextError};
pub use lex::parse_value;
pub use parse::parse_unvalidated;
pub use position::{position, Position};
pub use print::{print, print_instr};

use crate::ir::Test;

/// Reads a test in the `.litmus` dialect and validates it.
///
/// Origins in the returned IR are byte offsets into `src`
/// (`Origin(offset as u32)`); [`position`] maps them to lines and columns.
/// On error, all syntax errors are returned; when there are none, all
/// validation errors (the IR of a text with syntax errors would make
/// validation report mistakes that are not there).
///
/// ```
/// let test = litmus_core::text::parse(
///     "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)",
/// ).unwrap();
/// assert_eq!(test.name.text, "SB");
/// assert_eq!(test.threads[1].body.len(), 2);
///
/// let err = litmus_core::text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.release.gpu r0, x ;\nexists (P0:r0 == 0)").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "4:2: `ld` does not take `.release` semantics; loads take .weak, .relaxed, .acquire or .volatile",
/// );
/// ```
pub fn parse(src: &str) -> Result<Test, TextError> {
    let test = parse_unvalidated(src)?;
    match crate::validate(&test) {
        Ok(()) => Ok(test),
        Err(errors) => Err(TextError::from_validation(src, &errors)),
    }
}
