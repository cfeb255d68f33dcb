//! The bad values of the knobs' variables that every reader of them must
//! refuse, with or without a GPU, each with the one error that names the
//! variable, the value and what it accepts. Shared by the CLI's tests and
//! the root crate's `litmus!` tests (tests/knobs_env.rs, through `#[path]`).

/// (variable, bad value, the error).
pub const BAD_KNOBS: &[(&str, &str, &str)] = &[
    (
        "LITMUS_CTAS",
        "abc",
        "bad value `abc` for LITMUS_CTAS: expected a power of two",
    ),
    (
        "LITMUS_SEED",
        "foo",
        "bad value `foo` for LITMUS_SEED: expected a non-negative integer",
    ),
    (
        "LITMUS_BUDGET_MS",
        "-1",
        "bad value `-1` for LITMUS_BUDGET_MS: expected a non-negative integer",
    ),
    (
        "LITMUS_STRESS",
        "x:y",
        "bad value `x:y` for LITMUS_STRESS: expected CTAS or CTAS:ROUNDS, non-negative integers",
    ),
    (
        "LITMUS_THREADS",
        "2048",
        "bad value `2048` for LITMUS_THREADS: expected a power of two from 2 to 1024",
    ),
    (
        "LITMUS_GPU_MAP",
        "0;1",
        "bad value `0;1` for LITMUS_GPU_MAP: expected device ordinals separated by commas, one per logical GPU, at most 8 (e.g. `0,1`, or `0,0` for two logical GPUs on device 0)",
    ),
    (
        "LITMUS_DEVICES",
        "0,0",
        "bad value `0,0` for LITMUS_DEVICES: expected `all`, or device ordinals separated by commas, each at most once (e.g. `0,2`)",
    ),
    (
        "LITMUS_GPU_JITTER",
        "5us",
        "bad value `5us` for LITMUS_GPU_JITTER: expected nanoseconds from 0 to 1000000",
    ),
    (
        "LITMUS_GPU_STAGGER",
        "-2000000",
        "bad value `-2000000` for LITMUS_GPU_STAGGER: expected nanoseconds from -1000000 to 1000000",
    ),
    (
        "LITMUS_GPU_PARTNERS",
        "random",
        "bad value `random` for LITMUS_GPU_PARTNERS: expected `permuted` or `aligned`",
    ),
    (
        "LITMUS_LANES",
        "same",
        "bad value `same` for LITMUS_LANES: expected `auto`, `permuted` or `aligned`",
    ),
    (
        "LITMUS_CTA_SPREAD",
        "far",
        "bad value `far` for LITMUS_CTA_SPREAD: expected `neighbours` or `by-lane`",
    ),
    (
        "LITMUS_LOC_LAYOUT",
        "mixed",
        "bad value `mixed` for LITMUS_LOC_LAYOUT: expected `apart` or `interleaved`",
    ),
    (
        "LITMUS_PTX_TARGET",
        "sm_61",
        "bad value `sm_61` for LITMUS_PTX_TARGET: expected `native` or one of sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_103, sm_110, sm_120, sm_121",
    ),
    (
        "LITMUS_ADDRESSING",
        "flat",
        "bad value `flat` for LITMUS_ADDRESSING: expected `global` or `generic`",
    ),
    (
        "LITMUS_REQUIRE_GPU",
        "yes",
        "bad value `yes` for LITMUS_REQUIRE_GPU: expected `1` or `0`",
    ),
    (
        "LITMUS_REQUIRE_HW",
        "yes",
        "bad value `yes` for LITMUS_REQUIRE_HW: expected `1` or `0`",
    ),
];
