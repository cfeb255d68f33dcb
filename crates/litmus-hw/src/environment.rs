//! The knobs of the environment around the roles: memory stress by extra
//! CTAs, pre-stress by the testing threads, and the share of launches that
//! line the roles up or shuffle the CTAs. Their ranges follow the published
//! tuned harnesses (`shared/reference/tuning.md`): MC Mutants, GPUHarbor and
//! cuda-litmus search exactly these, per test, to expose rare weak
//! outcomes.

use std::fmt;

use litmus_ptx::layout::StressPattern;

use super::GpuError;
use crate::knobs::table;

mod rows;

/// How stressing CTAs share out the scratch lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assign {
    /// CTA `s` stresses line `s mod lines`.
    RoundRobin,
    /// The stressing CTAs are cut into `lines` runs, one line each.
    Chunk,
}

impl Assign {
    /// `round-robin` or `chunk`.
    pub fn as_str(self) -> &'static str {
        match self {
            Assign::RoundRobin => "round-robin",
            Assign::Chunk => "chunk",
        }
    }

    /// Reads `LITMUS_STRESS_ASSIGN`'s value.
    pub fn parse(text: &str) -> Result<Assign, GpuError> {
        match text.trim() {
            "round-robin" => Ok(Assign::RoundRobin),
            "chunk" => Ok(Assign::Chunk),
            _ => Err(GpuError::knob(
                "LITMUS_STRESS_ASSIGN",
                text,
                "`round-robin` or `chunk`",
            )),
        }
    }
}

/// Where the spin barrier (`LITMUS_SPIN`) lines roles up
/// (`LITMUS_SPIN_SCOPE`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SpinScope {
    /// Before each role, the roles of one instance meet on the instance's
    /// own word.
    #[default]
    Instance,
    /// Once before its roles, every testing thread of the launch meets on
    /// one word, as in the published harnesses (cuda-litmus's `barrier`):
    /// the launch's roles start together, and that word is hammered by the
    /// whole grid meanwhile.
    Grid,
}

impl SpinScope {
    /// `instance` or `grid`.
    pub fn as_str(self) -> &'static str {
        match self {
            SpinScope::Instance => "instance",
            SpinScope::Grid => "grid",
        }
    }

    /// Reads `LITMUS_SPIN_SCOPE`'s value.
    pub fn parse(text: &str) -> Result<SpinScope, GpuError> {
        match text.trim() {
            "instance" => Ok(SpinScope::Instance),
            "grid" => Ok(SpinScope::Grid),
            _ => Err(GpuError::knob(
                "LITMUS_SPIN_SCOPE",
                text,
                "`instance` or `grid`",
            )),
        }
    }
}

/// The environment knobs (see the module doc). The defaults change
/// nothing: no stress, no pre-stress, the spin barrier (when `spin` is on)
/// in every launch, no shuffle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Environment {
    /// The stressing CTAs' pattern (`LITMUS_STRESS_PATTERN`).
    pub stress_pattern: StressPattern,
    /// Scratch lines the stressing CTAs hammer (`LITMUS_STRESS_LINES`,
    /// 1 to 64).
    pub stress_lines: u32,
    /// Words of one scratch line (`LITMUS_STRESS_LINE_WORDS`, a power of two
    /// from 1 to 1024).
    pub stress_line_words: u32,
    /// How stressing CTAs are spread over the lines (`LITMUS_STRESS_ASSIGN`).
    pub stress_assign: Assign,
    /// Percentage of launches in which the stressing CTAs stress
    /// (`LITMUS_STRESS_PCT`).
    pub stress_pct: u32,
    /// Iterations of the testing threads' pre-stress (`LITMUS_PRE_STRESS`,
    /// `ITERATIONS[:PATTERN]`; 0: off).
    pub pre_stress: u32,
    /// The pre-stress pattern.
    pub pre_pattern: StressPattern,
    /// Percentage of launches that pre-stress (`LITMUS_PRE_STRESS_PCT`).
    pub pre_pct: u32,
    /// Percentage of launches whose roles wait at the spin barrier, when
    /// `LITMUS_SPIN` turns it on (`LITMUS_SPIN_PCT`).
    pub spin_pct: u32,
    /// Percentage of launches that shuffle which CTA plays which instances
    /// (`LITMUS_SHUFFLE_PCT`).
    pub shuffle_pct: u32,
    /// Percentage of launches whose testing CTAs are spread evenly among
    /// the stressing CTAs instead of coming before them
    /// (`LITMUS_INTERLEAVE_PCT`): which CTAs share an SM, and which the
    /// GPU schedules first, change with it.
    pub interleave_pct: u32,
    /// Where the spin barrier lines the roles up (`LITMUS_SPIN_SCOPE`).
    pub spin_scope: SpinScope,
}

impl Default for Environment {
    fn default() -> Environment {
        Environment {
            stress_pattern: StressPattern::LdSt,
            stress_lines: 4,
            stress_line_words: 64,
            stress_assign: Assign::RoundRobin,
            stress_pct: 100,
            pre_stress: 0,
            pre_pattern: StressPattern::StSt,
            pre_pct: 100,
            spin_pct: 100,
            shuffle_pct: 0,
            interleave_pct: 0,
            spin_scope: SpinScope::Instance,
        }
    }
}

/// The most scratch lines and the widest line: 64 × 1024 words, 256 KiB.
pub const MAX_LINES: u32 = 64;
/// See [`MAX_LINES`].
pub const MAX_LINE_WORDS: u32 = 1024;

impl Environment {
    /// Reads the environment knobs from `var` (a lookup that already drops
    /// empty values); a bad value is an error naming the variable, the
    /// value and what it must be.
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Environment, GpuError> {
        let mut e = Environment::default();
        table::read(Environment::table(), &mut e, &var)?;
        Ok(e)
    }

    /// The variables that set every knob that differs from its default.
    pub fn env_assignments(&self) -> Vec<(&'static str, String)> {
        table::assignments(Environment::table(), self, &Environment::default())
    }

    /// Words of scratch memory the stress needs.
    pub fn scratch_words(&self) -> usize {
        (self.stress_lines * self.stress_line_words) as usize
    }
}

/// The knobs line's part: only what differs from the defaults, as
/// `name=value` pairs, so that the common line stays short.
impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (var, value) in self.env_assignments() {
            let name = var.trim_start_matches("LITMUS_").to_ascii_lowercase();
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            write!(f, "{name}={value}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(vars: &[(&str, &str)]) -> Result<Environment, GpuError> {
        let map: std::collections::HashMap<&str, &str> = vars.iter().copied().collect();
        Environment::from_vars(|name| map.get(name).map(|v| v.to_string()))
    }

    #[test]
    fn every_variable_sets_its_knob_and_is_printed_back() {
        let e = env(&[
            ("LITMUS_STRESS_PATTERN", "st-ld"),
            ("LITMUS_STRESS_LINES", "16"),
            ("LITMUS_STRESS_LINE_WORDS", "256"),
            ("LITMUS_STRESS_ASSIGN", "chunk"),
            ("LITMUS_STRESS_PCT", "50"),
            ("LITMUS_PRE_STRESS", "64:ld-st"),
            ("LITMUS_PRE_STRESS_PCT", "30"),
            ("LITMUS_SPIN_PCT", "20"),
            ("LITMUS_SHUFFLE_PCT", "70"),
            ("LITMUS_INTERLEAVE_PCT", "40"),
            ("LITMUS_SPIN_SCOPE", "grid"),
        ])
        .unwrap();
        assert_eq!(e.stress_pattern, StressPattern::StLd);
        assert_eq!((e.stress_lines, e.stress_line_words), (16, 256));
        assert_eq!(e.stress_assign, Assign::Chunk);
        assert_eq!((e.stress_pct, e.pre_stress, e.pre_pct), (50, 64, 30));
        assert_eq!(e.pre_pattern, StressPattern::LdSt);
        assert_eq!((e.spin_pct, e.shuffle_pct, e.interleave_pct), (20, 70, 40));
        assert_eq!(e.spin_scope, SpinScope::Grid);
        assert_eq!(
            e.to_string(),
            "stress_pattern=st-ld stress_lines=16 stress_line_words=256 stress_pct=50 pre_stress_pct=30 spin_pct=20 shuffle_pct=70 interleave_pct=40 spin_scope=grid stress_assign=chunk pre_stress=64:ld-st"
        );
        // What is printed reads back to the same knobs.
        let vars = e.env_assignments();
        let back = Environment::from_vars(|name| {
            vars.iter()
                .find(|(v, _)| *v == name)
                .map(|(_, x)| x.clone())
        })
        .unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn the_defaults_print_nothing() {
        assert_eq!(Environment::default().to_string(), "");
        assert_eq!(env(&[]).unwrap(), Environment::default());
    }

    #[test]
    fn bad_values_name_the_variable_the_value_and_what_is_accepted() {
        for (var, value, expected) in [
            ("LITMUS_STRESS_PATTERN", "st-st-st", "`st-st`, `ld-ld`"),
            ("LITMUS_STRESS_LINES", "0", "1 to 64"),
            ("LITMUS_STRESS_LINES", "many", "1 to 64"),
            (
                "LITMUS_STRESS_LINE_WORDS",
                "48",
                "a power of two from 1 to 1024",
            ),
            (
                "LITMUS_STRESS_LINE_WORDS",
                "2048",
                "a power of two from 1 to 1024",
            ),
            ("LITMUS_STRESS_ASSIGN", "random", "`round-robin` or `chunk`"),
            ("LITMUS_STRESS_PCT", "101", "a percentage, 0 to 100"),
            (
                "LITMUS_PRE_STRESS",
                "x:st-st",
                "ITERATIONS or ITERATIONS:PATTERN",
            ),
            (
                "LITMUS_PRE_STRESS",
                "8:up-down",
                "ITERATIONS or ITERATIONS:PATTERN",
            ),
            ("LITMUS_PRE_STRESS_PCT", "-3", "a percentage"),
            ("LITMUS_SPIN_PCT", "half", "a percentage"),
            ("LITMUS_SHUFFLE_PCT", "200", "a percentage"),
            ("LITMUS_INTERLEAVE_PCT", "101", "a percentage"),
            ("LITMUS_SPIN_SCOPE", "warp", "`instance` or `grid`"),
        ] {
            let e = env(&[(var, value)]).unwrap_err().to_string();
            assert!(
                e.contains(var) && e.contains(value) && e.contains(expected),
                "{var}={value}: {e}"
            );
        }
    }
}
