//! The knobs' environment variables: reading them (each bad value an
//! error naming its variable and what it takes) and writing the
//! assignments that reproduce a run.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{
    format_gpu_map, parse_gpu_map, Knobs, Perm, GPU_MAP_ENV, MAX_CTAS_PER_SM, MAX_GPU_FLAGS,
    MAX_GPU_PACE_NS, MAX_GPU_WAIT_NS, MAX_HOST_THREADS, MAX_INSTANCES, MAX_ROUNDS, MAX_STRESS_CTAS,
    MAX_STRIDE, MIN_THREADS, PTXAS_ENV, TOOLCHAIN_ENV,
};
use crate::arrangement::{
    CtaSpread, GpuPartners, Lanes, LocLayout, CTA_SPREAD_ENV, GPU_PARTNERS_ENV, LANES_ENV,
    LOC_LAYOUT_ENV,
};
use crate::codegen::DEPENDENT_LAUNCH_ENV;
use crate::codegen::{
    addressing_name, parse_addressing, PtxTarget, ADDRESSING_ENV, PTX_TARGET_ENV,
};
use crate::environment::Environment;
use crate::gpu_start::{GpuStart, GPU_FLAGS_ENV, GPU_PACE_ENV, GPU_START_ENV};
use crate::GpuError;
use litmus_toolchain::installed::Spec;

fn number<T: std::str::FromStr>(name: &'static str, text: &str) -> Result<T, GpuError> {
    text.trim()
        .parse()
        .map_err(|_| GpuError::knob(name, text.to_string(), "a non-negative integer"))
}

/// A number in `range`, read from `text`; anything else (a word, a
/// negative number, one out of range) gets the one message `expected`.
fn within(
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
fn power_of_two(name: &'static str, text: &str, min: u32, max: u32) -> Result<u32, GpuError> {
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
        Knobs::from_vars(|name| std::env::var(name).ok())
    }

    /// [`Knobs::from_env`] over any source of variables (tests give a map).
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Knobs, GpuError> {
        let var = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let mut k = Knobs {
            seed: clock_seed(),
            ..Knobs::default()
        };
        if let Some(v) = var("LITMUS_CTAS") {
            k.ctas = power_of_two("LITMUS_CTAS", &v, 1, u32::MAX)?;
        }
        if let Some(v) = var("LITMUS_THREADS") {
            k.threads = power_of_two("LITMUS_THREADS", &v, MIN_THREADS, 1024)?;
        }
        if let Some(v) = var("LITMUS_CTAS_PER_SM") {
            k.ctas_per_sm = number("LITMUS_CTAS_PER_SM", &v)?;
            if k.ctas_per_sm > MAX_CTAS_PER_SM {
                return Err(GpuError::knob(
                    "LITMUS_CTAS_PER_SM",
                    v,
                    &format!("0 (as many as fit) to {MAX_CTAS_PER_SM}"),
                ));
            }
        }
        if let Some(v) = var("LITMUS_LAUNCHES") {
            let n: u64 = number("LITMUS_LAUNCHES", &v)?;
            if n == 0 {
                return Err(GpuError::knob("LITMUS_LAUNCHES", v, "at least 1"));
            }
            k.launches = Some(n);
        }
        if let Some(v) = var("LITMUS_BUDGET_MS") {
            k.budget_ms = number("LITMUS_BUDGET_MS", &v)?;
        }
        if let Some(v) = var("LITMUS_SEED") {
            k.seed = number("LITMUS_SEED", &v)?;
        }
        if let Some(v) = var("LITMUS_PERM") {
            k.perm = match v.trim() {
                "fixed" => Perm::Fixed,
                "random" => Perm::Random,
                "identity" => Perm::Identity,
                "auto" => Perm::Auto,
                _ => {
                    return Err(GpuError::knob(
                        "LITMUS_PERM",
                        v,
                        "`auto`, `fixed`, `random` or `identity`",
                    ))
                }
            };
        }
        if let Some(v) = var(LANES_ENV) {
            k.lanes = Lanes::parse(&v)?;
        }
        if let Some(v) = var(CTA_SPREAD_ENV) {
            k.cta_spread = CtaSpread::parse(&v)?;
        }
        if let Some(v) = var(LOC_LAYOUT_ENV) {
            k.loc_layout = LocLayout::parse(&v)?;
        }
        if let Some(v) = var(GPU_PARTNERS_ENV) {
            k.gpu_partners = GpuPartners::parse(&v)?;
        }
        if let Some(v) = var("LITMUS_GPU_STAGGER") {
            k.gpu_stagger = match v.trim().parse::<i32>() {
                Ok(n) if n.unsigned_abs() <= MAX_GPU_WAIT_NS => n,
                _ => {
                    return Err(GpuError::knob(
                        "LITMUS_GPU_STAGGER",
                        v,
                        &format!("nanoseconds from -{MAX_GPU_WAIT_NS} to {MAX_GPU_WAIT_NS}"),
                    ))
                }
            };
        }
        if let Some(v) = var("LITMUS_GPU_JITTER") {
            k.gpu_jitter = within(
                "LITMUS_GPU_JITTER",
                &v,
                0..=MAX_GPU_WAIT_NS,
                &format!("nanoseconds from 0 to {MAX_GPU_WAIT_NS}"),
            )?;
        }
        if let Some(v) = var(GPU_START_ENV) {
            k.gpu_start = GpuStart::parse(&v)?;
        }
        if let Some(v) = var(DEPENDENT_LAUNCH_ENV) {
            k.dependent_launch = match v.trim() {
                "auto" => true,
                "off" => false,
                _ => return Err(GpuError::knob(DEPENDENT_LAUNCH_ENV, v, "`auto` or `off`")),
            };
        }
        if let Some(v) = var(GPU_FLAGS_ENV) {
            k.gpu_flags = within(
                GPU_FLAGS_ENV,
                &v,
                1..=MAX_GPU_FLAGS,
                &format!("1 to {MAX_GPU_FLAGS}"),
            )?;
        }
        if let Some(v) = var(GPU_PACE_ENV) {
            k.gpu_pace = within(
                GPU_PACE_ENV,
                &v,
                0..=MAX_GPU_PACE_NS,
                &format!("nanoseconds from 0 to {MAX_GPU_PACE_NS}"),
            )?;
        }
        if let Some(v) = var(PTX_TARGET_ENV) {
            k.ptx_target = PtxTarget::parse(&v)?;
        }
        if let Some(v) = var(ADDRESSING_ENV) {
            k.addressing = parse_addressing(&v)?;
        }
        k.ptxas = toolchain(&var)?;
        if let Some(v) = var("LITMUS_STRIDE") {
            k.stride = number("LITMUS_STRIDE", &v)?;
            if !(1..=MAX_STRIDE).contains(&k.stride) {
                return Err(GpuError::knob(
                    "LITMUS_STRIDE",
                    v,
                    &format!("1 to {MAX_STRIDE} (words)"),
                ));
            }
        }
        if let Some(v) = var("LITMUS_SPIN") {
            k.spin = number("LITMUS_SPIN", &v)?;
            if k.spin > MAX_ROUNDS {
                return Err(GpuError::knob(
                    "LITMUS_SPIN",
                    v,
                    &format!("0 to {MAX_ROUNDS} (polls)"),
                ));
            }
        }
        if let Some(v) = var("LITMUS_STRESS") {
            let bad = |_| {
                GpuError::knob(
                    "LITMUS_STRESS",
                    &v,
                    "CTAS or CTAS:ROUNDS, non-negative integers",
                )
            };
            let (ctas, rounds) = match v.split_once(':') {
                Some((c, r)) => (
                    number("LITMUS_STRESS", c).map_err(bad)?,
                    number("LITMUS_STRESS", r).map_err(bad)?,
                ),
                None => {
                    let c = number("LITMUS_STRESS", &v).map_err(bad)?;
                    (c, if c == 0 { 0 } else { 64 })
                }
            };
            if ctas > MAX_STRESS_CTAS || rounds > MAX_ROUNDS {
                return Err(GpuError::knob(
                    "LITMUS_STRESS",
                    &v,
                    &format!("CTAS or CTAS:ROUNDS, at most {MAX_STRESS_CTAS}:{MAX_ROUNDS}"),
                ));
            }
            k.stress_ctas = ctas;
            k.stress_rounds = rounds;
        }
        if let Some(v) = var("LITMUS_LOOP_BOUND") {
            k.loop_bound = number("LITMUS_LOOP_BOUND", &v)?;
        }
        if let Some(v) = var("LITMUS_HOST_INSTANCES") {
            k.host_instances = power_of_two("LITMUS_HOST_INSTANCES", &v, 32, MAX_INSTANCES as u32)?;
        }
        if let Some(v) = var("LITMUS_HOST_THREADS") {
            k.host_threads = number("LITMUS_HOST_THREADS", &v)?;
            if !(1..=MAX_HOST_THREADS).contains(&k.host_threads) {
                return Err(GpuError::knob(
                    "LITMUS_HOST_THREADS",
                    v,
                    &format!("1 to {MAX_HOST_THREADS}"),
                ));
            }
        }
        if let Some(v) = var(GPU_MAP_ENV) {
            k.gpu_map = Some(parse_gpu_map(&v)?);
        }
        k.env = Environment::from_vars(var)?;
        if k.instances() > MAX_INSTANCES {
            return Err(GpuError::knob(
                "LITMUS_CTAS",
                format!("{} (x LITMUS_THREADS={})", k.ctas, k.threads),
                "at most 2^24 instances per launch (CTAs x threads)",
            ));
        }
        Ok(k)
    }

    /// The environment that reproduces these knobs: the seed, the budget,
    /// and every knob that differs from its default.
    pub fn env_assignments(&self) -> Vec<(&'static str, String)> {
        let d = Knobs::default();
        let mut out = vec![("LITMUS_SEED", self.seed.to_string())];
        if let Some(file) = &self.tuning {
            out.insert(0, ("LITMUS_TUNING", file.clone()));
        }
        match self.launches {
            Some(n) => out.push(("LITMUS_LAUNCHES", n.to_string())),
            None => out.push(("LITMUS_BUDGET_MS", self.budget_ms.to_string())),
        }
        let mut differ = |var, value: u32, default: u32| {
            if value != default {
                out.push((var, value.to_string()));
            }
        };
        differ("LITMUS_CTAS", self.ctas, d.ctas);
        differ("LITMUS_THREADS", self.threads, d.threads);
        differ("LITMUS_STRIDE", self.stride, d.stride);
        differ("LITMUS_SPIN", self.spin, d.spin);
        differ("LITMUS_LOOP_BOUND", self.loop_bound, d.loop_bound);
        differ("LITMUS_CTAS_PER_SM", self.ctas_per_sm, d.ctas_per_sm);
        differ(
            "LITMUS_HOST_INSTANCES",
            self.host_instances,
            d.host_instances,
        );
        differ("LITMUS_HOST_THREADS", self.host_threads, d.host_threads);
        if self.perm != d.perm {
            out.push(("LITMUS_PERM", self.perm.as_str().into()));
        }
        if self.lanes != d.lanes {
            out.push((LANES_ENV, self.lanes.as_str().into()));
        }
        if self.cta_spread != d.cta_spread {
            out.push((CTA_SPREAD_ENV, self.cta_spread.as_str().into()));
        }
        if self.loc_layout != d.loc_layout {
            out.push((LOC_LAYOUT_ENV, self.loc_layout.as_str().into()));
        }
        if self.gpu_partners != d.gpu_partners {
            out.push((GPU_PARTNERS_ENV, self.gpu_partners.as_str().into()));
        }
        if self.gpu_stagger != d.gpu_stagger {
            out.push(("LITMUS_GPU_STAGGER", self.gpu_stagger.to_string()));
        }
        if self.gpu_jitter != d.gpu_jitter {
            out.push(("LITMUS_GPU_JITTER", self.gpu_jitter.to_string()));
        }
        if self.gpu_start != d.gpu_start {
            out.push((GPU_START_ENV, self.gpu_start.as_str().into()));
        }
        if !self.dependent_launch {
            out.push((DEPENDENT_LAUNCH_ENV, "off".into()));
        }
        if self.gpu_flags != d.gpu_flags {
            out.push((GPU_FLAGS_ENV, self.gpu_flags.to_string()));
        }
        if self.gpu_pace != d.gpu_pace {
            out.push((GPU_PACE_ENV, self.gpu_pace.to_string()));
        }
        if self.ptx_target != d.ptx_target {
            out.push((PTX_TARGET_ENV, self.ptx_target.as_str()));
        }
        if let Some(spec) = &self.ptxas {
            // A release's name is the portable knob a tuning entry keeps;
            // a path is this machine's and keeps its old variable.
            match Spec::parse(spec) {
                Ok(Spec::Release(_)) => out.push((TOOLCHAIN_ENV, spec.clone())),
                _ => out.push((PTXAS_ENV, spec.clone())),
            }
        }
        if self.addressing != d.addressing {
            out.push((ADDRESSING_ENV, addressing_name(self.addressing).into()));
        }
        if self.stress_ctas != d.stress_ctas {
            out.push((
                "LITMUS_STRESS",
                format!("{}:{}", self.stress_ctas, self.stress_rounds),
            ));
        }
        if let Some(map) = &self.gpu_map {
            out.push((GPU_MAP_ENV, format_gpu_map(map)));
        }
        out.extend(self.env.env_assignments());
        out
    }
}

/// The toolchain the variables name: `LITMUS_TOOLCHAIN` (`jit`, an
/// installed release, or a path), or `LITMUS_PTXAS` (a path, its older
/// spelling); both set and naming different compilers is an error. Only
/// the spec here: the runner's configuration asks whether it names a
/// ptxas before anything runs (`check_ptxas`), and the GPU worker asks
/// again where it runs. `None`: the driver's JIT.
fn toolchain(var: &impl Fn(&str) -> Option<String>) -> Result<Option<String>, GpuError> {
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
