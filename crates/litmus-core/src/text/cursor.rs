//! A position in a slice of tokens: the whole file, or one cell of an
//! instruction row.

use crate::text::lex::{Punct, Token};

/// Reads `toks` front to back. Past the end it keeps returning `end`, the
/// token that closes the slice (a cell's `|` or `;`, the file's end), so
/// "found ..." messages name what really follows.
pub(crate) struct Cursor<'t, 's> {
    toks: &'t [Token<'s>],
    pos: usize,
    end: Token<'s>,
}

impl<'t, 's> Cursor<'t, 's> {
    pub(crate) fn new(toks: &'t [Token<'s>], end: Token<'s>) -> Cursor<'t, 's> {
        Cursor { toks, pos: 0, end }
    }

    pub(crate) fn index(&self) -> usize {
        self.pos
    }

    pub(crate) fn tokens(&self) -> &'t [Token<'s>] {
        self.toks
    }

    pub(crate) fn peek(&self) -> Token<'s> {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, ahead: usize) -> Token<'s> {
        self.toks.get(self.pos + ahead).copied().unwrap_or(self.end)
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.toks.len()
    }

    /// The next token, consumed (at the end: `end`, and nothing moves).
    pub(crate) fn bump(&mut self) -> Token<'s> {
        let t = self.peek();
        if !self.at_end() {
            self.pos += 1;
        }
        t
    }

    pub(crate) fn eat(&mut self, p: Punct) -> bool {
        let hit = self.peek().is(p);
        if hit {
            self.bump();
        }
        hit
    }
}
