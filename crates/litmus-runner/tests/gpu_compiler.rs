//! What the compiler made of the code that ran, on real hardware: the
//! failure story of a forbidden outcome says whether the SASS of the build
//! that ran keeps the test (`compiler_check`). herd7's LB+ctrls branches to
//! the very next instruction, which every compiler folds, so its check
//! fails; MP's passes. Without a GPU each test says in one line that it
//! skipped (and fails when `LITMUS_REQUIRE_GPU=1`); the GPU machine needs
//! an nvdisasm (`LITMUS_NVDISASM`, else `PATH`).

#[path = "../../litmus-hw/tests/gpu_support/mod.rs"]
mod gpu_support;

use gpu_support::{hardware, parse};
use litmus_hw::{Knobs, Modules};
use litmus_model::{model_by_name, Options};
use litmus_runner::compiler_check;
use litmus_runner::report;
use litmus_runner::runner::{run_test, Failure, Source};
use litmus_runner::Config;

const LB_CTRLS: &str = "PTX LB+ctrls\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y ;\n beq r0, 1, L0 | beq r0, 1, L1 ;\n L0: | L1: ;\n st.relaxed.gpu y, 1 | st.relaxed.gpu x, 1 ;\nexists (P0:r0 == 1 /\\ P1:r0 == 1)\n";

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

#[test]
fn the_check_of_the_build_that_runs_flags_lb_ctrls_and_passes_mp() {
    if !hardware() {
        return;
    }
    let knobs = Knobs::default();
    let lb = parse(LB_CTRLS);
    let story = compiler_check::story(&Modules::of(&lb), &knobs);
    println!("LB+ctrls: {story}");
    assert!(
        story.contains("via driver JIT") && story.contains("the SASS check FAILED"),
        "{story}"
    );
    assert!(story.contains("folded"), "{story}");
    let mp = parse(MP);
    let story = compiler_check::story(&Modules::of(&mp), &knobs);
    println!("MP: {story}");
    assert!(story.ends_with("(check passed)"), "{story}");
}

#[test]
fn a_forbidden_outcome_tells_what_the_compiler_made_of_the_test() {
    if !hardware() {
        return;
    }
    let test = parse(LB_CTRLS);
    let config = Config {
        model: model_by_name("ptx").unwrap(),
        options: Options::default(),
        knobs: Knobs {
            budget_ms: 2000,
            seed: 3,
            ..Knobs::default()
        },
        portfolio: litmus_runner::portfolio::Portfolio::off(),
        ..Config::with_model(model_by_name("ptx").unwrap()).unwrap()
    };
    let r = run_test(&test, None, &config, Source::File("lb_ctrls.litmus".into()));
    let forbidden = r
        .failures
        .iter()
        .any(|f| matches!(f, Failure::ForbiddenObserved { .. }));
    println!("{}", report::text::hardware_line(&r));
    match (&r.compiler, forbidden) {
        (Some(story), true) => {
            assert!(story.contains("folded"), "{story}");
            let message = report::text::failure_message(&r);
            assert!(message.contains(story.as_str()), "{message}");
            println!("{story}");
        }
        (None, false) => println!("the forbidden outcome did not show: no story to tell"),
        (story, seen) => panic!("a story {story:?} with a forbidden outcome seen: {seen}"),
    }
}
