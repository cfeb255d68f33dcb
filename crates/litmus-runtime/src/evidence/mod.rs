//! Hardware evidence as data: what every GPU run showed, recorded once
//! ([`store`]), read back from any number of folders ([`read`]), and
//! judged against a model without a GPU ([`gate`]); [`html`] turns it into
//! a page for people.

pub mod gate;
pub mod html;
pub mod litmus7;
pub mod read;
pub mod record;
pub mod store;

use std::time::SystemTime;

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_model::outcome::format_outcome;

use crate::gpu::HwResult;

pub use read::{Evidence, Problem, ProblemKind, ReadError};
pub use record::{ir_hash, Observation, Record, RecordError};

/// The record of one hardware run of `test` (its `run` and `seq` are set
/// when a [`store::Writer`] appends it).
pub fn record_of(test: &Test, hw: &HwResult, source: &str) -> Record {
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
        device: hw.device.clone(),
        driver: store::driver_version(),
        knobs: Some(hw.knobs.to_string()),
        seed: Some(hw.knobs.seed),
        date: store::rfc3339(SystemTime::now()),
        version: env!("CARGO_PKG_VERSION").to_string(),
        harness: "gpu-litmus".to_string(),
    }
}
