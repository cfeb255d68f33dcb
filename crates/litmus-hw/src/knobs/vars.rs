//! The knobs' environment variables: reading them (each bad value an
//! error naming its variable and what it takes) and writing the
//! assignments that reproduce a run.

use std::time::{SystemTime, UNIX_EPOCH};

use super::table::{self, Lookup};
use super::{Knobs, MAX_INSTANCES, PTXAS_ENV, TOOLCHAIN_ENV};
use crate::GpuError;
use litmus_toolchain::installed::Spec;

pub(super) fn number<T: std::str::FromStr>(name: &'static str, text: &str) -> Result<T, GpuError> {
    text.trim()
        .parse()
        .map_err(|_| GpuError::knob(name, text.to_string(), "a non-negative integer"))
}

/// A number in `range`, read from `text`; anything else (a word, a
/// negative number, one out of range) gets the one message `expected`.
pub(super) fn within(
    name: &'static str,
    text: &str,
    range: std::ops::RangeInclusive<u32>,
    expected: &str,
) -> Result<u32, GpuError> {
    match text.trim().parse::<u32>() {
        Ok(n) if range.contains(&n) => Ok(n),
        _ => Err(GpuError::knob(name, text, expected)),
    }
}

/// A power of two in `min..=max`, read from `text`; anything else (a
/// word, a negative number, 300) gets the one message saying what is
/// accepted.
pub(super) fn power_of_two(
    name: &'static str,
    text: &str,
    min: u32,
    max: u32,
) -> Result<u32, GpuError> {
    match text.trim().parse::<u32>() {
        Ok(v) if v.is_power_of_two() && (min..=max).contains(&v) => Ok(v),
        _ if max == u32::MAX => Err(GpuError::knob(name, text, "a power of two")),
        _ => Err(GpuError::knob(
            name,
            text,
            &format!("a power of two from {min} to {max}"),
        )),
    }
}

impl Knobs {
    /// The defaults with the environment's overrides; a bad value is an
    /// error naming the variable. Without `LITMUS_SEED` the seed comes from
    /// the clock.
    pub fn from_env() -> Result<Knobs, GpuError> {
        Knobs::from_vars(crate::process_env::lookup)
    }

    /// [`Knobs::from_env`] over any source of variables (tests give a map):
    /// each row of [`Knobs::table`] reads its own, then the launch's
    /// instances are checked against the harness's limit.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Knobs, GpuError> {
        let mut k = Knobs {
            seed: clock_seed(),
            ..Knobs::default()
        };
        table::read(Knobs::table(), &mut k, &lookup)?;
        if k.instances() > MAX_INSTANCES {
            return Err(GpuError::knob(
                "LITMUS_CTAS",
                format!("{} (x LITMUS_THREADS={})", k.ctas, k.threads),
                "at most 2^24 instances per launch (CTAs x threads)",
            ));
        }
        Ok(k)
    }

    /// The environment that reproduces these knobs: the tuning file that
    /// set them, the seed, the budget, and every knob that differs from
    /// its default, in the table's order.
    pub fn env_assignments(&self) -> Vec<(&'static str, String)> {
        let tuning = self.tuning.iter().map(|f| ("LITMUS_TUNING", f.clone()));
        tuning
            .chain(table::assignments(Knobs::table(), self, &Knobs::default()))
            .collect()
    }
}

/// The toolchain the variables name: `LITMUS_TOOLCHAIN` (`jit`, an
/// installed release, or a path), or `LITMUS_PTXAS` (a path, its older
/// spelling); both set and naming different compilers is an error. Only
/// the spec here: the runner's configuration asks whether it names a
/// ptxas before anything runs (`check_ptxas`), and the GPU worker asks
/// again where it runs. `None`: the driver's JIT.
pub(super) fn toolchain_spec(var: Lookup<'_>) -> Result<Option<String>, GpuError> {
    let chosen = var(TOOLCHAIN_ENV)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let ptxas = var(PTXAS_ENV)
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty());
    let chosen = match chosen {
        None => return Ok(ptxas),
        Some(v) => match Spec::parse(&v) {
            Ok(Spec::Jit) => None,
            Ok(_) => Some(v),
            Err(_) => return Err(GpuError::knob(
                TOOLCHAIN_ENV,
                v,
                "`jit`, an installed release (`ptxas-12.4.131`, `ptxas-12.4`) or a ptxas's path",
            )),
        },
    };
    match (&chosen, &ptxas) {
        (_, None) => Ok(chosen),
        (Some(c), Some(p)) if c == p => Ok(chosen),
        (c, Some(p)) => Err(GpuError::knob(
            TOOLCHAIN_ENV,
            c.clone().unwrap_or_else(|| "jit".into()),
            &format!("{PTXAS_ENV}={p} names another compiler: set one of them"),
        )),
    }
}

fn clock_seed() -> u64 {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos as u64 ^ (nanos >> 64) as u64) % 1_000_000_007
}
