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

/// Why a literal does not read ([`literal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadLiteral {
    /// Not a number at all (`12ab`, `0x`, `-`).
    Invalid,
    /// A number, but beyond 64 bits.
    TooLarge,
}

/// An integer literal as the `.litmus` dialects write it: decimal or `0x`
/// hexadecimal, with an optional leading `-`, nothing else (no spaces, no
/// `+`, no `_`).
pub fn literal(text: &str) -> Result<i64, BadLiteral> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (radix, body) = match digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        Some(hex) => (16, hex),
        None => (10, digits),
    };
    if body.is_empty() || !body.chars().all(|c| c.is_digit(radix)) {
        return Err(BadLiteral::Invalid);
    }
    let magnitude = u64::from_str_radix(body, radix).map_err(|_| BadLiteral::TooLarge)?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
    .ok_or(BadLiteral::TooLarge)
}

/// Reads a value the way a test writes one in an operand, an initial value
/// or a condition: decimal or `0x` hexadecimal, optionally negative, and
/// within [`VALUE_RANGE`] (32 bits, signed or unsigned). `None` for
/// anything else, surrounding spaces included.
///
/// ```
/// use litmus_core::operand::parse_value;
/// assert_eq!(parse_value("-1"), Some(-1));
/// assert_eq!(parse_value("0xffffffff"), Some(0xffff_ffff));
/// assert_eq!(parse_value("4294967296"), None);
/// assert_eq!(parse_value("one"), None);
/// ```
pub fn parse_value(text: &str) -> Option<Value> {
    literal(text).ok().filter(|v| VALUE_RANGE.contains(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(literal("0"), Ok(0));
        assert_eq!(literal("42"), Ok(42));
        assert_eq!(literal("-7"), Ok(-7));
        assert_eq!(literal("0x1F"), Ok(31));
        assert_eq!(literal("0XfF"), Ok(255));
        assert_eq!(literal("-0x10"), Ok(-16));
        assert_eq!(literal("-9223372036854775808"), Ok(i64::MIN));
        assert_eq!(literal("9223372036854775807"), Ok(i64::MAX));
        assert_eq!(literal("9223372036854775808"), Err(BadLiteral::TooLarge));
        assert_eq!(literal("0x1_0000_0000_0000_0000"), Err(BadLiteral::Invalid));
        assert_eq!(literal("0x10000000000000000"), Err(BadLiteral::TooLarge));
        for bad in [
            "", "-", "0x", "-0x", "12ab", "+1", " 1", "1 ", "1_000", "--1", "0b1",
        ] {
            assert_eq!(literal(bad), Err(BadLiteral::Invalid), "{bad:?}");
        }
    }

    #[test]
    fn values_fit_32_bits() {
        assert_eq!(parse_value("-2147483648"), Some(-(1 << 31)));
        assert_eq!(parse_value("-2147483649"), None);
        assert_eq!(parse_value("4294967295"), Some(u32::MAX as i64));
        assert_eq!(parse_value("0x100000000"), None);
        assert_eq!(parse_value("99999999999999999999"), None);
        assert_eq!(parse_value(" 1"), None);
    }
}
