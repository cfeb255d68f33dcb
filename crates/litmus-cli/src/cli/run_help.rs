//! The end of `gpu-litmus run --help` (the environment, litmus7's format,
//! the exit status): the part of `run`'s manual that no option carries,
//! kept apart from the code. The knobs' lines are `litmus_hw::Knobs::help`'s,
//! made from the table that reads them, so that every knob is in the help
//! as the reader takes it.

/// The end of `run --help`.
pub(super) fn after_help() -> String {
    let knobs: String = litmus_hw::Knobs::help().lines().map(hang).collect();
    format!("{ENVIRONMENT}{knobs}\n{REST}")
}

/// A knob's line (`VAR  what it does...`) as the other variables are
/// laid out: its text in a column of its own, wrapped within 80 columns
/// (clap would wrap a longer line back to the margin).
fn hang(line: &str) -> String {
    let (var, text) = line.trim().split_once(' ').unwrap_or((line, ""));
    let mut out = format!("    {var:<24}");
    let mut width = 28;
    for word in text.split_whitespace() {
        if width + 1 + word.len() > 80 {
            out.push_str(&format!("\n{:28}", ""));
            width = 28;
        }
        out.push(' ');
        out.push_str(word);
        width += 1 + word.len();
    }
    out + "\n"
}

const ENVIRONMENT: &str = "ENVIRONMENT:
    LITMUS_MODEL        as --model
    LITMUS_REPORT_DIR   as --report
    LITMUS_EVIDENCE     as --evidence
    LITMUS_TUNING       as --tuning
    LITMUS_REQUIRE_GPU  1: a missing GPU fails every test instead of
                        skipping its hardware half
    LITMUS_REQUIRE_HW   1: a hardware half this machine cannot run (the
                        device or driver lacks an instruction of the
                        test, the harness cannot place it) fails the test
                        instead of being reported as not run
    LITMUS_DEVICES      the devices the files are spread over, one worker
                        each: all (default) or ordinals like 0,2 (after
                        CUDA_VISIBLE_DEVICES)

KNOBS: how the GPU runs a test; --budget-ms, --launches, --seed and
--ptxas win over their variables; `tuned`: `gpu-litmus tune` searches it.
LITMUS_LOOP_BOUND is the GPU's spin limit, not the model's --loop-bound.
";

const REST: &str = "LITMUS7 FORMAT (--format litmus7), one block per file whose hardware half
ran, as litmus7 prints it:
    Test MP Allowed
    Histogram (3 states)
    5021  :>1:r0=0; 1:r1=0;
    17    *>1:r0=1; 1:r1=0;
    4956  :>1:r0=1; 1:r1=1;
    Ok

    Witnesses
    Positive: 17, Negative: 9977
    Condition exists (1:r0=1 /\\ 1:r1=0) is validated
    Observation MP Sometimes 17 9977
    Time MP 1.00
    (then an empty line). Allowed, Forbidden or Required for exists, ~exists
    or forall; each state the hardware showed with its count, *> marking
    those that satisfy the condition's expression, registers as
    THREAD-NUMBER:REG and locations as [x]; Ok or No, is validated or is
    NOT validated: whether the claim held on the hardware; Positive and
    Negative: instances satisfying the expression or not (swapped for
    ~exists); Observation: Never, Sometimes or Always, with the two counts
    unswapped. No Hash= line. Without a GPU there is no block: stderr says
    that the hardware did not run, and the model's verdict; stderr also
    says why a test failed.

Every LITMUS_* variable is checked before the first file runs, with or
without a GPU: a bad value (LITMUS_CTAS=abc, LITMUS_STRESS=x:y, ...) is an
error naming the variable, the value and what it accepts, and exit status 2.

EXIT STATUS:
    0  every test passed
    1  some test failed, or a file could not be read or parsed (the other
       files still run)
    2  the command line, or a LITMUS_* variable, is wrong
";

#[cfg(test)]
mod tests {
    /// Every knob of the table is in the help, and every line fits in 80
    /// columns, so that clap keeps the layout as it is.
    #[test]
    fn every_knob_is_in_the_help_within_80_columns() {
        let help = super::after_help();
        for var in litmus_hw::Knobs::table().iter().filter_map(|r| r.var) {
            let line = |l: &str| l.split_whitespace().next() == Some(var);
            assert!(help.lines().any(line), "{var}");
        }
        assert!(help.lines().all(|l| l.chars().count() <= 80), "{help}");
    }
}
