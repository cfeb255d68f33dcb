//! What the subcommands' command lines share: clap's value parsers for
//! numbers and formats (their messages name the flag and the value), the
//! `--model` option with the registry's names, and a usage error written
//! as one line with the nearest name when there is one.

use clap::error::{ContextKind, ContextValue, ErrorKind};

/// clap's value parser of a whole number of at least `min`: its message
/// starts with `takes`, which [`usage_error`] puts the flag's name before.
pub(crate) fn whole<T>(min: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        text.trim()
            .parse()
            .ok()
            .filter(|n| *n >= min)
            .ok_or(format!(
                "takes a whole number of at least {min}, not `{text}`"
            ))
    }
}

/// `--model NAME`, as every command that checks tests takes it; its help
/// lists the registry's models, so that a new model is in every help.
#[derive(clap::Args, Debug, Clone)]
pub struct ModelArg {
    #[arg(long, value_name = "NAME", help = model_help())]
    pub model: Option<String>,
}

impl ModelArg {
    /// The model named, else the environment's (`LITMUS_MODEL`, else the
    /// default).
    pub fn model(&self) -> Result<&'static dyn litmus_model::Model, Refusal> {
        Ok(match &self.model {
            Some(name) => litmus_model::model_by_name(name),
            None => litmus_model::model_from_env(),
        }?)
    }
}

/// How far the model may search one test: the options `check` and
/// `explain` share.
#[derive(clap::Args, Debug, Clone)]
pub struct Limits {
    /// the model's loop bound: how many times a loop body may run in an
    /// execution the model considers (default 1: an execution that takes a
    /// backward jump is dropped, and the result says it was bounded). Not
    /// LITMUS_LOOP_BOUND, which bounds how long a role may spin on the GPU
    /// (default 1000)
    #[arg(long, value_name = "N", value_parser = whole(1u32))]
    loop_bound: Option<u32>,
    /// search budget per test (default 20000000); a test over budget is an
    /// error saying how far it got
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    max_steps: Option<u64>,
    /// the most events (initial writes included) a test may have to be
    /// checked (default 96); a larger test is an error, one line, not a
    /// search without end
    #[arg(long, value_name = "N", value_parser = whole(1usize))]
    max_events: Option<usize>,
    /// the longest the model may take over one test (default 5; the
    /// repository's tests and the conformance corpus take well under a
    /// second); a test that takes longer is an error, one line
    #[arg(long, value_name = "N", value_parser = whole(1u64))]
    max_seconds: Option<u64>,
}

/// The default of `--max-seconds` (check's and explain's): a test the
/// model cannot decide in that time ends in one line rather than keeping
/// the person waiting minutes (the model's own default is 120 s).
pub const MAX_SECONDS: u64 = 5;

impl Limits {
    /// The model's options: the limits given, the defaults for the rest.
    pub fn options(&self) -> litmus_model::Options {
        let d = litmus_model::Options::default();
        litmus_model::Options {
            loop_bound: self.loop_bound.unwrap_or(d.loop_bound),
            max_steps: self.max_steps.unwrap_or(d.max_steps),
            max_events: self.max_events.unwrap_or(d.max_events),
            max_time: Some(std::time::Duration::from_secs(
                self.max_seconds.unwrap_or(MAX_SECONDS),
            )),
            ..d
        }
    }
}

/// The model's default options with the loop bound `--loop-bound` gave.
pub fn with_loop_bound(bound: Option<u32>) -> litmus_model::Options {
    let d = litmus_model::Options::default();
    let loop_bound = bound.unwrap_or(d.loop_bound);
    litmus_model::Options { loop_bound, ..d }
}

/// The help of `--model`: the registry's names, then the default.
pub fn model_help() -> String {
    format!(
        "the memory model: {}, or the path of a .cat file (default: ${}, else {})",
        litmus_model::model_names(),
        litmus_model::MODEL_ENV,
        litmus_model::DEFAULT_MODEL
    )
}

/// Reads the value of `--shard` (`campaign`, `tune`).
pub(crate) fn shard_of(text: &str) -> Result<litmus_runner::shard::Shard, String> {
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
    pub(crate) fn parse(text: &str, allowed: &[Format]) -> Result<Format, String> {
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

    /// clap's value parser of `--format` for a command that prints the
    /// `allowed` formats.
    pub fn of(
        allowed: &'static [Format],
    ) -> impl Fn(&str) -> Result<Format, String> + Clone + Send + Sync + 'static {
        move |text: &str| Format::parse(text, allowed)
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

impl Refusal {
    /// Writes the refusal of `command`'s line to `err` (a usage mistake
    /// with the usage and where the help is) and gives the exit status.
    pub fn print(self, command: &str, err: &mut dyn std::io::Write) -> u8 {
        let _ = match self {
            Refusal::Usage(msg) => writeln!(
                err,
                "error: {msg}\n\n{}\n\nFor more, try `gpu-litmus {command} --help`.",
                super::usage_of(command)
            ),
            Refusal::Content(msg) => writeln!(err, "error: {msg}"),
        };
        super::EXIT_USAGE
    }
}

/// Writes clap's error `e` to `err` the CLI's way and gives the exit
/// status: help and version go to `out` (0); a usage error is `error: `
/// and one line, naming the flag and the value and, when clap found one,
/// the nearest command or option; then the usage of `command` (empty: the
/// tool's) and where the help is (2).
pub fn usage_error(
    e: &clap::Error,
    command: &str,
    out: &mut dyn std::io::Write,
    err: &mut dyn std::io::Write,
) -> u8 {
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = write!(out, "{e}");
        return super::EXIT_OK;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = write!(err, "{e}");
        return super::EXIT_USAGE;
    }
    let text = |kind| e.get(kind).map(ContextValue::to_string).unwrap_or_default();
    // `--loop-bound <N>` names the flag `--loop-bound`.
    let arg = text(ContextKind::InvalidArg);
    let flag = arg.split([' ', '=']).next().unwrap_or_default().to_string();
    let value = text(ContextKind::InvalidValue);
    let mut line = match e.kind() {
        ErrorKind::InvalidSubcommand => {
            format!("unknown command `{}`", text(ContextKind::InvalidSubcommand))
        }
        ErrorKind::UnknownArgument => format!("unknown option `{arg}`"),
        ErrorKind::ValueValidation => {
            let why = std::error::Error::source(e)
                .map(|s| s.to_string())
                .unwrap_or_default();
            // A parser's message that starts with `takes` is about the flag.
            if why.starts_with("takes") || why.starts_with("needs") {
                format!("`{flag}` {why}")
            } else {
                why
            }
        }
        ErrorKind::InvalidValue if value.is_empty() => format!("`{flag}` needs a value"),
        ErrorKind::InvalidValue => format!(
            "`{flag}` takes {}, not `{value}`",
            text(ContextKind::ValidValue)
        ),
        ErrorKind::TooManyValues
            if !value.is_empty() && arg.starts_with('-') && !arg.contains('<') =>
        {
            format!("`{flag}` takes no value")
        }
        // clap's own sentence, less its `error: ` and its tips.
        _ => e
            .render()
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .trim_start_matches("error: ")
            .to_string(),
    };
    let suggested = [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .find_map(|kind| match e.get(kind) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            // clap lists the candidates from the least likely to the most.
            Some(ContextValue::Strings(s)) => s.last().cloned(),
            _ => None,
        });
    if let Some(near) = suggested {
        line.push_str(&format!("; did you mean `{near}`?"));
    }
    let _ = writeln!(
        err,
        "error: {line}\n\n{}\n\nFor more, try `gpu-litmus{}{command} --help`.",
        super::usage_of(command),
        if command.is_empty() { "" } else { " " },
    );
    super::EXIT_USAGE
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_name_the_bound_and_the_value() {
        assert_eq!(whole(0u64)("12"), Ok(12));
        assert_eq!(
            whole(1u64)("0"),
            Err("takes a whole number of at least 1, not `0`".to_string())
        );
        assert!(whole(0u64)("-1").is_err());
        assert!(whole(0u64)("x").is_err());
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
