//! What can go wrong when a family is asked for: each error says what was
//! wrong and where (the option and its value, the edge of a cycle and its
//! position).

/// A request for a family that cannot be met.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// A shape name the generator does not know.
    #[error("unknown shape `{name}`; the shapes are: {known}")]
    UnknownShape {
        /// The name asked for.
        name: String,
        /// The known shapes, comma-separated.
        known: String,
    },
    /// An edge of a cycle that is not diy7 syntax the generator reads.
    #[error("edge {index} `{edge}` of the cycle: {why}")]
    BadEdge {
        /// The edge's position in the cycle, from 1.
        index: usize,
        /// The edge as written.
        edge: String,
        /// What is wrong with it.
        why: String,
    },
    /// An edge the IR cannot express (address dependencies: locations are
    /// names, not computed addresses).
    #[error("edge {index} `{edge}` of the cycle cannot be expressed in a litmus test here: {why}")]
    Inexpressible {
        /// The edge's position in the cycle, from 1.
        index: usize,
        /// The edge as written.
        edge: String,
        /// Why the IR has no form for it.
        why: String,
    },
    /// A cycle whose edges do not close into a test.
    #[error("the cycle `{cycle}`: {why}")]
    BadCycle {
        /// The cycle as written.
        cycle: String,
        /// What is wrong with it.
        why: String,
    },
    /// Options that leave a shape with no test at all (shared memory with
    /// no placement that keeps every thread in one CTA).
    #[error("no variant of {name}: shared memory needs every thread in one CTA, and no placement asked for puts them there (add intra-cta or all)")]
    NoVariant {
        /// The shape or cycle.
        name: String,
    },
    /// A value of an option that the generator cannot read, or that does
    /// not fit the shape it is applied to.
    #[error("{option} `{value}`: {why}")]
    BadOption {
        /// The option (`--placements`, ...).
        option: &'static str,
        /// The value at fault.
        value: String,
        /// What is wrong with it.
        why: String,
    },
}

impl GenError {
    /// A [`GenError::BadOption`].
    pub(crate) fn option(option: &'static str, value: &str, why: impl Into<String>) -> GenError {
        GenError::BadOption {
            option,
            value: value.to_string(),
            why: why.into(),
        }
    }
}
