//! Tokens of the dialects after their `PTX <name>` or `GPU_PTX <name>`
//! line. Both dialects share the tokens; herd's adds OCaml comments
//! `(* ... *)`, which [`lex_herd`] skips.
//!
//! The lexer never fails: a character it does not know is reported and
//! skipped, so the parser sees every token it can and reports every
//! mistake it can.

use std::fmt;

use crate::error::{Errors, SyntaxError, END_OF_FILE};
use litmus_core::operand::{literal, BadLiteral};

/// Punctuation. Two-character operators are single tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Punct {
    Dot,
    Comma,
    Semi,
    Bar,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Colon,
    At,
    Tilde,
    /// `=` (a comparison in conditions, as in herd and Dat3M).
    Eq,
    EqEq,
    Ne,
    /// `/\`.
    And,
    /// `\/`.
    Or,
    /// `=>`, before a declared verdict.
    Arrow,
    /// `[`, around an address in herd's dialect (`[r1]`).
    LBracket,
    /// `]`.
    RBracket,
    /// `!`, negating a guard in herd's dialect (`@!p0 bra L`).
    Bang,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tok<'s> {
    Ident(&'s str),
    Int(i64),
    /// A quoted string, without its quotes.
    Str(&'s str),
    Punct(Punct),
    Eof,
}

/// A token and the byte offset where it starts.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token<'s> {
    pub(crate) tok: Tok<'s>,
    pub(crate) offset: u32,
    /// The token's text as written (for messages).
    pub(crate) text: &'s str,
}

impl Token<'_> {
    pub(crate) fn is(&self, p: Punct) -> bool {
        self.tok == Tok::Punct(p)
    }

    pub(crate) fn is_word(&self, w: &str) -> bool {
        self.tok == Tok::Ident(w)
    }

    /// The token as a message's "found ..." part.
    pub(crate) fn found(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tok {
            Tok::Eof => f.write_str(END_OF_FILE),
            Tok::Str(_) => f.write_str("a string"),
            Tok::Ident(_) | Tok::Int(_) | Tok::Punct(_) => write!(f, "`{}`", self.text),
        }
    }
}

/// Splits `src[start..]` into tokens; the last one is always [`Tok::Eof`].
/// `start` must be a char boundary.
pub(crate) fn lex<'s>(src: &'s str, start: usize, errors: &mut Errors) -> Vec<Token<'s>> {
    let mut lexer = Lexer {
        src,
        pos: start,
        toks: Vec::new(),
        comments: false,
    };
    lexer.run(errors);
    lexer.toks
}

/// As [`lex`], skipping herd's comments `(* ... *)` (which nest, as in
/// OCaml). An unterminated comment is reported and ends the input.
pub(crate) fn lex_herd<'s>(src: &'s str, start: usize, errors: &mut Errors) -> Vec<Token<'s>> {
    let mut lexer = Lexer {
        src,
        pos: start,
        toks: Vec::new(),
        comments: true,
    };
    lexer.run(errors);
    lexer.toks
}

struct Lexer<'s> {
    src: &'s str,
    pos: usize,
    toks: Vec<Token<'s>>,
    /// Whether `(* ... *)` is a comment (herd's dialect).
    comments: bool,
}

impl<'s> Lexer<'s> {
    fn push(&mut self, tok: Tok<'s>, start: usize) {
        self.toks.push(Token {
            tok,
            offset: start as u32,
            text: &self.src[start..self.pos],
        });
    }

    fn peek_byte(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + ahead).copied()
    }

    fn run(&mut self, errors: &mut Errors) {
        while let Some(c) = self.src[self.pos..].chars().next() {
            let start = self.pos;
            if c.is_whitespace() {
                self.pos += c.len_utf8();
                continue;
            }
            if self.comments && c == '(' && self.peek_byte(1) == Some(b'*') {
                self.comment(errors);
                continue;
            }
            if c.is_ascii_alphabetic() || c == '_' {
                self.eat_while(|b| b.is_ascii_alphanumeric() || b == b'_');
                // PTX's state spaces and completion mechanisms are one word
                // with `::` inside (`shared::cta`, `mbarrier::complete_tx`).
                while self.src[self.pos..].starts_with("::")
                    && self
                        .peek_byte(2)
                        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
                {
                    self.pos += 2;
                    self.eat_while(|b| b.is_ascii_alphanumeric() || b == b'_');
                }
                self.push(Tok::Ident(&self.src[start..self.pos]), start);
                continue;
            }
            if c.is_ascii_digit()
                || (c == '-' && self.peek_byte(1).is_some_and(|b| b.is_ascii_digit()))
            {
                let value = self.number(errors);
                self.push(Tok::Int(value), start);
                continue;
            }
            if c == '"' {
                match self.src[start + 1..].find('"') {
                    Some(len) => {
                        self.pos = start + 1 + len + 1;
                        self.push(Tok::Str(&self.src[start + 1..start + 1 + len]), start);
                    }
                    None => {
                        errors.push(start as u32, SyntaxError::UnterminatedString);
                        errors.truncated = true;
                        self.pos = self.src.len();
                    }
                }
                continue;
            }
            let two = |a: u8, b: u8| c as u32 == a as u32 && self.peek_byte(1) == Some(b);
            let (punct, len) = if two(b'=', b'=') {
                (Punct::EqEq, 2)
            } else if two(b'=', b'>') {
                (Punct::Arrow, 2)
            } else if two(b'!', b'=') {
                (Punct::Ne, 2)
            } else if two(b'/', b'\\') {
                (Punct::And, 2)
            } else if two(b'\\', b'/') {
                (Punct::Or, 2)
            } else {
                let p = match c {
                    '.' => Punct::Dot,
                    ',' => Punct::Comma,
                    ';' => Punct::Semi,
                    '|' => Punct::Bar,
                    '{' => Punct::LBrace,
                    '}' => Punct::RBrace,
                    '(' => Punct::LParen,
                    ')' => Punct::RParen,
                    ':' => Punct::Colon,
                    '@' => Punct::At,
                    '~' => Punct::Tilde,
                    '=' => Punct::Eq,
                    '[' => Punct::LBracket,
                    ']' => Punct::RBracket,
                    '!' => Punct::Bang,
                    _ => {
                        errors.push(start as u32, SyntaxError::UnexpectedChar(c));
                        self.pos += c.len_utf8();
                        continue;
                    }
                };
                (p, 1)
            };
            self.pos += len;
            self.push(Tok::Punct(punct), start);
        }
        let end = self.src.len();
        self.toks.push(Token {
            tok: Tok::Eof,
            offset: end as u32,
            text: "",
        });
    }

    /// Skips a comment from its `(*` through the matching `*)`.
    fn comment(&mut self, errors: &mut Errors) {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let mut depth = 0usize;
        while self.pos < bytes.len() {
            match (bytes[self.pos], bytes.get(self.pos + 1)) {
                (b'(', Some(b'*')) => {
                    depth += 1;
                    self.pos += 2;
                }
                (b'*', Some(b')')) => {
                    depth -= 1;
                    self.pos += 2;
                    if depth == 0 {
                        return;
                    }
                }
                _ => self.pos += 1,
            }
        }
        errors.push(start as u32, SyntaxError::UnterminatedComment);
        errors.truncated = true;
    }

    fn eat_while(&mut self, pred: impl Fn(u8) -> bool) {
        while self.peek_byte(0).is_some_and(&pred) {
            self.pos += 1;
        }
    }

    /// A decimal or `0x` hexadecimal literal, with an optional `-`. The
    /// whole alphanumeric run is consumed, so `12ab` is one bad number, not
    /// a number and a name.
    fn number(&mut self, errors: &mut Errors) -> i64 {
        let start = self.pos;
        if self.peek_byte(0) == Some(b'-') {
            self.pos += 1;
        }
        self.eat_while(|b| b.is_ascii_alphanumeric() || b == b'_');
        let text = &self.src[start..self.pos];
        // Whether the value fits 32 bits is validation's to say, with the
        // rest of the test's mistakes; here only 64 bits are needed.
        literal(text).unwrap_or_else(|bad| {
            let error = match bad {
                BadLiteral::Invalid => SyntaxError::InvalidNumber(text.to_string()),
                BadLiteral::TooLarge => SyntaxError::NumberTooLarge(text.to_string()),
            };
            errors.push(start as u32, error);
            0
        })
    }
}
