//! The knobs' table: one row per knob, in the order their assignments are
//! written (`Knobs::env_assignments`; the line that reproduces a run
//! reads in it), the environment's rows last. A new knob is a field of
//! [`Knobs`], its default, and a row here.

use std::sync::LazyLock;

use super::table::{knob, About, Knob, Lookup};
use super::vars::{number, power_of_two, toolchain_spec, within};
use super::{
    format_gpu_map, parse_gpu_map, Knobs, Perm, GPU_MAP_ENV, MAX_CTAS_PER_SM, MAX_GPU_FLAGS,
    MAX_GPU_PACE_NS, MAX_GPU_WAIT_NS, MAX_HOST_THREADS, MAX_INSTANCES, MAX_ROUNDS, MAX_STRESS_CTAS,
    MAX_STRIDE, MIN_THREADS, PTXAS_ENV, TOOLCHAIN_ENV,
};
use crate::arrangement::{
    CtaSpread, GpuPartners, Lanes, LocLayout, CTA_SPREAD_ENV, GPU_PARTNERS_ENV, LANES_ENV,
    LOC_LAYOUT_ENV,
};
use crate::codegen::{
    addressing_name, parse_addressing, PtxTarget, ADDRESSING_ENV, DEPENDENT_LAUNCH_ENV,
    PTX_TARGET_ENV,
};
use crate::environment::Environment;
use crate::gpu_start::{GpuStart, GPU_FLAGS_ENV, GPU_PACE_ENV, GPU_START_ENV};
use crate::wire::Wire;
use crate::GpuError;
use litmus_ptx::Addressing;
use litmus_toolchain::installed::Spec;

/// A text made once, for the table's lifetime: what a knob accepts is
/// written from the same bounds its reader checks.
fn text(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn about(
    name: &'static str,
    var: &'static str,
    accepts: &'static str,
    default: &'static str,
    tuned: bool,
    help: &'static str,
) -> About {
    About {
        name,
        var: Some(var),
        accepts,
        default,
        tuned,
        help,
    }
}

const TUNED: bool = true;
const FIXED: bool = false;

fn show(n: &u32) -> String {
    n.to_string()
}

/// A number in `range`, or the error `expected` (the value read first as
/// a non-negative integer, whose own error says so).
fn bounded(
    var: &'static str,
    v: &str,
    range: std::ops::RangeInclusive<u32>,
    expected: &str,
) -> Result<u32, GpuError> {
    let n: u32 = number(var, v)?;
    match range.contains(&n) {
        true => Ok(n),
        false => Err(GpuError::knob(var, v, expected)),
    }
}

const STRESS_WHAT: &str = "CTAS or CTAS:ROUNDS, non-negative integers";

/// `CTAS[:ROUNDS]`: without rounds, 64 of them where there are CTAs.
fn stress(v: &str) -> Result<(u32, u32), GpuError> {
    const VAR: &str = "LITMUS_STRESS";
    let bad = |_| GpuError::knob(VAR, v, STRESS_WHAT);
    let (ctas, rounds) = match v.split_once(':') {
        Some((c, r)) => (number(VAR, c).map_err(bad)?, number(VAR, r).map_err(bad)?),
        None => {
            let c = number(VAR, v).map_err(bad)?;
            (c, if c == 0 { 0 } else { 64 })
        }
    };
    if ctas > MAX_STRESS_CTAS || rounds > MAX_ROUNDS {
        return Err(GpuError::knob(
            VAR,
            v,
            &format!("CTAS or CTAS:ROUNDS, at most {MAX_STRESS_CTAS}:{MAX_ROUNDS}"),
        ));
    }
    Ok((ctas, rounds))
}

fn stagger(v: &str) -> Result<i32, GpuError> {
    match v.trim().parse::<i32>() {
        Ok(n) if n.unsigned_abs() <= MAX_GPU_WAIT_NS => Ok(n),
        _ => Err(GpuError::knob(
            "LITMUS_GPU_STAGGER",
            v,
            &format!("nanoseconds from -{MAX_GPU_WAIT_NS} to {MAX_GPU_WAIT_NS}"),
        )),
    }
}

fn dependent_launch(v: &str) -> Result<bool, GpuError> {
    match v.trim() {
        "auto" => Ok(true),
        "off" => Ok(false),
        _ => Err(GpuError::knob(DEPENDENT_LAUNCH_ENV, v, "`auto` or `off`")),
    }
}

/// Whether a toolchain's spec names an installed release: the portable
/// knob a tuning entry keeps, under `LITMUS_TOOLCHAIN`; a path is this
/// machine's and keeps its older variable, `LITMUS_PTXAS`.
fn is_release(spec: &str) -> bool {
    matches!(Spec::parse(spec), Ok(Spec::Release(_)))
}

/// The rows of the run and the launch, then the environment's.
fn rows() -> Vec<Knob<Knobs>> {
    let ctas_per_sm = text(format!("0 (as many as fit) to {MAX_CTAS_PER_SM}"));
    let stride = text(format!("1 to {MAX_STRIDE} (words)"));
    let spin = text(format!("0 to {MAX_ROUNDS} (polls)"));
    let host_threads = text(format!("1 to {MAX_HOST_THREADS}"));
    let host_instances = text(format!("a power of two from 32 to {MAX_INSTANCES}"));
    let jitter = text(format!("nanoseconds from 0 to {MAX_GPU_WAIT_NS}"));
    let pace = text(format!("nanoseconds from 0 to {MAX_GPU_PACE_NS}"));
    let flags = text(format!("1 to {MAX_GPU_FLAGS}"));
    let mut rows = vec![
        // Written always: the seed reproduces the permutations.
        Knob::new(
            about(
                "seed",
                "LITMUS_SEED",
                "a non-negative integer",
                "from the clock",
                FIXED,
                "seeds the permutations; printed with every result",
            ),
            |k: &mut Knobs, var: Lookup<'_>| {
                if let Some(v) = var("LITMUS_SEED") {
                    k.seed = number("LITMUS_SEED", &v)?;
                }
                Ok(())
            },
            |k: &Knobs, _| Some(("LITMUS_SEED", k.seed.to_string())),
            |k: &Knobs, w: &mut Vec<u8>| k.seed.put(w),
            |k: &mut Knobs, r: &mut &[u8]| {
                k.seed = Wire::get(r)?;
                Some(())
            },
        ),
        knob!(
            Knobs,
            launches,
            about(
                "launches",
                "LITMUS_LAUNCHES",
                "at least 1",
                "unset",
                FIXED,
                "a fixed number of launches instead of a time budget"
            ),
            |v: &str| -> Result<Option<u64>, GpuError> {
                match number::<u64>("LITMUS_LAUNCHES", v)? {
                    0 => Err(GpuError::knob("LITMUS_LAUNCHES", v, "at least 1")),
                    n => Ok(Some(n)),
                }
            },
            |n: &Option<u64>| n.map_or_else(String::new, |n| n.to_string())
        ),
        // Written whenever no launches are: a run stops on one or the other.
        Knob::new(
            about(
                "budget_ms",
                "LITMUS_BUDGET_MS",
                "a non-negative integer (ms)",
                "1000",
                FIXED,
                "wall time per test on the GPU",
            ),
            |k: &mut Knobs, var: Lookup<'_>| {
                if let Some(v) = var("LITMUS_BUDGET_MS") {
                    k.budget_ms = number("LITMUS_BUDGET_MS", &v)?;
                }
                Ok(())
            },
            |k: &Knobs, _| {
                k.launches
                    .is_none()
                    .then(|| ("LITMUS_BUDGET_MS", k.budget_ms.to_string()))
            },
            |k: &Knobs, w: &mut Vec<u8>| k.budget_ms.put(w),
            |k: &mut Knobs, r: &mut &[u8]| {
                k.budget_ms = Wire::get(r)?;
                Some(())
            },
        ),
        knob!(
            Knobs,
            ctas,
            about(
                "ctas",
                "LITMUS_CTAS",
                "a power of two",
                "2048",
                TUNED,
                "CTAs per launch"
            ),
            |v: &str| power_of_two("LITMUS_CTAS", v, 1, u32::MAX),
            show
        ),
        knob!(
            Knobs,
            threads,
            about(
                "threads",
                "LITMUS_THREADS",
                text(format!("a power of two from {MIN_THREADS} to 1024")),
                "64",
                TUNED,
                "threads per CTA"
            ),
            |v: &str| power_of_two("LITMUS_THREADS", v, MIN_THREADS, 1024),
            show
        ),
        knob!(
            Knobs,
            stride,
            about(
                "stride",
                "LITMUS_STRIDE",
                stride,
                "4",
                TUNED,
                "words between two instances' slots of a location"
            ),
            move |v: &str| bounded("LITMUS_STRIDE", v, 1..=MAX_STRIDE, stride),
            show
        ),
        knob!(
            Knobs,
            spin,
            about(
                "spin",
                "LITMUS_SPIN",
                spin,
                "0",
                TUNED,
                "polls of a bounded spin barrier before each role (0: off)"
            ),
            move |v: &str| bounded("LITMUS_SPIN", v, 0..=MAX_ROUNDS, spin),
            show
        ),
        knob!(
            Knobs,
            loop_bound,
            about(
                "loop_bound",
                "LITMUS_LOOP_BOUND",
                "a non-negative integer",
                "1000",
                FIXED,
                "backward branches a role may take before its instance counts as unfinished"
            ),
            |v: &str| number("LITMUS_LOOP_BOUND", v),
            show
        ),
        knob!(
            Knobs,
            ctas_per_sm,
            about(
                "ctas_per_sm",
                "LITMUS_CTAS_PER_SM",
                ctas_per_sm,
                "0",
                TUNED,
                "at most this many CTAs resident on one SM"
            ),
            move |v: &str| bounded("LITMUS_CTAS_PER_SM", v, 0..=MAX_CTAS_PER_SM, ctas_per_sm),
            show
        ),
        knob!(
            Knobs,
            host_instances,
            about(
                "host_instances",
                "LITMUS_HOST_INSTANCES",
                host_instances,
                "65536",
                TUNED,
                "instances per launch of a test with host threads"
            ),
            |v: &str| power_of_two("LITMUS_HOST_INSTANCES", v, 32, MAX_INSTANCES as u32),
            show
        ),
        knob!(
            Knobs,
            host_threads,
            about(
                "host_threads",
                "LITMUS_HOST_THREADS",
                host_threads,
                "4",
                TUNED,
                "CPU threads that share out each host role's instances"
            ),
            move |v: &str| bounded("LITMUS_HOST_THREADS", v, 1..=MAX_HOST_THREADS, host_threads),
            show
        ),
        knob!(
            Knobs,
            perm,
            about(
                "perm",
                "LITMUS_PERM",
                "`auto`, `fixed`, `random` or `identity`",
                "`auto`",
                TUNED,
                "how roles are permuted over lanes and locations over memory"
            ),
            Perm::parse,
            |p: &Perm| p.as_str().to_string()
        ),
        knob!(
            Knobs,
            lanes,
            about(
                "lanes",
                LANES_ENV,
                "`auto`, `permuted` or `aligned`",
                "`auto`",
                TUNED,
                "which lane plays each role of an instance"
            ),
            Lanes::parse,
            |l: &Lanes| l.as_str().to_string()
        ),
        knob!(
            Knobs,
            cta_spread,
            about(
                "cta_spread",
                CTA_SPREAD_ENV,
                "`neighbours` or `by-lane`",
                "`neighbours`",
                TUNED,
                "how far apart an instance's CTAs lie"
            ),
            CtaSpread::parse,
            |c: &CtaSpread| c.as_str().to_string()
        ),
        knob!(
            Knobs,
            loc_layout,
            about(
                "loc_layout",
                LOC_LAYOUT_ENV,
                "`apart` or `interleaved`",
                "`apart`",
                TUNED,
                "how the slots of the test's locations lie"
            ),
            LocLayout::parse,
            |l: &LocLayout| l.as_str().to_string()
        ),
        knob!(
            Knobs,
            gpu_partners,
            about(
                "gpu_partners",
                GPU_PARTNERS_ENV,
                "`permuted` or `aligned`",
                "`aligned`",
                FIXED,
                "tests on several GPUs: how an instance's CTAs line up across GPUs"
            ),
            GpuPartners::parse,
            |g: &GpuPartners| g.as_str().to_string()
        ),
        knob!(
            Knobs,
            gpu_stagger,
            about(
                "gpu_stagger",
                "LITMUS_GPU_STAGGER",
                text(format!(
                    "nanoseconds from -{MAX_GPU_WAIT_NS} to {MAX_GPU_WAIT_NS}"
                )),
                "0",
                FIXED,
                "tests on several GPUs: nanoseconds between the GPUs' starts"
            ),
            stagger,
            |n: &i32| n.to_string()
        ),
        knob!(
            Knobs,
            gpu_jitter,
            about(
                "gpu_jitter",
                "LITMUS_GPU_JITTER",
                jitter,
                "0",
                FIXED,
                "tests on several GPUs: a random wait of each warp after the start"
            ),
            move |v: &str| within("LITMUS_GPU_JITTER", v, 0..=MAX_GPU_WAIT_NS, jitter),
            show
        ),
        knob!(
            Knobs,
            gpu_start,
            about(
                "gpu_start",
                GPU_START_ENV,
                "`auto`, `relay`, `cta` or `paced`",
                "`auto`",
                FIXED,
                "tests on several GPUs: how the roles leave the start"
            ),
            GpuStart::parse,
            |g: &GpuStart| g.as_str().to_string()
        ),
        knob!(
            Knobs,
            dependent_launch,
            about(
                "dependent_launch",
                DEPENDENT_LAUNCH_ENV,
                "`auto` or `off`",
                "`auto`",
                FIXED,
                "launch each kernel as a programmatic dependent of the one before it (sm_90 on)"
            ),
            dependent_launch,
            |on: &bool| if *on { "auto" } else { "off" }.to_string()
        ),
        knob!(
            Knobs,
            gpu_flags,
            about(
                "gpu_flags",
                GPU_FLAGS_ENV,
                flags,
                "1 (2 under `auto`)",
                FIXED,
                "with the CTA start: copies of the host's start flag the CTAs read"
            ),
            move |v: &str| within(GPU_FLAGS_ENV, v, 1..=MAX_GPU_FLAGS, flags),
            show
        ),
        knob!(
            Knobs,
            gpu_pace,
            about(
                "gpu_pace",
                GPU_PACE_ENV,
                pace,
                "500",
                FIXED,
                "with the paced start: nanoseconds between two CTAs' departures"
            ),
            move |v: &str| within(GPU_PACE_ENV, v, 0..=MAX_GPU_PACE_NS, pace),
            show
        ),
        knob!(
            Knobs,
            ptx_target,
            about(
                "ptx_target",
                PTX_TARGET_ENV,
                "`native` or a target since Volta (`sm_80`)",
                "`native`",
                TUNED,
                "the `.target` the test's module is compiled for"
            ),
            PtxTarget::parse,
            |t: &PtxTarget| t.as_str()
        ),
        // The older spelling of the toolchain, read where `LITMUS_TOOLCHAIN`
        // is unset (that row checks the two agree) and written for a path.
        Knob::new(
            about(
                "ptxas",
                PTXAS_ENV,
                "a ptxas's path",
                "unset",
                FIXED,
                "a ptxas that compiles the module instead of the driver's JIT",
            ),
            |k: &mut Knobs, var: Lookup<'_>| {
                if var(TOOLCHAIN_ENV).is_none() {
                    if let Some(path) = var(PTXAS_ENV) {
                        k.ptxas = Some(path.trim().to_string());
                    }
                }
                Ok(())
            },
            |k: &Knobs, _| {
                k.ptxas
                    .as_ref()
                    .filter(|spec| !is_release(spec))
                    .map(|spec| (PTXAS_ENV, spec.clone()))
            },
            // The toolchain's row carries the field.
            |_: &Knobs, _: &mut Vec<u8>| {},
            |_: &mut Knobs, _: &mut &[u8]| Some(()),
        ),
        Knob::new(
            about(
                "ptxas",
                TOOLCHAIN_ENV,
                "`jit`, an installed release (`ptxas-12.4.131`, `ptxas-12.4`) or a ptxas's path",
                "`jit`",
                TUNED,
                "the compiler of the test's module",
            ),
            |k: &mut Knobs, var: Lookup<'_>| {
                if var(TOOLCHAIN_ENV).is_some() {
                    k.ptxas = toolchain_spec(var)?;
                }
                Ok(())
            },
            |k: &Knobs, _| {
                k.ptxas
                    .as_ref()
                    .filter(|spec| is_release(spec))
                    .map(|spec| (TOOLCHAIN_ENV, spec.clone()))
            },
            |k: &Knobs, w: &mut Vec<u8>| k.ptxas.put(w),
            |k: &mut Knobs, r: &mut &[u8]| {
                k.ptxas = Wire::get(r)?;
                Some(())
            },
        ),
        knob!(
            Knobs,
            addressing,
            about(
                "addressing",
                ADDRESSING_ENV,
                "`global` or `generic`",
                "`global`",
                TUNED,
                "how the roles' accesses address global memory"
            ),
            parse_addressing,
            |a: &Addressing| addressing_name(*a).to_string()
        ),
        // Two fields, one variable: the stressing CTAs and their rounds.
        Knob::new(
            about(
                "stress",
                "LITMUS_STRESS",
                STRESS_WHAT,
                "0",
                TUNED,
                "extra CTAs stressing memory, and the rounds of each of their threads",
            ),
            |k: &mut Knobs, var: Lookup<'_>| {
                if let Some(v) = var("LITMUS_STRESS") {
                    (k.stress_ctas, k.stress_rounds) = stress(&v)?;
                }
                Ok(())
            },
            |k: &Knobs, d: &Knobs| {
                (k.stress_ctas != d.stress_ctas).then(|| {
                    (
                        "LITMUS_STRESS",
                        format!("{}:{}", k.stress_ctas, k.stress_rounds),
                    )
                })
            },
            |k: &Knobs, w: &mut Vec<u8>| {
                k.stress_ctas.put(w);
                k.stress_rounds.put(w);
            },
            |k: &mut Knobs, r: &mut &[u8]| {
                k.stress_ctas = Wire::get(r)?;
                k.stress_rounds = Wire::get(r)?;
                Some(())
            },
        ),
        knob!(
            Knobs,
            gpu_map,
            about(
                "gpu_map",
                GPU_MAP_ENV,
                "device ordinals separated by commas, one per logical GPU",
                "identity",
                FIXED,
                "which device plays each logical GPU of a test on several GPUs"
            ),
            |v: &str| parse_gpu_map(v).map(Some),
            |m: &Option<Vec<u32>>| format_gpu_map(m.as_deref().unwrap_or_default())
        ),
        // The histogram's size is the run's, not the environment's; the
        // worker needs it all the same.
        Knob::new(
            About {
                name: "table",
                var: None,
                accepts: "a power of two",
                default: "4096",
                tuned: FIXED,
                help: "entries of the on-GPU histogram",
            },
            |_: &mut Knobs, _: Lookup<'_>| Ok(()),
            |_: &Knobs, _: &Knobs| None,
            |k: &Knobs, w: &mut Vec<u8>| k.table.put(w),
            |k: &mut Knobs, r: &mut &[u8]| {
                k.table = Wire::get(r)?;
                Some(())
            },
        ),
    ];
    rows.extend(
        Environment::table()
            .iter()
            .map(|row| row.lift(|k: &Knobs| &k.env, |k: &mut Knobs| &mut k.env)),
    );
    rows
}

static TABLE: LazyLock<Vec<Knob<Knobs>>> = LazyLock::new(rows);

impl Knobs {
    /// The knobs' table: every knob once, with its variable, what it
    /// accepts, its default, whether the search tunes it and its help
    /// line. The environment reader, the assignments that reproduce a run,
    /// the wire to the worker, [`Knobs::tunable`], [`Knobs::help`] and the
    /// docs' table are all made from it.
    pub fn table() -> &'static [Knob<Knobs>] {
        &TABLE
    }

    /// The variables a tuning entry may set: the table's tuned rows'.
    pub fn tunable() -> Vec<&'static str> {
        super::table::tunable(Knobs::table())
    }

    /// The knobs' help: a line per variable (what it does, what it
    /// accepts, its default, whether the search tunes it).
    pub fn help() -> String {
        super::table::help(Knobs::table())
    }
}
