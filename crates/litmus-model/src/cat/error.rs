//! Why a cat file could not be loaded: every message says which file, and
//! where in it (line and column, from 1).

/// A position in a cat file: line and column (in characters), both from
/// 1, as the `.litmus` reader reports them.
pub use litmus_text::Position as Pos;

/// What is wrong at a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatErrorKind {
    /// The text does not follow the grammar.
    #[error("{0}")]
    Syntax(String),
    /// A name that is neither defined before its use nor a base set or
    /// relation of this engine.
    #[error(
        "unknown name `{0}` (not defined before this point, and not a base set or relation: {1})"
    )]
    UnknownName(String, String),
    /// A set where a relation is needed, or the other way round.
    #[error("type error: {0}")]
    Type(String),
    /// A construct of herd7 or Dat3M that this interpreter does not run.
    #[error("not supported here: {0}")]
    Unsupported(String),
    /// A file nested past what the interpreter accepts (parentheses, or
    /// definitions built on definitions).
    #[error("{0}")]
    Limit(String),
    /// An `include` that cannot be read, or that includes itself.
    #[error("{0}")]
    Include(String),
}

/// A cat file that cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CatError {
    /// The file itself cannot be read.
    #[error("cannot read cat file {file}: {message}")]
    Read {
        /// The file, as given.
        file: String,
        /// The I/O error.
        message: String,
    },
    /// A mistake at a place in a file.
    #[error("{file}:{pos}: {kind}")]
    At {
        /// The file, as given or as an `include` resolved it.
        file: String,
        /// Where.
        pos: Pos,
        /// What.
        kind: CatErrorKind,
    },
}

impl CatError {
    pub(crate) fn at(file: &str, pos: Pos, kind: CatErrorKind) -> CatError {
        CatError::At {
            file: file.to_string(),
            pos,
            kind,
        }
    }
}
