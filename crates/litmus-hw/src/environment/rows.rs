//! The environment's knobs as rows of the knobs' table (`knobs::table`),
//! in the order their assignments are written (the knobs line prints
//! them in it).

use std::sync::LazyLock;

use litmus_ptx::layout::StressPattern;

use super::{Assign, Environment, SpinScope, MAX_LINES, MAX_LINE_WORDS};
use crate::knobs::table::{knob, About, Knob};
use crate::knobs::MAX_ROUNDS;
use crate::wire::Wire;
use crate::GpuError;

fn parse_u32(var: &'static str, text: &str, expected: &str) -> Result<u32, GpuError> {
    text.trim()
        .parse()
        .map_err(|_| GpuError::knob(var, text, expected))
}

fn percent(var: &'static str, text: &str) -> Result<u32, GpuError> {
    const WHAT: &str = "a percentage, 0 to 100";
    match parse_u32(var, text, WHAT)? {
        p if p <= 100 => Ok(p),
        _ => Err(GpuError::knob(var, text, WHAT)),
    }
}

fn pattern(var: &'static str, text: &str) -> Result<StressPattern, GpuError> {
    StressPattern::from_name(text.trim())
        .ok_or_else(|| GpuError::knob(var, text, "`st-st`, `ld-ld`, `st-ld` or `ld-st`"))
}

const LINES_WHAT: &str = "1 to 64 (scratch lines)";
const LINE_WORDS_WHAT: &str = "a power of two from 1 to 1024 (words per line)";
const PRE_STRESS_WHAT: &str = "ITERATIONS or ITERATIONS:PATTERN (an integer from 0 to 1000000; `st-st`, `ld-ld`, `st-ld` or `ld-st`)";

fn stress_lines(v: &str) -> Result<u32, GpuError> {
    const VAR: &str = "LITMUS_STRESS_LINES";
    match parse_u32(VAR, v, LINES_WHAT)? {
        n if (1..=MAX_LINES).contains(&n) => Ok(n),
        _ => Err(GpuError::knob(VAR, v, LINES_WHAT)),
    }
}

fn stress_line_words(v: &str) -> Result<u32, GpuError> {
    const VAR: &str = "LITMUS_STRESS_LINE_WORDS";
    match parse_u32(VAR, v, LINE_WORDS_WHAT)? {
        n if n.is_power_of_two() && n <= MAX_LINE_WORDS => Ok(n),
        _ => Err(GpuError::knob(VAR, v, LINE_WORDS_WHAT)),
    }
}

/// `ITERATIONS[:PATTERN]`: the iterations, and the pattern where named.
fn pre_stress(v: &str) -> Result<(u32, Option<StressPattern>), GpuError> {
    const VAR: &str = "LITMUS_PRE_STRESS";
    let (iters, pat) = match v.split_once(':') {
        Some((i, p)) => (i, Some(p)),
        None => (v, None),
    };
    let n = parse_u32(VAR, iters, PRE_STRESS_WHAT)
        .ok()
        .filter(|&n| n <= MAX_ROUNDS)
        .ok_or_else(|| GpuError::knob(VAR, v, PRE_STRESS_WHAT))?;
    let p = match pat {
        None => None,
        Some(p) => Some(
            StressPattern::from_name(p.trim())
                .ok_or_else(|| GpuError::knob(VAR, v, PRE_STRESS_WHAT))?,
        ),
    };
    Ok((n, p))
}

fn number(n: &u32) -> String {
    n.to_string()
}

fn about(
    name: &'static str,
    var: &'static str,
    accepts: &'static str,
    default: &'static str,
    help: &'static str,
) -> About {
    About {
        name,
        var: Some(var),
        accepts,
        default,
        // The search draws every knob of the environment.
        tuned: true,
        help,
    }
}

fn pct(name: &'static str, var: &'static str, default: &'static str, help: &'static str) -> About {
    about(name, var, "a percentage, 0 to 100", default, help)
}

static TABLE: LazyLock<Vec<Knob<Environment>>> = LazyLock::new(|| {
    vec![
        knob!(
            Environment,
            stress_pattern,
            about(
                "stress_pattern",
                "LITMUS_STRESS_PATTERN",
                "`st-st`, `ld-ld`, `st-ld` or `ld-st`",
                "`ld-st`",
                "each stressing iteration's two accesses"
            ),
            |v: &str| pattern("LITMUS_STRESS_PATTERN", v),
            |p: &StressPattern| p.as_str().to_string()
        ),
        knob!(
            Environment,
            stress_lines,
            about(
                "stress_lines",
                "LITMUS_STRESS_LINES",
                LINES_WHAT,
                "4",
                "scratch lines the stressing CTAs hammer"
            ),
            stress_lines,
            number
        ),
        knob!(
            Environment,
            stress_line_words,
            about(
                "stress_line_words",
                "LITMUS_STRESS_LINE_WORDS",
                LINE_WORDS_WHAT,
                "64",
                "words per scratch line"
            ),
            stress_line_words,
            number
        ),
        knob!(
            Environment,
            stress_pct,
            pct(
                "stress_pct",
                "LITMUS_STRESS_PCT",
                "100",
                "% of launches in which the stressing CTAs stress"
            ),
            |v: &str| percent("LITMUS_STRESS_PCT", v),
            number
        ),
        knob!(
            Environment,
            pre_pct,
            pct(
                "pre_stress_pct",
                "LITMUS_PRE_STRESS_PCT",
                "100",
                "% of launches that pre-stress"
            ),
            |v: &str| percent("LITMUS_PRE_STRESS_PCT", v),
            number
        ),
        knob!(
            Environment,
            spin_pct,
            pct(
                "spin_pct",
                "LITMUS_SPIN_PCT",
                "100",
                "% of launches whose roles wait at the spin barrier"
            ),
            |v: &str| percent("LITMUS_SPIN_PCT", v),
            number
        ),
        knob!(
            Environment,
            shuffle_pct,
            pct(
                "shuffle_pct",
                "LITMUS_SHUFFLE_PCT",
                "0",
                "% of launches that rename which CTA plays which instances"
            ),
            |v: &str| percent("LITMUS_SHUFFLE_PCT", v),
            number
        ),
        knob!(
            Environment,
            interleave_pct,
            pct(
                "interleave_pct",
                "LITMUS_INTERLEAVE_PCT",
                "0",
                "% of launches whose testing CTAs are spread among the stressing ones"
            ),
            |v: &str| percent("LITMUS_INTERLEAVE_PCT", v),
            number
        ),
        knob!(
            Environment,
            spin_scope,
            about(
                "spin_scope",
                "LITMUS_SPIN_SCOPE",
                "`instance` or `grid`",
                "`instance`",
                "where the spin barrier lines the roles up"
            ),
            SpinScope::parse,
            |s: &SpinScope| s.as_str().to_string()
        ),
        knob!(
            Environment,
            stress_assign,
            about(
                "stress_assign",
                "LITMUS_STRESS_ASSIGN",
                "`round-robin` or `chunk`",
                "`round-robin`",
                "how stressing CTAs share out the scratch lines"
            ),
            Assign::parse,
            |a: &Assign| a.as_str().to_string()
        ),
        // Two fields, one variable: the iterations and their pattern.
        Knob::new(
            about(
                "pre_stress",
                "LITMUS_PRE_STRESS",
                PRE_STRESS_WHAT,
                "0",
                "iterations the testing threads stress their CTA's line before their roles",
            ),
            |e: &mut Environment, var| {
                if let Some(v) = var("LITMUS_PRE_STRESS") {
                    let (n, p) = pre_stress(&v)?;
                    e.pre_stress = n;
                    e.pre_pattern = p.unwrap_or(e.pre_pattern);
                }
                Ok(())
            },
            |e: &Environment, d: &Environment| {
                (e.pre_stress != d.pre_stress || e.pre_pattern != d.pre_pattern).then(|| {
                    (
                        "LITMUS_PRE_STRESS",
                        format!("{}:{}", e.pre_stress, e.pre_pattern.as_str()),
                    )
                })
            },
            |e: &Environment, w: &mut Vec<u8>| {
                e.pre_stress.put(w);
                e.pre_pattern.put(w);
            },
            |e: &mut Environment, r: &mut &[u8]| {
                e.pre_stress = Wire::get(r)?;
                e.pre_pattern = Wire::get(r)?;
                Some(())
            },
        ),
    ]
});

impl Environment {
    /// The environment's knobs, one row each (see `Knobs::table`, which
    /// holds them too).
    pub fn table() -> &'static [Knob<Environment>] {
        &TABLE
    }
}
