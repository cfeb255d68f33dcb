//! The `.litmus` text format: Dat3M's PTX dialect, read ([`parse`]) and
//! written ([`print()`]); and herd7's GPU_PTX dialect, read only (see
//! [below](#herd7s-gpu_ptx-dialect)).
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
//! | the async proxy (PTX ISA 8.0; see [`crate::async_proxy`]) | as PTX writes it: `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], 16, [b]`, `cp.async.bulk.global.shared::cta.bulk_group [g], [s], 16`, `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group{.read} 0`, `mbarrier.init.shared::cta.b64 [b], 1`, `mbarrier.arrive{.expect_tx}.release.cluster.shared::cluster.b64 _, [b]{, 16}`, `mbarrier.try_wait{.parity}.acquire.cta.shared::cta.b64 r0, [b]{, 0}`, `fence.proxy.async{.global,.shared::cta,.shared::cluster}`, `fence.mbarrier_init.release.cluster`; an operand in brackets is a location either way |
//!
//! # herd7's GPU_PTX dialect
//!
//! A file whose first word is `GPU_PTX` is in the dialect of herd7's PTX
//! front end of 2015, the one the ASPLOS'15 corpus (Alglave et al., "GPU
//! concurrency: weak behaviours and programming assumptions") is written
//! in. It is read into the same IR, so such a test checks under
//! `ptx-2015` (the model it was written for) and runs on the GPU like any
//! other; [`print()`] then writes it in Dat3M's dialect, which reads back
//! to the same IR. There is no printer for it: herd's own tools no longer
//! read it (herdtools7 dropped the front end), so nothing downstream needs
//! the text back.
//!
//! ```text
//! GPU_PTX MP+membar.gl
//! {
//! 0:.reg .s32 r0;
//! 0:.reg .b64 r1 = x;
//! 0:.reg .b64 r3 = y;
//! 1:.reg .s32 r0;
//! 1:.reg .s32 r2;
//! 1:.reg .b64 r1 = y;
//! 1:.reg .b64 r3 = x;
//! }
//!  P0                | P1                ;
//!  mov.s32 r0,1      | ld.cg.s32 r0,[r1] ;
//!  st.cg.s32 [r1],r0 | membar.gl         ;
//!  membar.gl         | ld.cg.s32 r2,[r3] ;
//!  st.cg.s32 [r3],r0 |                   ;
//! scopeTree
//! (device (kernel (cta (warp P0)) (cta (warp P1))))
//! x: global, y: global
//! exists (1:r0=1 /\ 1:r2=0)
//! ```
//!
//! - `GPU_PTX <name>`, `"..."` strings, and herd's comments `(* ... *)`
//!   anywhere after the name.
//! - The init block: `x=0` (or `x` alone, 0), and per thread (`0:` or
//!   `P0:`) `.reg .<type> r` (starting at 0), `.reg .<type> r = 5`, or
//!   `.reg .<type> r = x`, **the address of `x`**: the IR names locations
//!   in its accesses, so `[r]` is resolved to `x` as the test is read. An
//!   address register must keep its address and be used only as one; a
//!   register with no address used as `[r]` is an error. The `.reg .type`
//!   may be left out, as herd allows.
//! - The header row `P0 | P1 ;` (threads are numbered by column), or
//!   `T0 | T1 ;` as the ASPLOS'15 paper prints its listings, then rows of
//!   cells as in Dat3M's dialect, up to `scopeTree`. The header's style
//!   holds for the whole file (the init block's `P1:`, the scope tree,
//!   the condition's `P1:r0`); the other style is an error. Either way
//!   the IR's threads are `P0`, `P1`, ..., as herd7 reads them back.
//! - Instructions, each with a 32-bit type (`.s32`, `.u32`, `.b32`; the
//!   IR's values are 32-bit words, so 64-bit types are refused):
//!   `ld[.volatile][.global|.shared][.<cache op>].<type> r, [a]`, `st`
//!   likewise with `[a], v`; `mov`, `add`, `sub`, `and`, `or`, `xor`,
//!   `mul.lo`, `cvt.<type>.<type>` (a copy); `membar.cta|gl|sys`;
//!   `atom[.global|.shared].<op>.<type> r, [a], v[, v2]` (op `exch`, `add`,
//!   `and`, `or`, `xor`, `min`, `max`, `inc`, `dec`, `cas`); labels `L:`,
//!   alone in a cell or before an instruction; `bra L`; and `@p bra L` or
//!   `@!p bra L` after `setp.eq|ne.<type> p, a, b`. The IR has branches on
//!   a comparison, not predicates, so the branch takes the `setp`'s
//!   comparison, which is only right when no label (a jump target) and no
//!   write of its operands come in between: otherwise it is an error.
//! - The memory-order mapping is PTX's of the time: plain `ld`/`st` (with
//!   or without a cache operator) are weak accesses, the cache operator
//!   kept for the generated PTX; `.volatile` is [`Sem::Volatile`]; `atom`,
//!   which had no semantics then, is what PTX now writes
//!   `atom.relaxed.gpu`; `membar.gl` is the GPU scope. (`ptx-2015` counts
//!   volatile and atomic accesses as plain ones, as the ASPLOS'15 model
//!   does.)
//! - `scopeTree` and the tree: `(device (kernel (cta (warp P0) ...) ...))`
//!   with `block`, `work_group` and `sub_group` as herd's synonyms, and
//!   the paper's `ScopeTree` and `grid` (for `device`). A
//!   level may be left out, and each child then is an instance of its own
//!   (`(cta P0 P1)`: two warps). A device is a GPU; CTAs are numbered
//!   within their GPU and warps within their CTA, every thread getting a
//!   warp. Kernels group nothing: the scopes are the CTA, the device and
//!   the system, and the harness runs one grid per GPU.
//! - The memory map `x: global, y: shared` (`local` is `shared`; `;`
//!   also separates): a location's space, which a `.global` or `.shared`
//!   on an access must match.
//! - The condition as in Dat3M's dialect (`=` for equality, `/\`, `\/`,
//!   `~`, `true`, `exists`, `~exists`, `forall`), with herd's meaning of a
//!   name on the right of `=`, an address: that is refused. So are
//!   `locations [...]`, `filter`, `final`, `observed`, `cases` and `with`,
//!   which the IR has no place for.
//!
//! [`Sem::Volatile`]: crate::instr::Sem::Volatile
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
mod header;
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
pub use print::{print, print_condition, print_instr};

use crate::ir::Test;

/// Reads a test in the `.litmus` dialect (or herd7's GPU_PTX dialect,
/// when its first word is `GPU_PTX`) and validates it.
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
///
/// // herd7's GPU_PTX: `[r1]` is `x`, whose address the init block gives `r1`.
/// let test = litmus_core::text::parse(
///     "GPU_PTX CoRR\n{ 0:.reg .b64 r1 = x; 1:.reg .s32 r0; 1:.reg .s32 r2; 1:.reg .b64 r1 = x; }\n P0 | P1 ;\n st.cg.s32 [r1],1 | ld.cg.s32 r0,[r1] ;\n | ld.cg.s32 r2,[r1] ;\nscopeTree (device (cta P0) (cta P1))\nexists (1:r0=1 /\\ 1:r2=0)",
/// ).unwrap();
/// assert_eq!(litmus_core::text::print_instr(&test.threads[1].body[0].kind, &test), "ld.weak.cg r0, x");
/// assert_eq!(test.threads[1].placement.cta, 1);
/// ```
pub fn parse(src: &str) -> Result<Test, TextError> {
    let test = parse_unvalidated(src)?;
    match crate::validate(&test) {
        Ok(()) => Ok(test),
        Err(errors) => Err(TextError::from_validation(src, &errors)),
    }
}

/// The largest `.litmus` file [`read_file`] reads: a hundred times the
/// largest test of the repository, so that no file makes a reader exhaust
/// memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why a `.litmus` file gives no test; each says where, as compilers do.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be read (or is no regular file, or is over
    /// [`MAX_FILE_BYTES`]).
    #[error(transparent)]
    File(#[from] crate::files::WalkError),
    /// Its bytes are not UTF-8 text.
    #[error("{0}: cannot read: not UTF-8 text")]
    NotText(String),
    /// Its text is not a valid test: every problem, one
    /// `file:line:col: message` per line.
    #[error("{0}")]
    Invalid(String),
}

/// Reads and parses the `.litmus` file `file`: its test, and its text
/// (which places later errors about the test at a line and column).
///
/// ```
/// let path = std::env::temp_dir().join(format!("read-file-{}.litmus", std::process::id()));
/// std::fs::write(&path, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n").unwrap();
/// let (test, src) = litmus_core::text::read_file(path.to_str().unwrap()).unwrap();
/// assert_eq!((test.name.text.as_str(), &src[..5]), ("T", "PTX T"));
/// std::fs::write(&path, "PTX T\n{ x=0; }\n").unwrap();
/// let e = litmus_core::text::read_file(path.to_str().unwrap()).unwrap_err();
/// assert!(e.to_string().starts_with(path.to_str().unwrap()), "{e}");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn read_file(file: &str) -> Result<(Test, String), ReadError> {
    let bytes = crate::files::read_regular(std::path::Path::new(file), MAX_FILE_BYTES)?;
    let src = String::from_utf8(bytes).map_err(|_| ReadError::NotText(file.to_string()))?;
    match parse(&src) {
        Ok(test) => Ok((test, src)),
        Err(e) => Err(ReadError::Invalid(e.render(file).trim_end().to_string())),
    }
}

/// Why a test could not be written into a folder.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The folder could not be made.
    #[error("cannot create {}: {source}", dir.display())]
    Folder {
        /// The folder.
        dir: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes `test` to `DIR/<name>.litmus`, named after the test, whole or
/// not at all (the folder made if missing); the file's path.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("write-into-{}", std::process::id()));
/// let test = litmus_core::text::parse(
///     "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n",
/// )
/// .unwrap();
/// let path = litmus_core::text::write_into(&dir, &test).unwrap();
/// assert_eq!(path, dir.join("T.litmus"));
/// let back = litmus_core::text::read_file(path.to_str().unwrap()).unwrap().0;
/// assert_eq!(back.name.text, "T");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_into(dir: &std::path::Path, test: &Test) -> Result<std::path::PathBuf, WriteError> {
    std::fs::create_dir_all(dir).map_err(|source| WriteError::Folder {
        dir: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join(format!("{}.litmus", test.name.text));
    crate::files::write_atomic(&path, print(test).as_bytes())
        .map_err(|source| WriteError::File {
            path: path.clone(),
            source,
        })
        .map(|()| path)
}
