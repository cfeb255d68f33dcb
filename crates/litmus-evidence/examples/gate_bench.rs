//! The gate's speed: 10,000 recorded tests (MP, SB, LB and 2+2W shapes with
//! varied scopes, fences and placements, each with a histogram of its
//! allowed outcomes) written as evidence, read back, and judged by the
//! built-in `ptx` model. Target: under 10 s on 2 cores.
//!
//! `cargo run --release -p litmus-evidence --example gate_bench [TESTS]`

use std::time::Instant;

use litmus_core::outcome::observables;
use litmus_evidence::gate::{gate, Question, Subject};
use litmus_evidence::store::Writer;
use litmus_evidence::{ir_hash, Evidence, Observation, Record};
use litmus_model::outcome::format_outcome;
use litmus_model::{check, model_by_name, Options};

/// Shapes: `{N}` is the test's number, `{S}` a scope, `{F}` a fence line,
/// `{C}` the second thread's CTA.
const SHAPES: [&str; 4] = [
    "PTX MP_{N}\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta {C},gpu 0 ;\n st.relaxed.{S} x, 1 | ld.relaxed.{S} r0, y ;\n {F} | {F} ;\n st.relaxed.{S} y, 1 | ld.relaxed.{S} r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
    "PTX SB_{N}\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta {C},gpu 0 ;\n st.relaxed.{S} x, 1 | st.relaxed.{S} y, 1 ;\n {F} | {F} ;\n ld.relaxed.{S} r0, y | ld.relaxed.{S} r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
    "PTX LB_{N}\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta {C},gpu 0 ;\n ld.relaxed.{S} r0, x | ld.relaxed.{S} r1, y ;\n {F} | {F} ;\n st.relaxed.{S} y, 1 | st.relaxed.{S} x, 1 ;\nexists (P0:r0 == 1 /\\ P1:r1 == 1)\n",
    "PTX 2+2W_{N}\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta {C},gpu 0 ;\n st.relaxed.{S} x, 1 | st.relaxed.{S} y, 1 ;\n {F} | {F} ;\n st.relaxed.{S} y, 2 | st.relaxed.{S} x, 2 ;\nexists (x == 1 /\\ y == 1)\n",
];
const SCOPES: [&str; 3] = ["cta", "gpu", "sys"];
const FENCES: [&str; 4] = [
    "fence.acq_rel.cta",
    "fence.sc.gpu",
    "fence.acq_rel.gpu",
    "fence.sc.sys",
];

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map_or(10_000, |a| a.parse().expect("TESTS: a whole number"));
    let model = model_by_name("ptx").expect("ptx is built in");
    let options = Options::default();
    let start = Instant::now();
    let mut subjects = Vec::with_capacity(n);
    let dir = std::env::temp_dir().join(format!("gate-bench-{}", std::process::id()));
    let mut writer = Writer::create(&dir).expect("a scratch folder");
    for i in 0..n {
        let text = SHAPES[i % 4]
            .replace("{N}", &i.to_string())
            .replace("{S}", SCOPES[i / 4 % 3])
            .replace("{F}", FENCES[i / 12 % 4])
            .replace("{C}", &(i / 48 % 2).to_string());
        let test = litmus_text::parse(&text).expect("the shapes parse");
        // The histogram: every outcome the model allows, as a GPU that
        // shows them all would record it.
        let allowed = check(&test, model, &options)
            .expect("the shapes check")
            .allowed;
        let obs = observables(&test);
        let histogram = allowed
            .iter()
            .enumerate()
            .map(|(k, values)| Observation {
                text: format_outcome(&test, &obs, values),
                values: values.clone(),
                count: 1 + k as u64 * 1000,
            })
            .collect();
        writer
            .append(Record {
                run: String::new(),
                seq: 0,
                test: test.name.text.clone(),
                ir_hash: ir_hash(&test),
                source: format!("bench/{i}.litmus"),
                text: Some(litmus_text::print(&test)),
                observables: obs.iter().map(|o| o.display(&test)).collect(),
                histogram,
                instances: 1 << 30,
                unfinished: 0,
                device: ["NVIDIA H100", "NVIDIA A100"][i % 2].into(),
                driver: None,
                build: None,
                knobs: None,
                seed: Some(i as u64),
                date: "2026-11-23T12:00:00Z".into(),
                version: "bench".into(),
                harness: "gate_bench".into(),
                kind: Default::default(),
            })
            .expect("the scratch file takes the record");
        subjects.push(Subject::new(format!("bench/{i}.litmus"), test));
    }
    println!(
        "set-up: {n} tests and their evidence in {:.2} s",
        start.elapsed().as_secs_f64()
    );
    let start = Instant::now();
    let evidence = Evidence::read(std::slice::from_ref(&dir)).expect("the evidence reads");
    let read = start.elapsed();
    let question = Question {
        model,
        baseline: None,
        options: &options,
    };
    let report = gate(&subjects, &evidence, &question);
    let total = start.elapsed();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        report.passed(),
        "every recorded outcome is allowed by construction"
    );
    assert_eq!(report.with_evidence, n);
    println!("{}", report.summary());
    println!(
        "gate over {n} recorded tests with ptx on {} threads: {:.2} s (reading the evidence {:.2} s); target under 10 s",
        std::thread::available_parallelism().map_or(1, |p| p.get()),
        total.as_secs_f64(),
        read.as_secs_f64()
    );
}
