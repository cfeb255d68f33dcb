//! Names as the terminal should show them: a test, device or file name
//! comes from files anyone can write, and an ESC, a carriage return or a
//! bidi override in it would move the cursor, recolour or reorder what
//! the terminal shows. Printed through [`escaped`], such characters
//! appear as `\u{1b}` and the like, so the line says what the file holds.

use std::borrow::Cow;

/// Whether `c` is left as it is: not a control character, and not one of
/// the invisible formatting characters that reorder or hide text (bidi
/// embeddings, overrides and isolates, zero-width characters, the BOM).
fn shown(c: char) -> bool {
    !c.is_control()
        && !matches!(
            c,
            '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}'
        )
}

/// `text` with every character the terminal would act on rather than show
/// written as Rust writes it in a string (`\u{1b}`, `\r`, `\u{202e}`);
/// unchanged, and not copied, when there is none.
///
/// ```
/// use litmus_core::printable::escaped;
/// assert_eq!(escaped("MP+rel"), "MP+rel");
/// assert_eq!(escaped("MP\u{1b}[2J\r\u{202e}"), "MP\\u{1b}[2J\\r\\u{202e}");
/// ```
pub fn escaped(text: &str) -> Cow<'_, str> {
    escape_with(text, shown, |c, out| out.extend(c.escape_default()))
}

/// A report of several lines, each [`escaped`]: line breaks and tabs stay
/// (they are the report's own), every other such character is written
/// out.
///
/// ```
/// use litmus_core::printable::escaped_lines;
/// assert_eq!(escaped_lines("a\tb\nMP\u{1b}[31m\n"), "a\tb\nMP\\u{1b}[31m\n");
/// ```
pub fn escaped_lines(text: &str) -> Cow<'_, str> {
    escape_with(text, kept_in_a_report, |c, out| {
        out.extend(c.escape_default())
    })
}

/// What a command prints on its standard output, made safe for a terminal
/// whatever its format: a character the terminal would act on is written
/// out. Below U+0020 (line breaks and tabs kept) as [`escaped`] writes it
/// (`\r`, `\u{1b}`): JSON never holds those raw, serde_json escapes them.
/// Every other one (DEL, the C1 controls, bidi embeddings, overrides and
/// isolates, zero-width characters, the BOM), which serde_json leaves raw
/// in a string, as a JSON escape (`\u202e`): still valid JSON, decoded to
/// the same string, and readable text. Unchanged, and not copied, when
/// there is none.
///
/// ```
/// use litmus_core::printable::escaped_output;
/// assert_eq!(escaped_output("{\"test\":\"MP\u{202e}\"}\n"), "{\"test\":\"MP\\u202e\"}\n");
/// assert_eq!(escaped_output("MP\u{1b}[2J\t\r\n"), "MP\\u{1b}[2J\t\\r\n");
/// ```
pub fn escaped_output(text: &str) -> Cow<'_, str> {
    escape_with(text, kept_in_a_report, |c, out| {
        if c < ' ' {
            out.extend(c.escape_default());
        } else {
            out.push_str(&format!("\\u{:04x}", c as u32));
        }
    })
}

/// A report's own line breaks and tabs, and every character [`shown`].
fn kept_in_a_report(c: char) -> bool {
    c == '\n' || c == '\t' || shown(c)
}

/// `text` with each character `keep` refuses written out by `write`;
/// borrowed, not copied, when there is none: the three escapers differ
/// only in what they keep and how they write the rest.
fn escape_with(
    text: &str,
    keep: impl Fn(char) -> bool,
    write: impl Fn(char, &mut String),
) -> Cow<'_, str> {
    if text.chars().all(&keep) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if keep(c) {
            out.push(c);
        } else {
            write(c, &mut out);
        }
    }
    Cow::Owned(out)
}

/// A writer that passes what it is given through [`escaped_output`]: the
/// CLI's standard output, so that no name from a file reaches the
/// terminal raw, in text or JSON. Bytes that are not UTF-8 pass as they
/// are.
pub struct Shown<W: std::io::Write>(pub W);

impl<W: std::io::Write> std::io::Write for Shown<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self.0.write_all(escaped_output(text).as_bytes())?,
            Err(_) => self.0.write_all(buf)?,
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}
