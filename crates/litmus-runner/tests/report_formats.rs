//! herd7's and litmus7's result blocks, pinned line by line: the shapes
//! that herd7 and litmus7 print (see `report::herd`, `report::litmus7`),
//! for each quantifier, locations, negation and grouping, the loop bound,
//! and a hardware histogram given by hand (no GPU needed).

use std::time::Duration;

use litmus_hw::{HwResult, Knobs};
use litmus_model::{check, model_by_name, Options};
use litmus_runner::report::{herd, litmus7};
use litmus_runner::runner::{judge, Hardware, Source};
use litmus_runner::Config;
use litmus_text as text;

/// herd7's block for `src` under the ptx model, its `Time` figure (which
/// varies from run to run) replaced by `T`.
fn herd_block(src: &str, loop_bound: u32) -> String {
    let test = text::parse(src).unwrap();
    // As `check --format herd` does: every execution, so that Positive
    // and Negative count them all.
    let options = Options {
        loop_bound,
        all_executions: true,
        ..Options::default()
    };
    let result = check(&test, model_by_name("ptx").unwrap(), &options).unwrap();
    let block = herd::block(&test, &result);
    block
        .lines()
        .map(|l| match l.rsplit_once(' ') {
            Some((head, _)) if l.starts_with("Time ") => format!("{head} T\n"),
            _ => format!("{l}\n"),
        })
        .collect()
}

const MP: &str = "PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)
";

#[test]
fn herd_exists_sometimes() {
    assert_eq!(
        herd_block(MP, 1),
        "Test MP Allowed
States 4
1:r0=0; 1:r1=0;
1:r0=0; 1:r1=1;
1:r0=1; 1:r1=0;
1:r0=1; 1:r1=1;
Ok
Witnesses
Positive: 1 Negative: 3
Condition exists (1:r0=1 /\\ 1:r1=0)
Observation MP Sometimes 1 3
Time MP T

"
    );
}

#[test]
fn herd_not_exists_swaps_the_witnesses() {
    let src = "PTX SB-sc
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 fence.sc.gpu   | fence.sc.gpu   ;
 ld.weak r0, y  | ld.weak r1, x  ;
~exists (P0:r0 == 0 /\\ P1:r1 == 0)
";
    let block = herd_block(src, 1);
    assert!(
        block.starts_with("Test SB-sc Forbidden\nStates 3\n"),
        "{block}"
    );
    assert!(
        block.contains(
            "\nOk\nWitnesses\nPositive: 4 Negative: 0\nCondition ~exists (0:r0=0 /\\ 1:r1=0)\nObservation SB-sc Never 0 4\n"
        ),
        "{block}"
    );
}

#[test]
fn herd_forall_with_locations_negation_and_grouping() {
    // One thread stores 1 then 2 to x: every execution ends with x=2.
    let src = "PTX CoWW
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
 st.weak x, 2   ;
forall (x == 2 /\\ (x == 2 \\/ x != 1) \\/ ~(x == 0))
";
    assert_eq!(
        herd_block(src, 1),
        "Test CoWW Required
States 1
[x]=2;
Ok
Witnesses
Positive: 1 Negative: 0
Condition forall ([x]=2 /\\ ([x]=2 \\/ not ([x]=1)) \\/ not ([x]=0))
Observation CoWW Always 1 0
Time CoWW T

"
    );
}

#[test]
fn herd_says_loop_when_the_bound_cut_executions() {
    let src = "PTX count
{ x=0; P0:r0=0; }
 P0@cta 0,gpu 0   ;
 LC00:            ;
 add r0, r0, 1    ;
 bne r0, 3, LC00  ;
exists (P0:r0 == 3)
";
    let cut = herd_block(src, 1);
    assert!(cut.contains("\nStates 0\nLoop No\n"), "{cut}");
    let whole = herd_block(src, 3);
    assert!(whole.contains("\nStates 1\n0:r0=3;\nOk\n"), "{whole}");
}

/// The ptx model's configuration, the hardware half off (the tests give
/// the hardware's result by hand).
fn config() -> Config {
    Config {
        model: model_by_name("ptx").unwrap(),
        options: Options::default(),
        knobs: Knobs::default(),
        report_dir: None,
        hardware: false,
        tuning: None,
        portfolio: litmus_runner::portfolio::Portfolio::off(),
        evidence_dir: None,
    }
}

/// A run of `src` whose hardware showed `histogram`, in 1.5 s.
fn litmus7_block(src: &str, histogram: Vec<(Vec<u32>, u64)>) -> Option<String> {
    let test = text::parse(src).unwrap();
    let instances = histogram.iter().map(|(_, c)| c).sum();
    let hardware = Hardware::Ran(Box::new(HwResult {
        histogram,
        unfinished: 0,
        launches: 10,
        instances,
        wall: Duration::from_millis(1500),
        device: "NVIDIA H100 80GB HBM3".into(),
        knobs: Knobs::default(),
        host_threads: 0,
        build: Default::default(),
    }));
    let report = judge(
        &test,
        &config(),
        hardware,
        Vec::new(),
        Source::File("t".into()),
    );
    litmus7::block(&test, &report)
}

#[test]
fn litmus7_histogram_with_counts() {
    let block = litmus7_block(
        MP,
        vec![
            (vec![1, 1], 4956),
            (vec![0, 0], 5021),
            (vec![1, 0], 17),
            (vec![0, 1], 0),
        ],
    );
    assert_eq!(
        block.unwrap(),
        "Test MP Allowed
Histogram (3 states)
5021  :>1:r0=0; 1:r1=0;
17    *>1:r0=1; 1:r1=0;
4956  :>1:r0=1; 1:r1=1;
Ok

Witnesses
Positive: 17, Negative: 9977
Condition exists (1:r0=1 /\\ 1:r1=0) is validated
Observation MP Sometimes 17 9977
Time MP 1.50

"
    );
}

#[test]
fn litmus7_not_validated_and_never() {
    let block = litmus7_block(MP, vec![(vec![0, 0], 10), (vec![1, 1], 1234567)]).unwrap();
    assert!(
        block.contains(
            "Histogram (2 states)\n10    :>1:r0=0; 1:r1=0;\n1234567:>1:r0=1; 1:r1=1;\nNo\n\nWitnesses\nPositive: 0, Negative: 1234577\nCondition exists (1:r0=1 /\\ 1:r1=0) is NOT validated\nObservation MP Never 0 1234577\n"
        ),
        "{block}"
    );
    // `~exists`: its witnesses are the instances that miss the expression.
    let forbid = MP.replace("exists (", "~exists (");
    let block = litmus7_block(&forbid, vec![(vec![0, 0], 10), (vec![1, 0], 2)]).unwrap();
    assert!(
        block.starts_with("Test MP Forbidden\n")
            && block.contains("\nNo\n\nWitnesses\nPositive: 10, Negative: 2\nCondition ~exists (1:r0=1 /\\ 1:r1=0) is NOT validated\nObservation MP Sometimes 2 10\n"),
        "{block}"
    );
}

#[test]
fn litmus7_has_no_block_without_a_hardware_run() {
    let test = text::parse(MP).unwrap();
    let skipped = Hardware::Skipped("no CUDA driver".into());
    let report = judge(
        &test,
        &config(),
        skipped,
        Vec::new(),
        Source::File("t".into()),
    );
    assert_eq!(litmus7::block(&test, &report), None);
}

/// The build of an H100 run under the driver's JIT.
fn gpu_litmus_build() -> litmus_hw::Build {
    litmus_hw::Build {
        target: "sm_90".into(),
        version: "7.8".into(),
        toolchain: "driver JIT 580.159.04".into(),
    }
}

#[test]
fn the_hardware_line_says_the_build_and_where_host_roles_ran() {
    let test = text::parse(MP).unwrap();
    let line = |host_threads: u32| {
        let hardware = Hardware::Ran(Box::new(HwResult {
            histogram: vec![(vec![1, 1], 65536 * 10)],
            unfinished: 0,
            launches: 10,
            instances: 65536 * 10,
            wall: Duration::from_millis(100),
            device: "NVIDIA H100 80GB HBM3".into(),
            build: gpu_litmus_build(),
            knobs: Knobs::default(),
            host_threads,
        }));
        let report = judge(
            &test,
            &config(),
            hardware,
            Vec::new(),
            Source::File("t".into()),
        );
        litmus_runner::report::text::hardware_line(&report)
    };
    assert!(
        line(4).contains(", host roles on 4 CPU threads, 65536 instances per launch, seed="),
        "{}",
        line(4)
    );
    assert!(!line(0).contains("host"), "{}", line(0));
    // The build is named beside the device it ran on.
    assert!(
        line(0).contains(" on NVIDIA H100 80GB HBM3 (sm_90 PTX 7.8 via driver JIT 580.159.04) ("),
        "{}",
        line(0)
    );
}
