//! A kernel fault on purpose (`LITMUS_INJECT_FAULT=NAME`): test NAME's
//! kernel reads its locations through an unmapped address. A fault
//! poisons the CUDA context of the process that saw it; this is how a
//! user checks, on their own GPU runner, that one costs only the test it
//! hit (the worker is replaced and the next test runs) without writing a
//! broken kernel by hand.

use std::borrow::Cow;

use super::GpuError;

/// The variable naming the test whose kernel is made to fault.
pub const INJECT_FAULT_ENV: &str = "LITMUS_INJECT_FAULT";

/// Where the location buffer points when a fault is injected: the first
/// page, never mapped.
const UNMAPPED: u64 = 64;

/// `ptx` as it runs for test `name`: unchanged unless
/// [`INJECT_FAULT_ENV`] names the test.
pub(crate) fn injected<'a>(name: &str, ptx: &'a str) -> Result<Cow<'a, str>, GpuError> {
    match crate::process_env::lookup(INJECT_FAULT_ENV) {
        Some(target) if target == name => corrupt(ptx).map(Cow::Owned),
        _ => Ok(Cow::Borrowed(ptx)),
    }
}

/// The test kernel's first statement loads the location buffer's address
/// (`ld.param.u64 %rdN, [p_mem];`); a move right after it replaces that
/// address.
fn corrupt(ptx: &str) -> Result<String, GpuError> {
    let line = ptx
        .lines()
        .find(|l| l.trim_start().starts_with("ld.param.u64") && l.trim_end().ends_with("[p_mem];"))
        .ok_or_else(|| {
            GpuError::Worker(format!(
                "{INJECT_FAULT_ENV}: the kernel has no `ld.param.u64 .., [p_mem];` to redirect"
            ))
        })?;
    let reg = line
        .trim_start()
        .trim_start_matches("ld.param.u64")
        .split(',')
        .next()
        .map(str::trim)
        .unwrap_or_default();
    Ok(ptx.replacen(line, &format!("{line}\n\tmov.u64 {reg}, {UNMAPPED};"), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_location_buffer_is_redirected_right_after_its_load() {
        let ptx = "\tld.param.u64 %rd1, [p_mem];\n\tcvta.to.global.u64 %rd2, %rd1;\n";
        assert_eq!(
            corrupt(ptx).unwrap(),
            "\tld.param.u64 %rd1, [p_mem];\n\tmov.u64 %rd1, 64;\n\tcvta.to.global.u64 %rd2, %rd1;\n"
        );
    }

    #[test]
    fn a_kernel_without_the_parameter_is_an_error_naming_the_variable() {
        let err = corrupt("\tret;\n").unwrap_err().to_string();
        assert!(err.contains(INJECT_FAULT_ENV), "{err}");
    }
}
