//! The command-line scanner every subcommand uses: `--flag value`,
//! `--flag=value`, `--` ending the options, numbers checked with the flag's
//! name in the error, and the `--format` of the subcommands that have one.

/// One item of a command line.
pub enum Arg {
    /// An option, with its value when written `--flag=value`.
    Flag(String, Option<String>),
    /// Anything else: a file.
    Positional(String),
}

/// Walks a subcommand's arguments.
pub struct Args<'a> {
    args: &'a [String],
    next: usize,
    only_positional: bool,
}

impl<'a> Args<'a> {
    /// Scans `args` (after the subcommand's name).
    pub fn new(args: &'a [String]) -> Args<'a> {
        Args {
            args,
            next: 0,
            only_positional: false,
        }
    }

    /// The next option, with its value when written `--flag=value`; the
    /// positional arguments before it go to `files`.
    pub fn next_flag(&mut self, files: &mut Vec<String>) -> Option<(String, Option<String>)> {
        for arg in self.by_ref() {
            match arg {
                Arg::Positional(file) => files.push(file),
                Arg::Flag(flag, inline) => return Some((flag, inline)),
            }
        }
        None
    }

    /// The value of `flag`: the text after `=` when there was one, else the
    /// next argument.
    pub fn value(&mut self, flag: &str, inline: Option<String>) -> Result<String, String> {
        if let Some(v) = inline {
            return Ok(v);
        }
        let v = self
            .args
            .get(self.next)
            .cloned()
            .ok_or(format!("`{flag}` needs a value"))?;
        self.next += 1;
        Ok(v)
    }
}

impl Iterator for Args<'_> {
    type Item = Arg;

    fn next(&mut self) -> Option<Arg> {
        loop {
            let arg = self.args.get(self.next)?.clone();
            self.next += 1;
            if self.only_positional || !arg.starts_with('-') || arg == "-" {
                return Some(Arg::Positional(arg));
            }
            if arg == "--" {
                self.only_positional = true;
                continue;
            }
            return Some(match arg.split_once('=') {
                Some((f, v)) if f.starts_with("--") => {
                    Arg::Flag(f.to_string(), Some(v.to_string()))
                }
                _ => Arg::Flag(arg, None),
            });
        }
    }
}

/// Reads `text` as a whole number of at least `min` for `flag`.
pub fn number<T>(flag: &str, text: &str, min: T) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    text.trim()
        .parse()
        .ok()
        .filter(|n| *n >= min)
        .ok_or(format!(
            "`{flag}` takes a whole number of at least {min}, not `{text}`"
        ))
}

/// Reads the value of `--shard` (`campaign`, `tune`).
pub fn shard_of(text: &str) -> Result<litmus_runner::shard::Shard, String> {
    litmus_runner::shard::Shard::parse(text).map_err(|e| e.to_string())
}

/// How `check` and `run` print their results (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// For people: a summary line per file, then details.
    Text,
    /// For programs: one JSON object per file and line.
    Json,
    /// herd7's result block per test (`check`).
    Herd,
    /// litmus7's result block per test (`run`).
    Litmus7,
}

impl Format {
    /// Reads the value of `--format`, one of the `allowed` formats.
    pub fn parse(text: &str, allowed: &[Format]) -> Result<Format, String> {
        let format = match text {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "herd" => Some(Format::Herd),
            "litmus7" => Some(Format::Litmus7),
            _ => None,
        };
        match format {
            Some(f) if allowed.contains(&f) => Ok(f),
            _ => Err(format!(
                "unknown format `{text}`; the formats are: {}",
                allowed
                    .iter()
                    .map(|f| f.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    /// The format's name, as `--format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
            Format::Herd => "herd",
            Format::Litmus7 => "litmus7",
        }
    }
}

/// What a subcommand's command line asks for: the work, or its help.
pub enum Parsed<T> {
    Work(T),
    Help,
}

/// Why a command cannot start.
pub enum Refusal {
    /// A mistake in the command line: its usage follows the message.
    Usage(String),
    /// A mistake in a file or variable the line names (a tuning file, say):
    /// the message alone, which says where; the usage would not help.
    Content(String),
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal::Usage(message)
    }
}

impl From<&str> for Refusal {
    fn from(message: &str) -> Refusal {
        Refusal::Usage(message.to_string())
    }
}

impl From<litmus_model::models::UnknownModel> for Refusal {
    /// A name that names no model is the command line's mistake; a cat
    /// file that does not compile is the file's, and its message says
    /// where.
    fn from(e: litmus_model::models::UnknownModel) -> Refusal {
        if e.cat.is_some() {
            Refusal::Content(e.to_string())
        } else {
            Refusal::Usage(e.to_string())
        }
    }
}

/// The request a command line makes, or the exit status once its help or
/// its usage error is printed.
pub fn request<T>(
    parsed: Result<Parsed<T>, impl Into<Refusal>>,
    help: &str,
    usage: &str,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> Result<T, u8> {
    match parsed {
        Ok(Parsed::Work(r)) => Ok(r),
        Ok(Parsed::Help) => {
            let _ = write!(out, "{help}");
            Err(super::EXIT_OK)
        }
        Err(refusal) => {
            let _ = match refusal.into() {
                Refusal::Usage(msg) => writeln!(err, "error: {msg}\n\n{usage}"),
                Refusal::Content(msg) => writeln!(err, "error: {msg}"),
            };
            Err(super::EXIT_USAGE)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan(line: &[&str]) -> Vec<String> {
        let args: Vec<String> = line.iter().map(|s| s.to_string()).collect();
        let mut it = Args::new(&args);
        let mut out = Vec::new();
        while let Some(a) = it.next() {
            out.push(match a {
                Arg::Positional(p) => format!("file {p}"),
                Arg::Flag(f, inline) => {
                    let v = it.value(&f, inline).unwrap_or_else(|e| e);
                    format!("{f}={v}")
                }
            });
        }
        out
    }

    #[test]
    fn flags_values_and_files() {
        assert_eq!(
            scan(&["a", "--seed", "3", "--model=sc", "--", "--b", "-"]),
            ["file a", "--seed=3", "--model=sc", "file --b", "file -"]
        );
        assert_eq!(scan(&["--seed"]), ["--seed=`--seed` needs a value"]);
    }

    #[test]
    fn numbers_name_the_flag() {
        assert_eq!(number("--seed", "12", 0u64), Ok(12));
        assert_eq!(
            number("--launches", "0", 1u64),
            Err("`--launches` takes a whole number of at least 1, not `0`".to_string())
        );
        assert!(number("--seed", "-1", 0u64).is_err());
        assert!(number("--seed", "x", 0u64).is_err());
    }

    #[test]
    fn formats() {
        let check = [Format::Text, Format::Json, Format::Herd];
        assert_eq!(Format::parse("text", &check), Ok(Format::Text));
        assert_eq!(Format::parse("json", &check), Ok(Format::Json));
        assert_eq!(Format::parse("herd", &check), Ok(Format::Herd));
        assert_eq!(
            Format::parse("JSON", &check),
            Err("unknown format `JSON`; the formats are: text, json, herd".to_string())
        );
        // A format of another command is refused with this one's list.
        assert_eq!(
            Format::parse("litmus7", &check),
            Err("unknown format `litmus7`; the formats are: text, json, herd".to_string())
        );
    }
}
