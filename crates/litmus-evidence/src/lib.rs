//! Hardware evidence as data: what every GPU run showed, recorded once
//! ([`store`]), read back from any number of folders ([`read`]), imported
//! from litmus7's logs and `run --format json` lines ([`import`], over
//! [`litmus7`]'s reader), joined from several machines' folders
//! ([`merge`]), kept gzipped when finished ([`compressed`]), and judged against a model without a
//! GPU ([`gate`], by [`judge`]'s rule); [`mutation`] scores a cat model's
//! mutants against it (how much of the model the evidence pins down);
//! [`html`] turns it into a page for people, and [`stats`] holds the
//! bounds on rates that it and the tuner rank by.
//!
//! No GPU code is compiled in: the crate builds, tests and gates on a
//! machine without CUDA. A hardware run becomes a record through
//! [`Record::of_run`], which takes the run's figures as plain values.
//!
//! ```
//! use litmus_evidence::{Record, Run};
//! let test = litmus_text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
//! let run = Run { histogram: &[(vec![1, 0], 3), (vec![0, 0], 97)], instances: 100, unfinished: 0, device: "NVIDIA H100", knobs: "ctas=4", seed: 7 };
//! let record = Record::of_run(&test, &run, "mp.litmus");
//! assert_eq!(record.histogram[0].text, "P1:r0=1; P1:r1=0");
//! ```

pub mod compressed;
pub mod file_names;
pub mod gate;
pub mod html;
pub mod import;
pub mod judge;
pub mod litmus7;
pub mod merge;
pub mod mutation;
pub mod read;
pub mod record;
pub mod resume;
pub mod stamp;
pub mod stats;
pub mod store;

pub use read::{Evidence, Problem, ProblemKind, ReadError};
pub use record::{ir_hash, Kind, Observation, Record, RecordError, Run};
