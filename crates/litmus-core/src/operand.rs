//! The leaves of the IR: names, literals and the operands built from them,
//! each with where it was written ([`Origin`]). They sit below the test
//! ([`crate::ir`]) and the instructions ([`crate::instr`]), which both
//! use them, so that neither of those has to import the other's file for
//! them.

/// A literal as written. Validation checks that it fits 32 bits
/// ([`VALUE_RANGE`]); back ends then work modulo 2^32.
pub type Value = i64;

/// The literals that fit 32 bits, read as signed or as unsigned:
/// `-2^31 ..= 2^32 - 1`. `-1` and `0xffffffff` are the same word.
pub const VALUE_RANGE: std::ops::RangeInclusive<Value> = -(1 << 31)..=u32::MAX as Value;

/// Where an IR node came from, in the terms of the front end that built it:
/// the text reader stores a byte offset into the file, the macro an index
/// into its table of token spans. [`Origin::NONE`] marks built nodes.
///
/// Two origins always compare equal: positions are not part of a test's
/// meaning.
#[derive(Clone, Copy, Debug, Eq)]
pub struct Origin(pub u32);

impl Origin {
    /// The origin of a node that no source text produced.
    pub const NONE: Origin = Origin(u32::MAX);

    /// Whether this origin points somewhere.
    pub fn is_some(self) -> bool {
        self.0 != u32::MAX
    }
}

impl Default for Origin {
    fn default() -> Self {
        Origin::NONE
    }
}

impl PartialEq for Origin {
    fn eq(&self, _: &Origin) -> bool {
        true
    }
}

// Consistent with `PartialEq`: every origin hashes alike.
impl std::hash::Hash for Origin {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

/// An identifier as written (a location, a register, a label or a thread),
/// with where it was written.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Name {
    /// The identifier's spelling.
    pub text: String,
    /// Where it was written.
    pub origin: Origin,
}

impl Name {
    /// A name spelled `text`, written at `origin`.
    pub fn new(text: impl Into<String>, origin: Origin) -> Name {
        Name {
            text: text.into(),
            origin,
        }
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// An integer literal with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Imm {
    /// The literal as written, before reduction modulo 2^32.
    pub value: Value,
    /// Where it was written.
    pub origin: Origin,
}

impl Imm {
    /// A literal `value` written at `origin`.
    pub fn new(value: Value, origin: Origin) -> Imm {
        Imm { value, origin }
    }
}

/// A source operand of an instruction: a register or a literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A register's current value.
    Reg(Name),
    /// A literal.
    Imm(Imm),
}

impl Operand {
    /// Where the operand was written.
    pub fn origin(&self) -> Origin {
        match self {
            Operand::Reg(n) => n.origin,
            Operand::Imm(i) => i.origin,
        }
    }
}
