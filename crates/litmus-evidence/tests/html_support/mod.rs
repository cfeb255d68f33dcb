//! A synthetic evidence set the size of a real campaign, for the HTML
//! page's tests and the `html_page` example: 1,314 tests of twelve
//! `gpu-litmus gen` families (every placement, three scopes, with and
//! without `fence.sc`, relaxed and release/acquire accesses), each
//! recorded as an H100 shows such tests or, for the worst case, as a GPU
//! that showed every outcome the model allows; some on two devices; a few
//! also showed the outcome their condition names where the model forbids
//! it, so that the page has a forbidden section.

#![allow(dead_code)] // each user takes its own part

use std::collections::HashSet;

use litmus_core::ir::Test;
use litmus_core::outcome::{eval, observables};
use litmus_evidence::{Evidence, Record, Run};
use litmus_model::{check, model_by_name, Options};

/// The families, as `gpu-litmus gen` names their shapes.
pub const SHAPES: [&str; 12] = [
    "MP", "SB", "LB", "S", "R", "2+2W", "WRC", "RWC", "ISA2", "IRIW", "WWC", "Z6.3",
];

/// The devices the records name.
pub const DEVICES: [&str; 2] = ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB"];

/// Every test of the families, each once.
pub fn tests() -> Vec<Test> {
    let mut spec = litmus_gen::FamilySpec::default();
    for (option, value) in [
        ("placements", "all"),
        ("scopes", "cta,gpu,sys"),
        ("fences", "none,sc"),
        ("fence-threads", "each"),
        ("sem", "relaxed,acq_rel"),
    ] {
        spec.set(option, value).expect("a valid family option");
    }
    let mut seen = HashSet::new();
    SHAPES
        .iter()
        .flat_map(|s| {
            let shape = litmus_gen::shape(s).expect("a built-in shape");
            litmus_gen::family(&shape, &spec, &mut seen)
                .expect("the family generates")
                .tests
        })
        .collect()
}

/// Which outcomes a synthetic record shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shows {
    /// Every outcome the model allows: the most a page can have to hold.
    EveryAllowed,
    /// As the shipped H100 evidence does (3.6 outcomes a test): the
    /// outcomes of interleavings (what SC allows), and the condition's
    /// outcome where the model allows it.
    LikeHardware,
}

/// The evidence for `tests`: one record each (every tenth test also on
/// the second device), `shows` deciding the outcomes, counts of the
/// magnitude a second of H100 time gives; with `forbidden`, one in forty
/// of the tests whose condition's outcome the model forbids showed it all
/// the same.
pub fn evidence(tests: &[Test], shows: Shows, forbidden: bool) -> Evidence {
    let ptx = model_by_name("ptx").expect("ptx is built in");
    let sc = model_by_name("sc").expect("sc is built in");
    let mut records = Vec::new();
    let mut planted = 0;
    for (i, test) in tests.iter().enumerate() {
        let allowed = check(test, ptx, &Options::default())
            .expect("generated tests check")
            .allowed;
        let condition = condition_outcome(test);
        let outcomes: Vec<Vec<u32>> = match shows {
            Shows::EveryAllowed => allowed.iter().cloned().collect(),
            Shows::LikeHardware => {
                let mut o: Vec<Vec<u32>> = check(test, sc, &Options::default())
                    .expect("generated tests check under sc")
                    .allowed
                    .into_iter()
                    .collect();
                if let Some(v) = condition.clone().filter(|v| allowed.contains(v)) {
                    if !o.contains(&v) {
                        o.push(v);
                    }
                }
                o
            }
        };
        // Counts spread over orders of magnitude, as hardware shows them.
        let mut histogram: Vec<(Vec<u32>, u64)> = outcomes
            .into_iter()
            .enumerate()
            .map(|(k, v)| (v, 3_005_841_176 >> (3 * k % 30)))
            .collect();
        if let Some(v) = condition.filter(|v| forbidden && !allowed.contains(v)) {
            planted += 1;
            if planted % 40 == 1 {
                histogram.push((v, 3));
            }
        }
        let devices = if i % 10 == 0 {
            &DEVICES[..]
        } else {
            &DEVICES[..1]
        };
        for (d, device) in devices.iter().enumerate() {
            let run = Run {
                histogram: &histogram,
                instances: histogram.iter().map(|(_, c)| c).sum::<u64>() + 1_000_000_000,
                unfinished: 0,
                device,
                knobs: "ctas=2048 threads=64",
                seed: i as u64,
            };
            let mut r = Record::of_run(test, &run, &format!("gen/{}.litmus", test.name.text));
            r.run = format!("synthetic-{d}");
            r.seq = i as u64;
            records.push(r);
        }
    }
    Evidence {
        records,
        files: 1,
        ..Evidence::default()
    }
}

/// An outcome satisfying `test`'s condition: generated tests store 1 and
/// 2, so every observable is tried with 0, 1 and 2.
pub fn condition_outcome(test: &Test) -> Option<Vec<u32>> {
    let obs = observables(test);
    let mut values = vec![0u32; obs.len()];
    loop {
        if eval(test, &obs, &values) {
            return Some(values);
        }
        // The next combination, as a base-3 counter.
        let mut i = 0;
        while i < values.len() && values[i] == 2 {
            values[i] = 0;
            i += 1;
        }
        if i == values.len() {
            return None;
        }
        values[i] += 1;
    }
}
