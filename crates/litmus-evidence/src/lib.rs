//! Hardware evidence as data: what every GPU run showed, recorded once
//! ([`store`]), read back from any number of folders ([`read`]), imported
//! from litmus7's logs ([`litmus7`]), and judged against a model without a
//! GPU ([`gate`], by [`judge`]'s rule); [`html`] turns it into a page for
//! people, and [`stats`] holds the bounds on rates that it and the tuner
//! rank by.
//!
//! No GPU code is compiled in: the crate builds, tests and gates on a
//! machine without CUDA. A hardware run becomes a record through
//! [`Record::of_run`], which takes the run's figures as plain values.
//!
//! ```
//! use litmus_evidence::{Record, Run};
//! let test = litmus_core::text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
//! let run = Run { histogram: &[(vec![1, 0], 3), (vec![0, 0], 97)], instances: 100, unfinished: 0, device: "NVIDIA H100", knobs: "ctas=4", seed: 7 };
//! let record = Record::of_run(&test, &run, "mp.litmus");
//! assert_eq!(record.histogram[0].text, "P1:r0=1; P1:r1=0;");
//! ```

pub mod file_names;
pub mod gate;
pub mod html;
pub mod judge;
pub mod litmus7;
pub mod read;
pub mod record;
pub mod stats;
pub mod store;

use std::time::SystemTime;

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_model::outcome::format_outcome;

pub use read::{Evidence, Problem, ProblemKind, ReadError};
pub use record::{ir_hash, Observation, Record, RecordError};

/// What one hardware run showed, as the harness that made it reports it.
#[derive(Clone, Copy, Debug)]
pub struct Run<'a> {
    /// Outcome (values of the test's observables, in order) and its count.
    pub histogram: &'a [(Vec<u32>, u64)],
    /// Instances run.
    pub instances: u64,
    /// Instances in which some role gave up on a loop.
    pub unfinished: u64,
    /// The GPU's name.
    pub device: &'a str,
    /// The knobs, as `gpu-litmus run` prints them.
    pub knobs: &'a str,
    /// The seed that reproduces the run.
    pub seed: u64,
}

impl Record {
    /// The record of one hardware run of `test` from `source` (its `run`
    /// and `seq` are set when a [`store::Writer`] appends it).
    pub fn of_run(test: &Test, hw: &Run, source: &str) -> Record {
        let obs = observables(test);
        Record {
            run: String::new(),
            seq: 0,
            test: test.name.text.clone(),
            ir_hash: ir_hash(test),
            source: source.to_string(),
            text: Some(litmus_core::text::print(test)),
            observables: obs.iter().map(|o| o.display(test)).collect(),
            histogram: hw
                .histogram
                .iter()
                .map(|(values, count)| Observation {
                    text: format_outcome(test, &obs, values),
                    values: values.clone(),
                    count: *count,
                })
                .collect(),
            instances: hw.instances,
            unfinished: hw.unfinished,
            device: hw.device.to_string(),
            driver: store::driver_version(),
            knobs: Some(hw.knobs.to_string()),
            seed: Some(hw.seed),
            date: store::rfc3339(SystemTime::now()),
            version: env!("CARGO_PKG_VERSION").to_string(),
            harness: "gpu-litmus".to_string(),
        }
    }
}
