//! The head of a `.litmus` file, in either dialect: its first word (which
//! dialect it is), `<keyword> <name>` read from the raw text, and the
//! `"..."` strings of documentation after it. Both readers (`parse.rs`,
//! `gpu_ptx/`) start here.

use crate::cursor::Cursor;
use crate::error::{Errors, SyntaxError};
use crate::lex::Tok;
use litmus_core::ir::{Doc, Name, Origin};

/// Where the first word of the file starts: after a byte-order mark and
/// white space.
fn first_word(src: &str) -> usize {
    let pos = src.strip_prefix('\u{feff}').map_or(0, |_| 3);
    pos + leading_ws(&src[pos..], |c| c.is_whitespace())
}

/// Whether the file's first word is `word`: which dialect it is in.
pub(crate) fn starts_with_word(src: &str, word: &str) -> bool {
    let rest = &src[first_word(src)..];
    let after = rest.get(word.len()..).and_then(|r| r.chars().next());
    rest.starts_with(word) && after.is_none_or(char::is_whitespace)
}

/// Reads `<keyword> <name>` (`PTX MP`, `GPU_PTX MP`) from the raw text (a
/// name may hold any character but white space, so it is not made of
/// tokens). Returns the name and where the tokens start. `no_name` is
/// what a message expects when the name is missing.
pub(crate) fn header(
    src: &str,
    keyword: &str,
    no_name: &'static str,
    errors: &mut Errors,
) -> (Name, usize) {
    let mut pos = first_word(src);
    let rest = &src[pos..];
    if !starts_with_word(src, keyword) {
        let word: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(20)
            .collect();
        let found = if word.is_empty() {
            "end of file".to_string()
        } else {
            format!("`{word}`")
        };
        errors.push(
            pos as u32,
            SyntaxError::Expected {
                expected: "`PTX <name>` or `GPU_PTX <name>` at the start of the file",
                found,
            },
        );
        // Most likely a misspelt header line: read on from the next line,
        // unless the header is simply missing.
        let resume = if rest.starts_with('{') {
            pos
        } else {
            rest.find('\n').map_or(src.len(), |i| pos + i + 1)
        };
        // Nothing left to read: what the parser misses there is no news.
        errors.truncated = src[resume..].trim().is_empty();
        return (Name::new("", Origin(pos as u32)), resume);
    }
    pos += keyword.len();
    pos += leading_ws(&src[pos..], |c| c.is_whitespace() && c != '\n');
    let start = pos;
    let rest = &src[pos..];
    if let Some(quoted) = rest.strip_prefix('"') {
        return match unescape_name(quoted) {
            Some((name, len)) => (Name::new(name, Origin(start as u32)), start + 1 + len),
            None => {
                errors.push(start as u32, SyntaxError::UnterminatedString);
                errors.truncated = true;
                (Name::new("", Origin(start as u32)), src.len())
            }
        };
    }
    let len = leading_ws(rest, |c| !c.is_whitespace());
    if len == 0 {
        let found = if rest.is_empty() {
            "end of file"
        } else {
            "end of line"
        };
        errors.push(
            start as u32,
            SyntaxError::Expected {
                expected: no_name,
                found: found.to_string(),
            },
        );
    }
    (Name::new(&rest[..len], Origin(start as u32)), start + len)
}

/// The length in bytes of the prefix of `s` whose characters satisfy `pred`.
fn leading_ws(s: &str, pred: impl Fn(char) -> bool) -> usize {
    s.find(|c: char| !pred(c)).unwrap_or(s.len())
}

/// The name in `"..."` after `PTX` (the opening quote already removed),
/// with `\"` and `\\` escapes, and the bytes read including the closing
/// quote. `None` when unterminated.
fn unescape_name(s: &str) -> Option<(String, usize)> {
    let mut out = String::new();
    let mut chars = s.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, i + 1)),
            '\\' => match chars.next() {
                Some((_, e)) => out.push(e),
                None => return None,
            },
            c => out.push(c),
        }
    }
    None
}

/// The `"..."` strings after the header: the test's documentation.
fn doc(cur: &mut Cursor<'_, '_>) -> Doc {
    let mut lines = Vec::new();
    while let Tok::Str(s) = cur.peek().tok {
        cur.bump();
        let text: Vec<&str> = s.lines().map(str::trim_end).collect();
        // Without the blank lines that open and close the string.
        let first = text.iter().position(|l| !l.is_empty());
        let last = text.iter().rposition(|l| !l.is_empty());
        if let (Some(a), Some(b)) = (first, last) {
            lines.extend(text[a..=b].iter().map(|l| l.to_string()));
        }
    }
    Doc(lines)
}

/// A test named `name`, with the documentation strings that follow the
/// header: what both dialects' readers start from.
pub(crate) fn named_test(name: Name, cur: &mut Cursor<'_, '_>) -> litmus_core::ir::Test {
    let mut test = litmus_core::ir::Test::new("");
    test.name = name;
    test.doc = doc(cur);
    test
}
