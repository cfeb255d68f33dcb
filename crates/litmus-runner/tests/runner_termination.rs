//! A declared termination (`=> terminates` / `=> may hang`) is checked
//! against the model when a test runs, without a GPU.

use litmus_hw::Knobs;
use litmus_model::{model_by_name, Options};
use litmus_runner::runner::{run_test, Failure, Source};
use litmus_runner::Config;
use litmus_text as text;

/// P1 waits for a flag nobody sets.
const SPINS: &str = "PTX spins\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu f, 0 | L: ;\n | ld.relaxed.gpu r0, f ;\n | beq r0, 0, L ;\nexists (P1:r0 == 1) => forbidden => may hang\n";

fn config() -> Config {
    Config {
        model: model_by_name("ptx").unwrap(),
        options: Options::default(),
        knobs: Knobs::default(),
        report_dir: None,
        evidence_dir: None,
        hardware: false,
        tuning: None,
        portfolio: litmus_runner::portfolio::Portfolio::off(),
    }
}

#[test]
fn a_declared_termination_the_model_agrees_with_passes() {
    let test = text::parse(SPINS).unwrap();
    let report = run_test(&test, None, &config(), Source::File("spins.litmus".into()));
    assert!(report.passed(), "{:?}", report.failures);
}

#[test]
fn a_declared_termination_the_model_contradicts_fails_with_the_witness() {
    let test = text::parse(&SPINS.replace("may hang", "terminates")).unwrap();
    let report = run_test(&test, None, &config(), Source::File("spins.litmus".into()));
    let hang = "thread P1 spins at L on f=0".to_string();
    assert_eq!(
        report.failures,
        vec![Failure::TerminationMismatch {
            declared: true,
            hang: Some(hang),
        }]
    );
    assert_eq!(
        report.failures[0].to_string(),
        "declared terminates, but the model says it may hang: thread P1 spins at L on f=0"
    );
}
