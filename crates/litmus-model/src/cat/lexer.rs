//! The tokens of a cat file. Both tools' comment forms are skipped:
//! herd7's `(* ... *)` (nested, as in OCaml) and Dat3M's `// ...` and
//! `/* ... */`. Names follow Dat3M: letters, digits, `_`, `.` and `-`
//! (`po-loc`, `axiom-Coherence`, `0`).

use super::error::Pos;

/// A token and where it starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub pos: Pos,
}

/// What a token is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    Name(String),
    Str(String),
    Let,
    Rec,
    And,
    As,
    Include,
    Acyclic,
    Irreflexive,
    Empty,
    Flag,
    Show,
    Domain,
    Range,
    Toid,
    Eq,
    Star,
    Plus,
    Opt,
    /// `^-1`
    Inv,
    /// `^+`
    HatPlus,
    /// `^*`
    HatStar,
    Tilde,
    Amp,
    Bar,
    Semi,
    Backslash,
    LPar,
    RPar,
    LBrack,
    RBrack,
    Comma,
    Eof,
}

impl Tok {
    /// How a message names the token.
    pub fn describe(&self) -> String {
        match self {
            Tok::Name(n) => format!("`{n}`"),
            Tok::Str(s) => format!("\"{s}\""),
            Tok::Eof => "the end of the file".to_string(),
            other => format!("`{}`", other.spelling()),
        }
    }

    fn spelling(&self) -> &'static str {
        match self {
            Tok::Let => "let",
            Tok::Rec => "rec",
            Tok::And => "and",
            Tok::As => "as",
            Tok::Include => "include",
            Tok::Acyclic => "acyclic",
            Tok::Irreflexive => "irreflexive",
            Tok::Empty => "empty",
            Tok::Flag => "flag",
            Tok::Show => "show",
            Tok::Domain => "domain",
            Tok::Range => "range",
            Tok::Toid => "toid",
            Tok::Eq => "=",
            Tok::Star => "*",
            Tok::Plus => "+",
            Tok::Opt => "?",
            Tok::Inv => "^-1",
            Tok::HatPlus => "^+",
            Tok::HatStar => "^*",
            Tok::Tilde => "~",
            Tok::Amp => "&",
            Tok::Bar => "|",
            Tok::Semi => ";",
            Tok::Backslash => "\\",
            Tok::LPar => "(",
            Tok::RPar => ")",
            Tok::LBrack => "[",
            Tok::RBrack => "]",
            Tok::Comma => ",",
            Tok::Name(_) | Tok::Str(_) | Tok::Eof => "",
        }
    }
}

fn keyword(name: &str) -> Option<Tok> {
    Some(match name {
        "let" => Tok::Let,
        "rec" => Tok::Rec,
        "and" => Tok::And,
        "as" => Tok::As,
        "include" => Tok::Include,
        "acyclic" => Tok::Acyclic,
        "irreflexive" => Tok::Irreflexive,
        "empty" => Tok::Empty,
        "flag" => Tok::Flag,
        "show" => Tok::Show,
        "domain" => Tok::Domain,
        "range" => Tok::Range,
        "toid" => Tok::Toid,
        _ => return None,
    })
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

/// A cursor over the characters of the source, tracking line and column.
struct Cursor<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    rest: &'a str,
    pos: Pos,
}

impl<'a> Cursor<'a> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().copied()
    }

    fn starts_with(&self, s: &str) -> bool {
        self.rest.starts_with(s)
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.rest = &self.rest[c.len_utf8()..];
        if c == '\n' {
            self.pos.line += 1;
            self.pos.column = 1;
        } else {
            self.pos.column += 1;
        }
        Some(c)
    }

    fn bump_n(&mut self, n: usize) {
        for _ in 0..n {
            self.bump();
        }
    }

    /// Skips whitespace and comments; an unterminated block comment is an
    /// error at its start.
    fn skip_trivia(&mut self) -> Result<(), (Pos, String)> {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() => {
                    self.bump();
                }
                Some('/') if self.starts_with("//") => {
                    while self.peek().is_some_and(|c| c != '\n') {
                        self.bump();
                    }
                }
                Some('/') if self.starts_with("/*") => {
                    let start = self.pos;
                    self.bump_n(2);
                    loop {
                        if self.starts_with("*/") {
                            self.bump_n(2);
                            break;
                        }
                        if self.bump().is_none() {
                            return Err((start, "unterminated comment `/*`".to_string()));
                        }
                    }
                }
                Some('(') if self.starts_with("(*") => {
                    let start = self.pos;
                    self.bump_n(2);
                    let mut depth = 1;
                    while depth > 0 {
                        if self.starts_with("(*") {
                            self.bump_n(2);
                            depth += 1;
                        } else if self.starts_with("*)") {
                            self.bump_n(2);
                            depth -= 1;
                        } else if self.bump().is_none() {
                            return Err((start, "unterminated comment `(*`".to_string()));
                        }
                    }
                }
                _ => return Ok(()),
            }
        }
    }
}

/// Splits `src` into tokens, the last one [`Tok::Eof`]. The error is the
/// position and a message.
pub(crate) fn lex(src: &str) -> Result<Vec<Token>, (Pos, String)> {
    let mut cur = Cursor {
        chars: src.chars().peekable(),
        rest: src,
        pos: Pos { line: 1, column: 1 },
    };
    let mut out = Vec::new();
    loop {
        cur.skip_trivia()?;
        let pos = cur.pos;
        let Some(c) = cur.peek() else {
            out.push(Token { tok: Tok::Eof, pos });
            return Ok(out);
        };
        let tok = if c == '^' {
            if cur.starts_with("^-1") {
                cur.bump_n(3);
                Tok::Inv
            } else if cur.starts_with("^+") {
                cur.bump_n(2);
                Tok::HatPlus
            } else if cur.starts_with("^*") {
                cur.bump_n(2);
                Tok::HatStar
            } else {
                return Err((pos, "`^` must be followed by `-1`, `+` or `*`".to_string()));
            }
        } else if c == '"' {
            cur.bump();
            let mut s = String::new();
            loop {
                match cur.bump() {
                    Some('"') => break,
                    Some(ch) => s.push(ch),
                    None => return Err((pos, "unterminated string".to_string())),
                }
            }
            Tok::Str(s)
        } else if is_name_char(c) {
            let mut s = String::new();
            while let Some(ch) = cur.peek().filter(|&ch| is_name_char(ch)) {
                s.push(ch);
                cur.bump();
            }
            keyword(&s).unwrap_or(Tok::Name(s))
        } else {
            cur.bump();
            match c {
                '=' => Tok::Eq,
                '*' => Tok::Star,
                '+' => Tok::Plus,
                '?' => Tok::Opt,
                '~' => Tok::Tilde,
                '&' => Tok::Amp,
                '|' => Tok::Bar,
                ';' => Tok::Semi,
                '\\' => Tok::Backslash,
                '(' => Tok::LPar,
                ')' => Tok::RPar,
                '[' => Tok::LBrack,
                ']' => Tok::RBrack,
                ',' => Tok::Comma,
                other => return Err((pos, format!("unexpected character `{other}`"))),
            }
        };
        out.push(Token { tok, pos });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(src: &str) -> Vec<Tok> {
        lex(src).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn names_operators_and_comments() {
        assert_eq!(
            toks("let po-loc = (* a (* nested *) one *) po & loc // line\n/* block */ r^-1"),
            vec![
                Tok::Let,
                Tok::Name("po-loc".into()),
                Tok::Eq,
                Tok::Name("po".into()),
                Tok::Amp,
                Tok::Name("loc".into()),
                Tok::Name("r".into()),
                Tok::Inv,
                Tok::Eof
            ]
        );
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            lex("let x = a\n  # b").unwrap_err().0,
            Pos { line: 2, column: 3 }
        );
        let (pos, msg) = lex("(* open").unwrap_err();
        assert_eq!(pos, Pos { line: 1, column: 1 });
        assert!(msg.contains("unterminated"), "{msg}");
    }
}
