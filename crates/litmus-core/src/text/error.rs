//! Errors of the text reader: what is wrong, and where in the file.

use std::fmt;

use crate::ir::Origin;
use crate::text::position::{LineIndex, Position};
use crate::validate::{ValidationError, ValidationErrorKind};

/// Everything wrong with one `.litmus` text, sorted by position.
///
/// `Display` writes one `line:column: message` per line; [`TextError::render`]
/// prefixes each with a file path, the way compilers do.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", lines(.diagnostics))]
pub struct TextError {
    /// Never empty in an error that [`crate::text::parse`] returns.
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
    /// let err = litmus_core::text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, y ;\nexists (x == 0)").unwrap_err();
    /// assert_eq!(
    ///     err.render("t.litmus"),
    ///     "t.litmus:4:14: unknown location `y`: declare it with the other locations\n"
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
    /// The text is a test, and [`crate::validate()`] rejects it.
    #[error(transparent)]
    Invalid(#[from] ValidationErrorKind),
}

/// A mistake in the text itself. Messages say what was found and what was
/// expected; `found` strings are already quoted (`` `x` ``, "end of file").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SyntaxError {
    #[error("expected {expected}, found {found}")]
    Expected {
        expected: &'static str,
        found: String,
    },
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    #[error("unterminated string: expected a closing `\"`")]
    UnterminatedString,
    #[error("invalid number `{0}`: expected decimal digits or 0x and hex digits")]
    InvalidNumber(String),
    #[error("number `{0}` is too large (expected -2147483648 ..= 4294967295)")]
    NumberTooLarge(String),
    #[error("unknown instruction `{0}`: expected ld, st, mov, fence, membar, atom, red, bar, add, sub, mul, and, or, xor, goto, beq, bne or a label `L:`")]
    UnknownInstruction(String),
    #[error("unknown qualifier `.{qual}` on `{instr}`: expected {expected}")]
    UnknownQualifier {
        instr: String,
        qual: String,
        expected: &'static str,
    },
    #[error("`{instr}` has two {what} qualifiers, `.{first}` and `.{second}`")]
    DuplicateQualifier {
        instr: String,
        what: &'static str,
        first: String,
        second: String,
    },
    #[error("`{instr}` needs {what}")]
    MissingQualifier { instr: String, what: &'static str },
    #[error("`{instr}` takes {expected}, found {found}")]
    OperandCount {
        instr: String,
        expected: &'static str,
        found: usize,
    },
    #[error("expected {expected} as operand {index} of `{instr}`, found {found}")]
    BadOperand {
        instr: String,
        index: usize,
        expected: &'static str,
        found: String,
    },
    #[error("`bar.warp.sync` takes only the full mask 0xffffffff, found {0}")]
    WarpMask(i64),
    #[error("this row has {found} {}, expected {expected} (one per thread)", if *found == 1 { "cell" } else { "cells" })]
    CellCount { expected: usize, found: usize },
    #[error("`{0}` is given twice in this placement")]
    DuplicatePlacement(&'static str),
    #[error("{what} {value} does not fit 32 bits unsigned (expected 0 ..= 4294967295)")]
    PlacementRange { what: &'static str, value: i64 },
    #[error("no thread has index {index}: the test has {threads} {}, numbered from 0", if *threads == 1 { "thread" } else { "threads" })]
    NoSuchThreadIndex { index: i64, threads: usize },
    #[error("unknown thread `{0}` in the init block: expected a thread of the header row")]
    UnknownInitThread(String),
    #[error("the condition is nested too deeply (more than {0} levels)")]
    TooDeep(usize),
    #[error("the file is too large ({0} bytes; at most 4 GiB)")]
    TooLarge(usize),
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
