//! Quoting for the command lines the tool prints for people to paste
//! (`reproduce:` lines, hints): a file named `a b;echo $(id).litmus` must
//! paste as one argument, never as a second command.

use std::borrow::Cow;

/// `word` as one POSIX shell word: unchanged when every character is one
/// no shell treats specially (letters, digits and `_@%+=:,./-`), else in
/// single quotes, inside which `sh` expands nothing; a `'` in it becomes
/// `'\''` (close, an escaped quote, reopen). The empty word is `''`.
///
/// ```
/// use litmus_core::shell::quote;
/// assert_eq!(quote("tests/MP+rel.litmus"), "tests/MP+rel.litmus");
/// assert_eq!(quote("a b;echo PWNED $(id).litmus"), "'a b;echo PWNED $(id).litmus'");
/// assert_eq!(quote("it's"), r"'it'\''s'");
/// assert_eq!(quote(""), "''");
/// ```
pub fn quote(word: &str) -> Cow<'_, str> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

/// `VAR=value` with the value quoted ([`quote`]): an assignment before a
/// command.
pub fn assignment(var: &str, value: &str) -> String {
    format!("{var}={}", quote(value))
}
