//! Reading litmus7's result logs: each test's histogram, as litmus7 (and
//! `gpu-litmus run --format litmus7`) prints it:
//!
//! ```text
//! Test MP Allowed
//! Histogram (3 states)
//! 5000  :>1:r0=0; 1:r1=0;
//! 12    *>1:r0=1; 1:r1=0;
//! 4988  :>1:r0=1; 1:r1=1;
//! Ok
//! Witnesses
//! Positive: 12, Negative: 9988
//! Condition exists (1:r0=1 /\ 1:r1=0) is validated
//! Observation MP Sometimes 12 9988
//! ```
//!
//! Everything outside a test's block (the test's source, `%%%` banners,
//! `Time` and `Hash` lines) is passed over; inside the histogram, a line
//! that is not `COUNT :>STATE` or `COUNT *>STATE` is an error at its line.

/// One test's result in a log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Litmus7Test {
    /// The name after `Test`.
    pub name: String,
    /// The line of `Test NAME ...`, from 1.
    pub line: usize,
    /// The histogram's states.
    pub states: Vec<State>,
    /// `Positive: P` and `Negative: N`, when the log gives them.
    pub witnesses: Option<(u64, u64)>,
}

/// One line of a histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The line, from 1.
    pub line: usize,
    /// How many runs ended in it.
    pub count: u64,
    /// `(name, value)` pairs, names in the project's spelling (`P1:r0`,
    /// `x`; litmus7's `1:r0` and `[x]` are rewritten).
    pub pairs: Vec<(String, String)>,
}

impl Litmus7Test {
    /// Runs in all: the witnesses' sum when given, else the histogram's.
    pub fn instances(&self) -> u64 {
        match self.witnesses {
            Some((p, n)) => p.saturating_add(n),
            None => self.states.iter().fold(0, |a, s| a.saturating_add(s.count)),
        }
    }
}

impl State {
    /// The state as the project writes outcomes: `P1:r0=1; x=2`.
    pub fn outcome_text(&self) -> String {
        self.pairs
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// A line of a log that breaks litmus7's shape.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct Litmus7Error {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads every test's result in `text`.
pub fn parse(text: &str) -> Result<Vec<Litmus7Test>, Litmus7Error> {
    let mut tests: Vec<Litmus7Test> = Vec::new();
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    while let Some((line, l)) = lines.next() {
        let err = |message: String| Litmus7Error { line, message };
        let words: Vec<&str> = l.split_whitespace().collect();
        match words.as_slice() {
            ["Test", name, ..] => tests.push(Litmus7Test {
                name: name.to_string(),
                line,
                states: Vec::new(),
                witnesses: None,
            }),
            ["Histogram", ..] => {
                let test = tests
                    .last_mut()
                    .ok_or_else(|| err("`Histogram` before any `Test NAME` line".into()))?;
                if !test.states.is_empty() {
                    return Err(err(format!("a second histogram for test {}", test.name)));
                }
                let n = state_count(l)
                    .ok_or_else(|| err(format!("expected `Histogram (N states)`, found `{l}`")))?;
                for _ in 0..n {
                    let (line, l) = lines.next().ok_or_else(|| {
                        err(format!(
                            "the log ends inside the histogram of {} ({n} states announced)",
                            test.name
                        ))
                    })?;
                    test.states.push(state(line, l)?);
                }
            }
            ["Positive:", ..] => {
                let test = tests
                    .last_mut()
                    .ok_or_else(|| err("`Positive:` before any `Test NAME` line".into()))?;
                test.witnesses = Some(witnesses(l).ok_or_else(|| {
                    err(format!("expected `Positive: P, Negative: N`, found `{l}`"))
                })?);
            }
            _ => {}
        }
    }
    Ok(tests)
}

/// `N` of `Histogram (N states)` (or `(1 state)`).
fn state_count(l: &str) -> Option<usize> {
    let inner = l.strip_prefix("Histogram")?.trim().strip_prefix('(')?;
    let (n, rest) = inner.split_once(char::is_whitespace)?;
    matches!(rest.trim(), "states)" | "state)").then_some(())?;
    n.parse().ok()
}

/// One state line: `COUNT :>1:r0=0; 1:r1=0;` (`*>` marks the condition's).
fn state(line: usize, l: &str) -> Result<State, Litmus7Error> {
    let err = |message: String| Litmus7Error { line, message };
    let bad = || {
        err(format!(
            "expected `COUNT :>NAME=VALUE; ...` or `COUNT *>...`, found `{l}`"
        ))
    };
    let digits = l
        .find(|c: char| !c.is_ascii_digit())
        .filter(|&d| d > 0)
        .ok_or_else(bad)?;
    let count = l[..digits]
        .parse()
        .map_err(|_| err(format!("bad count `{}`", &l[..digits])))?;
    let rest = l[digits..].trim_start();
    let body = rest
        .strip_prefix(":>")
        .or_else(|| rest.strip_prefix("*>"))
        .ok_or_else(bad)?;
    let mut pairs = Vec::new();
    for pair in body.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| err(format!("expected `NAME=VALUE`, found `{pair}`")))?;
        pairs.push((spelling(name.trim()), value.trim().to_string()));
    }
    Ok(State { line, count, pairs })
}

/// litmus7's names in the project's spelling: `1:r0` is `P1:r0`, `[x]`
/// is `x`.
fn spelling(name: &str) -> String {
    let name = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    match name.split_once(':') {
        Some((thread, reg)) if !thread.is_empty() && thread.bytes().all(|b| b.is_ascii_digit()) => {
            format!("P{thread}:{reg}")
        }
        _ => name.to_string(),
    }
}

/// `Positive: P, Negative: N` (the comma is optional).
fn witnesses(l: &str) -> Option<(u64, u64)> {
    let words: Vec<&str> = l
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        ["Positive:", p, "Negative:", n, ..] => Some((p.parse().ok()?, n.parse().ok()?)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "%%%%%%%%%%%%%%%%%%%%%%%%%\n% Results for MP.litmus %\n%%%%%%%%%%%%%%%%%%%%%%%%%\nPTX MP\n{ x=0; }\nGenerated assembler\nTest MP Allowed\nHistogram (3 states)\n5000  :>1:r0=0; 1:r1=0;\n12    *>1:r0=1; 1:r1=0;\n4988  :>1:r0=1; 1:r1=1; [x]=1;\nOk\n\nWitnesses\nPositive: 12, Negative: 9988\nCondition exists (1:r0=1 /\\ 1:r1=0) is validated\nHash=0123\nObservation MP Sometimes 12 9988\nTime MP 0.01\n\nTest SB Allowed\nHistogram (1 states)\n100 :>P0:r0=1; P1:r0=1;\nNo\nWitnesses\nPositive: 0 Negative: 100\n";

    #[test]
    fn a_log_reads_test_by_test() {
        let tests = parse(LOG).unwrap();
        assert_eq!(tests.len(), 2);
        let mp = &tests[0];
        assert_eq!((mp.name.as_str(), mp.line), ("MP", 7));
        assert_eq!(mp.states.len(), 3);
        assert_eq!(mp.states[1].count, 12);
        assert_eq!(mp.states[1].outcome_text(), "P1:r0=1; P1:r1=0");
        assert_eq!(mp.states[2].outcome_text(), "P1:r0=1; P1:r1=1; x=1");
        assert_eq!(mp.witnesses, Some((12, 9988)));
        assert_eq!(mp.instances(), 10000);
        assert_eq!(tests[1].witnesses, Some((0, 100)));
        assert_eq!(tests[1].states[0].outcome_text(), "P0:r0=1; P1:r0=1");
    }

    #[test]
    fn broken_logs_name_the_line() {
        let e = parse("Test MP Allowed\nHistogram (2 states)\n5 :>1:r0=0;\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("ends inside the histogram of MP"), "{e}");
        let e = parse("Test MP Allowed\nHistogram (1 states)\nfive :>1:r0=0;\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 3: expected `COUNT :>NAME=VALUE; ...` or `COUNT *>...`, found `five :>1:r0=0;`"
        );
        let e = parse("Test MP Allowed\nHistogram (1 states)\n5 :>1:r0;\n").unwrap_err();
        assert_eq!(e.to_string(), "line 3: expected `NAME=VALUE`, found `1:r0`");
        let e = parse("Histogram (1 states)\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse("Test A X\nHistogram of things\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2: expected `Histogram (N states)`, found `Histogram of things`"
        );
        let e = parse("Test A X\nPositive: many\n").unwrap_err();
        assert_eq!(e.line, 2);
    }
}
