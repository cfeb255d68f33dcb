//! `litmus_files!` on `tests/litmus/files`: every `.litmus` file there is a
//! cargo test of its own, named after the file, parsed and run (model, and
//! GPU where there is one) when the test runs.

use gpu_litmus::litmus_files;

// `*`: three of the four files, each a test at the top level.
litmus_files!("tests/litmus/files/*_*.litmus");

// `**`, `?` and a module; the file name `MP+rel-acq` is not an identifier:
// its test is `sanitized::MP_rel_acq`.
litmus_files!(mod sanitized = "tests/**/files/MP+rel-acq.lit?us");

/// The names the macro gives: a file it missed, or a name it spelled
/// differently, fails to compile here.
const _: [fn(); 3] = [corr_shared_cta, mp_relaxed_gpu, sb_fence_sc_gpu];

// A file with a location it uses but does not declare: `litmus_files!`
// reads it as 0, as herd7 and Dat3M do (`litmus!` would refuse it:
// tests/ui/fail/unknown_location.rs).
litmus_files!(mod undeclared = "tests/litmus/undeclared/*.litmus");
