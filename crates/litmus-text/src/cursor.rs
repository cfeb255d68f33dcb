//! A position in a slice of tokens: the whole file, or one cell of an
//! instruction row.

use crate::lex::{Punct, Tok, Token};

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

    /// The cells of one row, each a token range and the separator that
    /// closes it, up to and including the closing `;`. When the rows end
    /// first (the end of the file, or a token `ends_rows` accepts), the
    /// cells read so far come with that token, not consumed: the caller
    /// says the `;` is missing. Both dialects' rows are read this way.
    pub(crate) fn row(
        &mut self,
        ends_rows: impl Fn(&Token<'s>) -> bool,
    ) -> (Vec<(usize, usize, Token<'s>)>, Option<Token<'s>>) {
        let mut cells = Vec::new();
        let mut start = self.index();
        loop {
            let t = self.peek();
            if t.is(Punct::Bar) || t.is(Punct::Semi) {
                cells.push((start, self.index(), t));
                self.bump();
                if t.is(Punct::Semi) {
                    return (cells, None);
                }
                start = self.index();
            } else if t.tok == Tok::Eof || ends_rows(&t) {
                cells.push((start, self.index(), t));
                return (cells, Some(t));
            } else {
                self.bump();
            }
        }
    }
}
