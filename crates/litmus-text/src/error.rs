//! Errors of the text reader: what is wrong, and where in the file.

use std::fmt;

use crate::position::{LineIndex, Position};
use litmus_core::ir::Origin;
use litmus_core::validate::{ValidationError, ValidationErrorKind};

/// Everything wrong with one `.litmus` text, sorted by position.
///
/// `Display` writes one `line:column: message` per line; [`TextError::render`]
/// prefixes each with a file path, the way compilers do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines(.diagnostics))]
pub struct TextError {
    /// Never empty in an error that [`crate::parse`] returns.
    pub diagnostics: Vec<Diagnostic>,
}

impl TextError {
    /// Turns validation errors of a test read from `src` into a
    /// `TextError`: for callers that validate a parsed test again, or
    /// validate one they changed.
    pub fn from_validation(src: &str, errors: &[ValidationError]) -> TextError {
        let index = LineIndex::new(src);
        let mut diagnostics: Vec<Diagnostic> = errors
            .iter()
            .map(|e| Diagnostic::new(&index, e.origin, DiagnosticKind::Invalid(e.kind.clone())))
            .collect();
        diagnostics.sort_by_key(|d| d.offset);
        TextError { diagnostics }
    }

    /// One line per diagnostic, `path:line:column: message`.
    ///
    /// ```
    /// let err = litmus_text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, r9 ;\nexists (x == 0)").unwrap_err();
    /// assert_eq!(
    ///     err.render("t.litmus"),
    ///     "t.litmus:4:13: register `r9` is read before any write in thread `P0` (initialise it or write it first)\n"
    /// );
    /// ```
    pub fn render(&self, path: &str) -> String {
        let mut out = String::new();
        for d in &self.diagnostics {
            out.push_str(path);
            out.push(':');
            out.push_str(&d.to_string());
            out.push('\n');
        }
        out
    }
}

fn lines(diagnostics: &[Diagnostic]) -> String {
    let lines: Vec<String> = diagnostics.iter().map(Diagnostic::to_string).collect();
    lines.join("\n")
}

/// One mistake, with its position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Byte offset into the source; `None` for a node without origin.
    pub offset: Option<u32>,
    /// Line and column (both from 1; columns count characters). `None`
    /// when `offset` is.
    pub position: Option<Position>,
    /// What is wrong; its `Display` is the message.
    pub kind: DiagnosticKind,
}

impl Diagnostic {
    pub(crate) fn new(index: &LineIndex, origin: Origin, kind: DiagnosticKind) -> Diagnostic {
        Diagnostic {
            offset: origin.is_some().then_some(origin.0),
            position: index.position(origin),
            kind,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some(p) => write!(f, "{p}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

/// Whether the text could not be read, or was read and is not a valid test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DiagnosticKind {
    /// The text is not in the dialect.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// The text is a test, and [`litmus_core::validate()`] rejects it.
    #[error(transparent)]
    Invalid(#[from] ValidationErrorKind),
}

/// A mistake in the text itself. Messages say what was found and what was
/// expected; `found` strings are already quoted (`` `x` ``, "end of file").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    /// A token other than the grammar allows here.
    #[error("expected {expected}, found {found}")]
    Expected {
        /// What the grammar allows here.
        expected: &'static str,
        /// What the text holds instead, quoted.
        found: String,
    },
    /// A character that starts no token.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// A string that runs to the end of the file.
    #[error("unterminated string: expected a closing `\"`")]
    UnterminatedString,
    /// A herd comment `(*` with no closing `*)`.
    #[error("unterminated comment: expected a closing `*)`")]
    UnterminatedComment,
    /// A literal that is not a number.
    #[error("invalid number `{0}`: expected decimal digits or 0x and hex digits")]
    InvalidNumber(String),
    /// A number outside [`litmus_core::ir::VALUE_RANGE`].
    #[error("number `{0}` is too large (expected -2147483648 ..= 4294967295)")]
    NumberTooLarge(String),
    /// An instruction word the dialect does not know.
    #[error("unknown instruction `{0}`: expected ld, st, suld, sust, tld, cold, mov, fence, membar, atom, red, bar, cp, mbarrier, add, sub, mul, and, or, xor, goto, beq, bne or a label `L:`")]
    UnknownInstruction(String),
    /// An instruction word herd's GPU_PTX dialect does not have.
    #[error("unknown instruction `{0}`: expected ld, st, mov, add, sub, mul, and, or, xor, cvt, setp, bra, membar, atom or a label `L:`")]
    UnknownGpuPtxInstruction(String),
    /// `shared y @ generic aliases x`: an alias lives where its target does.
    #[error("an alias takes no memory space: it is memory of the location it aliases")]
    AliasWithSpace,
    /// An async-proxy instruction whose qualifiers spell no form the
    /// dialect knows (`cp.async.bulk.global.global`, say).
    #[error("unknown form `{instr}`: expected {expected}")]
    UnknownAsyncForm {
        /// The instruction and its qualifiers, as written.
        instr: String,
        /// The forms the dialect knows.
        expected: &'static str,
    },
    /// A qualifier the instruction does not take.
    #[error("unknown qualifier `.{qual}` on `{instr}`: expected {expected}")]
    UnknownQualifier {
        /// The instruction, as written.
        instr: String,
        /// The qualifier, without its dot.
        qual: String,
        /// The qualifiers the instruction takes.
        expected: &'static str,
    },
    /// Two qualifiers of the same kind (two scopes, say) on one instruction.
    #[error("`{instr}` has two {what} qualifiers, `.{first}` and `.{second}`")]
    DuplicateQualifier {
        /// The instruction, as written.
        instr: String,
        /// The kind of qualifier (`scope`, `semantics`, ...).
        what: &'static str,
        /// The first one, without its dot.
        first: String,
        /// The second one, without its dot.
        second: String,
    },
    /// An instruction without a qualifier it needs (`atom` without an operation, say).
    #[error("`{instr}` needs {what}")]
    MissingQualifier {
        /// The instruction, as written.
        instr: String,
        /// The kind of qualifier missing.
        what: &'static str,
    },
    /// An instruction with the wrong number of operands.
    #[error("`{instr}` takes {expected}, found {found}")]
    OperandCount {
        /// The instruction, as written.
        instr: String,
        /// The operand counts it takes, in words.
        expected: &'static str,
        /// How many operands it has.
        found: usize,
    },
    /// An operand of the wrong kind (a constant where a register must be, say).
    #[error("expected {expected} as operand {index} of `{instr}`, found {found}")]
    BadOperand {
        /// The instruction, as written.
        instr: String,
        /// The operand's position, from 1.
        index: usize,
        /// What the operand must be.
        expected: &'static str,
        /// What the text holds instead, quoted.
        found: String,
    },
    /// A `bar.warp.sync` mask other than all 32 lanes.
    #[error("`bar.warp.sync` takes only the full mask 0xffffffff, found {0}")]
    WarpMask(i64),
    /// A row of the thread table whose cell count differs from the header's.
    #[error("this row has {found} {}, expected {expected} (one per thread)", if *found == 1 { "cell" } else { "cells" })]
    CellCount {
        /// The header row's thread count.
        expected: usize,
        /// This row's cell count.
        found: usize,
    },
    /// A placement word (`cta`, `gpu`, ...) given twice for one thread.
    #[error("`{0}` is given twice in this placement")]
    DuplicatePlacement(&'static str),
    /// A placement number that does not fit 32 bits.
    #[error("{what} {value} does not fit 32 bits unsigned (expected 0 ..= 4294967295)")]
    PlacementRange {
        /// The placement word (`cta`, `gpu`, ...).
        what: &'static str,
        /// The number given.
        value: i64,
    },
    /// A thread index past the last thread.
    #[error("no thread has index {index}: the test has {threads} {}, numbered from 0", if *threads == 1 { "thread" } else { "threads" })]
    NoSuchThreadIndex {
        /// The index given.
        index: i64,
        /// How many threads the test has.
        threads: usize,
    },
    /// An init entry for a thread that the header row does not name.
    #[error("unknown thread `{0}` in the init block: expected a thread of the header row")]
    UnknownInitThread(String),
    /// A condition nested past the bound, which keeps every recursive walk
    /// of the IR within the stack.
    #[error("the condition is nested too deeply (more than {0} levels)")]
    TooDeep(usize),
    /// A form of herd's GPU_PTX dialect that the IR cannot hold.
    #[error("{form} is not supported: {why}")]
    Unsupported {
        /// The form, as a message names it (quoted where it is text).
        form: String,
        /// Why the IR cannot hold it, and what to write instead.
        why: &'static str,
    },
    /// A GPU_PTX instruction on 64-bit values.
    #[error("`{instr}` works on 64-bit values (`.{ty}`), but the IR's values are 32 bits: use .s32, .u32 or .b32")]
    Wide {
        /// The instruction word.
        instr: String,
        /// The type, without its dot.
        ty: String,
    },
    /// `[r]` where `r` was given no location's address.
    #[error("register `{0}` holds no location's address: give it one in the init block (`0:.reg .b64 {0} = x;`)")]
    NoAddress(String),
    /// An address register read as a value.
    #[error("register `{reg}` holds the address of `{loc}`: the IR has no pointer values, so it can only be an address (`[{reg}]`)")]
    AddressAsValue {
        /// The register.
        reg: String,
        /// The location whose address it holds.
        loc: String,
    },
    /// An instruction that overwrites an address register.
    #[error("`{instr}` writes register `{reg}`, which holds the address of `{loc}`: addresses are resolved as the test is read, so an address register cannot change")]
    AddressWritten {
        /// The instruction word.
        instr: String,
        /// The register.
        reg: String,
        /// The location whose address it holds.
        loc: String,
    },
    /// A register declared twice for one thread in the init block.
    #[error("register `{reg}` of thread {thread} is declared twice")]
    DuplicateRegister {
        /// The register.
        reg: String,
        /// The thread's index.
        thread: usize,
    },
    /// A GPU_PTX thread column not named `P<column>` (or `T<column>`,
    /// in a file whose header row names its threads so).
    #[error("expected `{prefix}{index}` (herd numbers the threads by column, from {prefix}0), found {found}")]
    ThreadNumber {
        /// The column.
        index: usize,
        /// The file's thread prefix, `P` or `T`.
        prefix: char,
        /// What the text holds instead, quoted.
        found: String,
    },
    /// A GPU_PTX thread named in the other style from the header row's:
    /// `T1` in a file whose threads are `P0`, `P1`, or the reverse.
    #[error("`{found}` mixes the thread styles: the header row's `{from}` names the threads `{prefix}<n>`, so write `{expected}` (a file names them `P<n>` as herd does, or `T<n>` as the ASPLOS'15 paper does, not both)")]
    ThreadStyle {
        /// The name as written.
        found: String,
        /// The header cell that set the file's style.
        from: String,
        /// The file's thread prefix, `P` or `T`.
        prefix: char,
        /// The same thread in the file's style.
        expected: String,
    },
    /// A thread of the header row that the scope tree leaves out.
    #[error("thread `{0}` is not in the scope tree: place it in a `cta` of a `device`")]
    NotInScopeTree(String),
    /// A thread that the scope tree places twice.
    #[error("thread `{0}` is placed twice in the scope tree")]
    PlacedTwice(String),
    /// A scope tree leaf that is no thread of the header row.
    #[error("the scope tree names `{0}`, which is not a thread of the header row")]
    UnknownScopeThread(String),
    /// A location given two memory spaces.
    #[error("the memory map gives `{0}` twice")]
    MappedTwice(String),
    /// A `.global` or `.shared` access whose location is in the other space.
    #[error("`{instr}.{qual}` accesses `{loc}`, which is in {space} memory (the memory map says where a location lives: `{loc}: {qual}`)")]
    SpaceMismatch {
        /// The instruction word.
        instr: String,
        /// The state space written, without its dot.
        qual: String,
        /// The location.
        loc: String,
        /// Where the location lives, in words.
        space: &'static str,
    },
    /// `@p bra` with no usable `setp` before it.
    #[error("predicate `{0}` is not set by a `setp` earlier in the thread, with no label in between and its operands unchanged: the IR branches on a comparison, which the reader takes from that `setp`")]
    UnknownPredicate(String),
    /// A file past 4 GiB: origins are 32-bit byte offsets.
    #[error("the file is too large ({0} bytes; at most 4 GiB)")]
    TooLarge(usize),
    /// The last diagnostic once the error bound is reached.
    #[error("too many errors; stopped after {0}")]
    TooManyErrors(usize),
}

/// Collects syntax errors, up to a bound: a file of garbage must not cost
/// time or memory in proportion to its error count squared.
pub(crate) struct Errors {
    pub(crate) list: Vec<(u32, SyntaxError)>,
    overflow: bool,
    /// An unterminated string ate the rest of the file: what the parser
    /// then misses at the end of the file is no news.
    pub(crate) truncated: bool,
}

/// How a message names the end of the input.
pub(crate) const END_OF_FILE: &str = "end of file";

/// How many syntax errors one read reports at most.
pub(crate) const MAX_ERRORS: usize = 100;

impl Errors {
    pub(crate) fn new() -> Errors {
        Errors {
            list: Vec::new(),
            overflow: false,
            truncated: false,
        }
    }

    /// "expected `expected`, found `found`", at `offset` (a token's, and
    /// its `found()`).
    pub(crate) fn expected(&mut self, offset: u32, found: String, expected: &'static str) {
        self.push(offset, SyntaxError::Expected { expected, found });
    }

    pub(crate) fn push(&mut self, offset: u32, e: SyntaxError) {
        if self.truncated
            && matches!(&e, SyntaxError::Expected { found, .. } if found == END_OF_FILE)
        {
            return;
        }
        if self.list.len() < MAX_ERRORS {
            self.list.push((offset, e));
        } else if !self.overflow {
            self.overflow = true;
            self.list
                .push((offset, SyntaxError::TooManyErrors(MAX_ERRORS)));
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub(crate) fn into_text_error(self, src: &str) -> TextError {
        let index = LineIndex::new(src);
        let mut diagnostics: Vec<Diagnostic> = self
            .list
            .into_iter()
            .map(|(off, e)| Diagnostic::new(&index, Origin(off), DiagnosticKind::Syntax(e)))
            .collect();
        // The "too many errors" note closes the list wherever it was raised.
        diagnostics.sort_by_key(|d| {
            let note = matches!(
                d.kind,
                DiagnosticKind::Syntax(SyntaxError::TooManyErrors(_))
            );
            (note, d.offset)
        });
        TextError { diagnostics }
    }
}
