//! What the compiler made of a test whose hardware showed an outcome the
//! model forbids. Such an outcome is a finding against the model only if
//! the code that ran is the test: a compiler that folded a control
//! dependency (herd7's LB+ctrls), dropped an access or moved one before an
//! earlier one ran another test. So the failure story says whether the SASS
//! of the very build that ran (the device's driver or the chosen ptxas,
//! rebuilt with line information) keeps every access, fence and dependency
//! of every role in program order (`litmus_toolchain::check`).

use litmus_hw::{Knobs, Modules};
use litmus_toolchain::Nvdisasm;

/// One line for the failure story: `compiler: BUILD: ...`, or why the
/// check could not be made. Needs the GPU the run used and an nvdisasm
/// (`LITMUS_NVDISASM`, else `PATH`). The module is the run's, from its
/// `modules`: the one it loaded, not generated again.
pub fn story(modules: &Modules, knobs: &Knobs) -> String {
    let nvdisasm = match Nvdisasm::find(None) {
        Ok(n) => n,
        Err(e) => return format!("compiler: the SASS was not checked: {e}"),
    };
    match litmus_hw::device_listing(modules, knobs, &nvdisasm) {
        Ok((listing, build)) => verdict(&build.to_string(), &litmus_toolchain::check(&listing)),
        Err(e) => format!("compiler: the SASS was not checked: {e}"),
    }
}

/// The story of a build and the check's findings.
fn verdict(build: &str, findings: &[litmus_toolchain::Finding]) -> String {
    if findings.is_empty() {
        return format!(
            "compiler: {build}: the SASS keeps every access, fence and dependency of every role, in program order (check passed)"
        );
    }
    let said: Vec<String> = findings.iter().map(|f| f.to_string()).collect();
    format!(
        "compiler: {build}: the SASS check FAILED, the hardware ran another test than the one written: {}",
        said.join("; ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_story_says_whether_the_check_passed_and_what_it_found() {
        let build = "sm_90 PTX 7.8 via driver JIT 580.159.04";
        let clean = verdict(build, &[]);
        assert!(clean.starts_with("compiler: sm_90 PTX 7.8 via driver JIT 580.159.04: "));
        assert!(clean.ends_with("(check passed)"), "{clean}");
        let folded = litmus_toolchain::Finding {
            role: 0,
            thread: "P0".into(),
            line: 340,
            ptx: "@%p1 bra $L_fallthrough_2;".into(),
            instr: "t0.1: beq r0, 1, L0".into(),
            what: litmus_toolchain::What::Folded { load: 336 },
        };
        let story = verdict(build, &[folded.clone(), folded]);
        assert!(
            story.starts_with(
                "compiler: sm_90 PTX 7.8 via driver JIT 580.159.04: the SASS check FAILED"
            ),
            "{story}"
        );
        // Every finding, on the one line.
        assert_eq!(story.matches("folded: this branch").count(), 2, "{story}");
        assert_eq!(story.lines().count(), 1);
    }
}
