//! One piece of hardware evidence: what one run of one test showed, as one
//! line of JSON.

use serde_json::{json, Map, Value};

use std::time::SystemTime;

use litmus_core::ir::Test;
use litmus_core::outcome::observables;
use litmus_model::outcome::format_outcome;

use crate::stamp;

/// The format tag every record carries, so that a later change of layout
/// is recognised instead of misread.
pub const FORMAT: &str = "gpu-litmus-evidence/1";

/// One outcome the hardware showed, with how often.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Observation {
    /// Values of the test's observables, in the order
    /// [`litmus_core::outcome::observables`] gives.
    pub values: Vec<u32>,
    /// The outcome as people read it: `P1:r0=1; P1:r1=0`.
    pub text: String,
    /// Instances that showed it.
    pub count: u64,
}

/// What one run of one test on one device showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The run (one process, one file) that wrote it: `host-pid-millis`.
    pub run: String,
    /// Its place in that run: `(run, seq)` names a record, so one copied
    /// into two folders counts once.
    pub seq: u64,
    /// The test's name.
    pub test: String,
    /// [`ir_hash`] of the test that ran: an edited test does not inherit
    /// the old one's evidence.
    pub ir_hash: String,
    /// Where the test came from (cargo test path, file, imported log).
    pub source: String,
    /// The test as `.litmus` text ([`litmus_text::print`]), so that
    /// the evidence can be read without the test files.
    pub text: Option<String>,
    /// Observables, in order (`P1:r0`, `x`).
    pub observables: Vec<String>,
    /// Every outcome seen, with its count.
    pub histogram: Vec<Observation>,
    /// Instances run.
    pub instances: u64,
    /// Instances in which a role gave up on a loop.
    pub unfinished: u64,
    /// The GPU's name, as the driver reports it.
    pub device: String,
    /// The driver's version, when known.
    pub driver: Option<String>,
    /// How the module was built for the device, when known: target, PTX
    /// version and toolchain (`sm_90 PTX 7.8 via ptxas 12.4.131`), since
    /// the same PTX is other code under another compiler.
    pub build: Option<String>,
    /// The knobs, as `gpu-litmus run` prints them.
    pub knobs: Option<String>,
    /// The permutations' seed.
    pub seed: Option<u64>,
    /// When it was recorded (RFC 3339, UTC).
    pub date: String,
    /// The version of the tool that recorded or imported it.
    pub version: String,
    /// Which harness produced it (`gpu-litmus`, `litmus7`, ...).
    pub harness: String,
    /// What the run was for: a test's own run, one test of a campaign, or
    /// one trial of the environment search (`"kind"` in the JSON, absent
    /// for [`Kind::Run`], so records from before the field read as runs).
    pub kind: Kind,
}

/// What a hardware run was for. Every kind is evidence (the gate counts
/// its instances); the kind lets `campaign --resume` know which tests a
/// campaign already ran (a search trial ran a test under a candidate's
/// knobs, not the campaign's), and the report tell trials from runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `gpu-litmus run`, a cargo test, an imported log.
    #[default]
    Run,
    /// One test of `gpu-litmus campaign`.
    Campaign,
    /// One trial of the environment search (`tune`, `campaign --tune`).
    Trial,
}

impl Kind {
    /// The name in the JSON (`None` for [`Kind::Run`]: the field is left
    /// out) and in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Campaign => "campaign",
            Kind::Trial => "trial",
        }
    }
}

/// Why a line is not a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Not JSON at all.
    #[error("not JSON: {0}")]
    Json(String),
    /// JSON, but another format (or none).
    #[error("not a gpu-litmus evidence record (`format` is {0}, expected \"{FORMAT}\")")]
    Format(String),
    /// A field is missing or has the wrong type.
    #[error("field `{field}`: expected {expected}")]
    Field {
        /// The field's name.
        field: &'static str,
        /// What it must hold.
        expected: &'static str,
    },
    /// A list longer than any run writes: refused before it costs the
    /// reader memory or the gate time.
    #[error("{what}: {count}, more than the {max} a record may hold")]
    TooLarge {
        /// What is counted (`observables`, `histogram outcomes`, `bytes`).
        what: &'static str,
        /// How many the record holds.
        count: usize,
        /// The bound.
        max: usize,
    },
    /// The record contradicts itself or its recorded test.
    #[error("{0}")]
    Inconsistent(String),
}

/// The most observables a record may name: far above what a test the
/// checker takes has (see `litmus_model::Options::max_events`).
pub const MAX_OBSERVABLES: usize = 4096;
/// The most outcomes a record's histogram may hold.
pub const MAX_OUTCOMES: usize = 1 << 20;
/// The longest line read as a record.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// What [`Record::check_text`] learnt of each recorded test, by IR hash
/// and text: its observables, or why it does not serve.
pub type KnownTexts =
    std::collections::BTreeMap<(String, String), Result<Vec<String>, RecordError>>;

/// Refuses `count` of `what` above `max`.
fn bounded(what: &'static str, count: usize, max: usize) -> Result<(), RecordError> {
    if count > max {
        Err(RecordError::TooLarge { what, count, max })
    } else {
        Ok(())
    }
}

/// A stable name for a test's meaning: FNV-1a (64 bits) of its `.litmus`
/// text without its documentation. The printed text is the canonical form
/// (the writer's output reads back to the same IR), and unlike Rust's
/// `Hash` it does not change between builds. FNV is written here rather
/// than taken from a crate: eight lines, no security claim needed, and a
/// collision among a few thousand tests is vanishingly unlikely.
pub fn ir_hash(test: &Test) -> String {
    let mut bare = test.clone();
    bare.doc.0.clear();
    format!("{:016x}", fnv1a(litmus_text::print(&bare).as_bytes()))
}

/// FNV-1a, 64 bits: the stable hash behind [`ir_hash`], and what other
/// crates use where a value must not change between builds or machines
/// (the runner's split of a set of tests into shards).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl Record {
    /// The record as one JSON object.
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "format": FORMAT,
            "run": self.run,
            "seq": self.seq,
            "test": self.test,
            "ir_hash": self.ir_hash,
            "source": self.source,
            "text": self.text,
            "observables": self.observables,
            "histogram": self.histogram.iter().map(|o| json!({
                "outcome": o.values,
                "text": o.text,
                "count": o.count,
            })).collect::<Vec<_>>(),
            "instances": self.instances,
            "unfinished": self.unfinished,
            "device": self.device,
            "driver": self.driver,
            "build": self.build,
            "knobs": self.knobs,
            "seed": self.seed,
            "date": self.date,
            "version": self.version,
            "harness": self.harness,
        });
        if self.kind != Kind::Run {
            v["kind"] = json!(self.kind.name());
        }
        v
    }

    /// Reads one line written by [`Record::to_json`].
    /// Besides the layout, checks sizes ([`MAX_LINE_BYTES`],
    /// [`MAX_OBSERVABLES`], [`MAX_OUTCOMES`]) and that every outcome has
    /// one value per observable.
    pub fn parse(line: &str) -> Result<Record, RecordError> {
        bounded("bytes", line.len(), MAX_LINE_BYTES)?;
        let value: Value =
            serde_json::from_str(line).map_err(|e| RecordError::Json(e.to_string()))?;
        let Value::Object(o) = value else {
            return Err(RecordError::Format("missing".into()));
        };
        match o.get("format") {
            Some(Value::String(f)) if f == FORMAT => {}
            Some(other) => return Err(RecordError::Format(other.to_string())),
            None => return Err(RecordError::Format("missing".into())),
        }
        let histogram = array(&o, "histogram")?;
        bounded("histogram outcomes", histogram.len(), MAX_OUTCOMES)?;
        let histogram: Vec<Observation> = histogram
            .iter()
            .map(observation)
            .collect::<Result<_, _>>()?;
        let observables = array(&o, "observables")?;
        bounded("observables", observables.len(), MAX_OBSERVABLES)?;
        let observables: Vec<String> = observables
            .iter()
            .map(|v| {
                v.as_str().map(str::to_string).ok_or(RecordError::Field {
                    field: "observables",
                    expected: "an array of strings",
                })
            })
            .collect::<Result<_, _>>()?;
        if let Some(o) = histogram
            .iter()
            .find(|o| o.values.len() != observables.len())
        {
            return Err(RecordError::Inconsistent(format!(
                "outcome {:?} has {} values for {} observables",
                o.values,
                o.values.len(),
                observables.len()
            )));
        }
        Ok(Record {
            run: string(&o, "run")?,
            seq: number(&o, "seq")?,
            test: string(&o, "test")?,
            ir_hash: string(&o, "ir_hash")?,
            source: string(&o, "source")?,
            text: optional_string(&o, "text")?,
            observables,
            histogram,
            instances: number(&o, "instances")?,
            unfinished: number(&o, "unfinished")?,
            device: string(&o, "device")?,
            driver: optional_string(&o, "driver")?,
            build: optional_string(&o, "build")?,
            knobs: optional_string(&o, "knobs")?,
            seed: match o.get("seed") {
                None | Some(Value::Null) => None,
                Some(_) => Some(number(&o, "seed")?),
            },
            date: string(&o, "date")?,
            version: string(&o, "version")?,
            harness: string(&o, "harness")?,
            kind: match optional_string(&o, "kind")?.as_deref() {
                None | Some("run") => Kind::Run,
                Some("campaign") => Kind::Campaign,
                Some("trial") => Kind::Trial,
                Some(_) => {
                    return Err(RecordError::Field {
                        field: "kind",
                        expected: "\"run\", \"campaign\" or \"trial\"",
                    })
                }
            },
        })
    }

    /// Checks the record against the test its `text` holds (when it holds
    /// one): the text reads, is the test the name and IR hash say, and has
    /// the observables the record names, in order. `known` keeps the
    /// recorded test's observables per IR hash and text, since a campaign
    /// records one test many times.
    pub fn check_text(&self, known: &mut KnownTexts) -> Result<(), RecordError> {
        let Some(text) = &self.text else {
            return Ok(());
        };
        let key = (self.ir_hash.clone(), text.clone());
        let names = known
            .entry(key)
            .or_insert_with(|| match litmus_text::parse(text) {
                Err(e) => Err(RecordError::Inconsistent(format!(
                    "the recorded test does not read: {}",
                    e.render("text").lines().next().unwrap_or("").trim()
                ))),
                Ok(test) if ir_hash(&test) != self.ir_hash || test.name.text != self.test => {
                    Err(RecordError::Inconsistent(
                        "the recorded test is not the one its `test` and `ir_hash` name".into(),
                    ))
                }
                Ok(test) => Ok(observables(&test)
                    .iter()
                    .map(|o| o.display(&test))
                    .collect()),
            });
        match names {
            Err(e) => Err(e.clone()),
            Ok(names) if *names == self.observables => Ok(()),
            Ok(names) => Err(RecordError::Inconsistent(format!(
                "observables [{}] are not the recorded test's [{}]",
                self.observables.join(", "),
                names.join(", ")
            ))),
        }
    }

    /// Instances that showed some outcome (the histogram's total).
    pub fn observed(&self) -> u64 {
        self.histogram.iter().map(|o| o.count).sum()
    }
}

fn observation(v: &Value) -> Result<Observation, RecordError> {
    const EXPECTED: &str = "objects {\"outcome\": [numbers], \"text\", \"count\"}";
    let bad = || RecordError::Field {
        field: "histogram",
        expected: EXPECTED,
    };
    let o = v.as_object().ok_or_else(bad)?;
    let values = o
        .get("outcome")
        .and_then(Value::as_array)
        .ok_or_else(bad)?
        .iter()
        .map(|v| v.as_u64().and_then(|n| u32::try_from(n).ok()))
        .collect::<Option<Vec<u32>>>()
        .ok_or_else(bad)?;
    Ok(Observation {
        values,
        text: o
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(bad)?
            .to_string(),
        count: o.get("count").and_then(Value::as_u64).ok_or_else(bad)?,
    })
}

fn string(o: &Map<String, Value>, field: &'static str) -> Result<String, RecordError> {
    o.get(field)
        .and_then(Value::as_str)
        .map(str::to_string)
        .ok_or(RecordError::Field {
            field,
            expected: "a string",
        })
}

fn optional_string(
    o: &Map<String, Value>,
    field: &'static str,
) -> Result<Option<String>, RecordError> {
    match o.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(RecordError::Field {
            field,
            expected: "a string or null",
        }),
    }
}

fn number(o: &Map<String, Value>, field: &'static str) -> Result<u64, RecordError> {
    o.get(field)
        .and_then(Value::as_u64)
        .ok_or(RecordError::Field {
            field,
            expected: "a whole number",
        })
}

fn array<'a>(
    o: &'a Map<String, Value>,
    field: &'static str,
) -> Result<&'a Vec<Value>, RecordError> {
    o.get(field)
        .and_then(Value::as_array)
        .ok_or(RecordError::Field {
            field,
            expected: "an array",
        })
}

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
    /// and `seq` are set when a [`crate::store::Writer`] appends it).
    pub fn of_run(test: &Test, hw: &Run, source: &str) -> Record {
        let obs = observables(test);
        Record {
            run: String::new(),
            seq: 0,
            test: test.name.text.clone(),
            ir_hash: ir_hash(test),
            source: source.to_string(),
            text: Some(litmus_text::print(test)),
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
            driver: stamp::driver_version(),
            build: None,
            knobs: Some(hw.knobs.to_string()),
            seed: Some(hw.seed),
            date: stamp::rfc3339(SystemTime::now()),
            version: env!("CARGO_PKG_VERSION").to_string(),
            harness: "gpu-litmus".to_string(),
            kind: Kind::Run,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A record as a run writes it (other modules' tests use it).
    pub(crate) fn sample() -> Record {
        Record {
            run: "h-1-2".into(),
            seq: 3,
            test: "MP".into(),
            ir_hash: "00ff".into(),
            source: "mp.litmus".into(),
            text: None,
            observables: vec!["P1:r0".into(), "P1:r1".into()],
            histogram: vec![Observation {
                values: vec![1, 0],
                text: "P1:r0=1; P1:r1=0".into(),
                count: 7,
            }],
            instances: 100,
            unfinished: 0,
            device: "NVIDIA H100".into(),
            driver: Some("550.54".into()),
            build: Some("sm_90 PTX 7.8 via driver JIT 550.54".into()),
            knobs: None,
            seed: Some(9),
            date: "2026-11-23T12:00:00Z".into(),
            version: "0.1.0".into(),
            harness: "gpu-litmus".into(),
            kind: Kind::Run,
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let r = sample();
        assert_eq!(Record::parse(&r.to_json().to_string()), Ok(r.clone()));
        // Records from before builds were kept read as builds unknown.
        let mut old = r.to_json();
        old.as_object_mut().unwrap().remove("build");
        let back = Record::parse(&old.to_string()).unwrap();
        assert_eq!((back.build, back.device), (None, r.device));
    }

    #[test]
    fn the_kind_reads_back_and_old_records_read_as_runs() {
        let run = sample().to_json();
        // A run's line has no `kind`: it is the line written before kinds.
        assert!(run.get("kind").is_none());
        assert_eq!(Record::parse(&run.to_string()).unwrap().kind, Kind::Run);
        for kind in [Kind::Campaign, Kind::Trial] {
            let r = Record { kind, ..sample() };
            let line = r.to_json().to_string();
            assert!(line.contains(&format!("\"kind\":\"{}\"", kind.name())));
            assert_eq!(Record::parse(&line), Ok(r));
        }
        let mut bad = sample().to_json();
        bad["kind"] = json!("search");
        assert_eq!(
            Record::parse(&bad.to_string()).unwrap_err().to_string(),
            "field `kind`: expected \"run\", \"campaign\" or \"trial\""
        );
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        assert!(matches!(
            Record::parse("{\"a\":"),
            Err(RecordError::Json(_))
        ));
        assert_eq!(
            Record::parse("{\"format\":\"other\"}"),
            Err(RecordError::Format("\"other\"".into()))
        );
        let mut v = sample().to_json();
        v["histogram"][0]["count"] = json!(-1);
        assert_eq!(
            Record::parse(&v.to_string()).unwrap_err().to_string(),
            "field `histogram`: expected objects {\"outcome\": [numbers], \"text\", \"count\"}"
        );
        let mut v = sample().to_json();
        v.as_object_mut().unwrap().remove("device");
        assert_eq!(
            Record::parse(&v.to_string()).unwrap_err().to_string(),
            "field `device`: expected a string"
        );
    }

    #[test]
    fn the_hash_ignores_documentation_but_not_meaning() {
        let src = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";
        let a = litmus_text::parse(src).unwrap();
        let mut documented = a.clone();
        documented.doc.0.push("a note".into());
        assert_eq!(ir_hash(&a), ir_hash(&documented));
        let edited = litmus_text::parse(&src.replace("st.weak y, 1", "st.weak y, 2")).unwrap();
        assert_ne!(ir_hash(&a), ir_hash(&edited));
        assert_eq!(ir_hash(&a).len(), 16);
    }
}
