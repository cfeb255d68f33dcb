//! Tuning files: per test, the GPU knobs that exposed its weak outcome best
//! (written by `gpu-litmus tune`), picked up by every run of that test.
//!
//! The file is TOML, one table per test name:
//!
//! ```toml
//! [tests."MP+fence.sc.cta"]
//! device = "NVIDIA H100 80GB HBM3"
//! build = "sm_90 PTX 7.8 via driver JIT 580.159.04"
//! weak_per_s_low = 1.25e6   # lower Wilson bound of weak outcomes per second
//! weak = 31205
//! instances = 2147483648
//!
//! [tests."MP+fence.sc.cta".knobs]
//! LITMUS_CTAS = "1024"
//! LITMUS_STRESS = "256:64"
//! ```
//!
//! The knobs are the environment variables that set them, with the values
//! they would hold, so an entry reads exactly like the environment and is
//! checked by the same rules ([`Knobs::from_vars`]). Which file: the one
//! `LITMUS_TUNING` names, else `litmus-tuning.toml` in the current folder
//! (the crate's root under `cargo test`) if there is one. Variables set in
//! the environment win over an entry's, so a user can still try a knob by
//! hand; the run's seed, budget and launches are never tuned.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use litmus_hw::{GpuError, Knobs};

/// The variable naming the tuning file.
pub const TUNING_ENV: &str = "LITMUS_TUNING";
/// The file looked for in the current folder when `LITMUS_TUNING` is unset.
pub const CONVENTIONAL_FILE: &str = "litmus-tuning.toml";
/// Makes each `litmus!` and `litmus_files!` test tune itself first
/// (`LITMUS_TUNE=1`; see `tune::in_place`).
pub const TUNE_ENV: &str = "LITMUS_TUNE";

/// The tuning file a search writes when none is named: `$LITMUS_TUNING`,
/// else `litmus-tuning.toml` in the current folder (`tune` and `campaign
/// --tune` both write there).
pub fn default_path() -> PathBuf {
    std::env::var_os(TUNING_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(CONVENTIONAL_FILE), PathBuf::from)
}

/// One test's tuned knobs and what they achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `LITMUS_*` variable → value.
    pub knobs: BTreeMap<String, String>,
    /// The device the knobs were tuned on.
    pub device: String,
    /// How the test's module was built there (`sm_90 PTX 7.8 via driver
    /// JIT 580.159.04`; empty when unknown): the toolchain is a knob too.
    pub build: String,
    /// The lower 95% Wilson bound of the weak-outcome rate, per second of
    /// GPU time.
    pub weak_per_s_low: f64,
    /// Weak outcomes and instances in the winning configuration's runs.
    pub weak: u64,
    /// See `weak`.
    pub instances: u64,
}

/// A tuning file: its path and its entries by test name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuningFile {
    /// Where it was read from (or will be written to).
    pub path: PathBuf,
    /// Test name → entry.
    pub tests: BTreeMap<String, Entry>,
}

/// Why a tuning file cannot be used.
#[derive(Clone, Debug, thiserror::Error)]
pub enum TuningError {
    /// The file could not be read or written.
    #[error("tuning file {path}: {message}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        message: String,
    },
    /// The file is not valid TOML, or not shaped as a tuning file.
    #[error("tuning file {path}: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong and where (TOML's own line and column, or the
        /// test and key).
        message: String,
    },
}

/// The knobs a tuning entry may set: the environment knobs, not the run's
/// seed, budget or launches.
const TUNABLE: &[&str] = &[
    "LITMUS_CTAS",
    "LITMUS_THREADS",
    "LITMUS_STRIDE",
    "LITMUS_PERM",
    "LITMUS_SPIN",
    "LITMUS_STRESS",
    "LITMUS_STRESS_PATTERN",
    "LITMUS_STRESS_LINES",
    "LITMUS_STRESS_LINE_WORDS",
    "LITMUS_STRESS_ASSIGN",
    "LITMUS_STRESS_PCT",
    "LITMUS_PRE_STRESS",
    "LITMUS_PRE_STRESS_PCT",
    "LITMUS_SPIN_PCT",
    "LITMUS_SHUFFLE_PCT",
    "LITMUS_INTERLEAVE_PCT",
    "LITMUS_CTAS_PER_SM",
    "LITMUS_LANES",
    "LITMUS_CTA_SPREAD",
    "LITMUS_LOC_LAYOUT",
    "LITMUS_PTX_TARGET",
    "LITMUS_ADDRESSING",
    "LITMUS_SPIN_SCOPE",
    "LITMUS_HOST_INSTANCES",
    "LITMUS_HOST_THREADS",
];

impl TuningFile {
    /// The tuning file this process should use: `LITMUS_TUNING`'s (an
    /// error if it cannot be read), else the conventional file in the
    /// current folder if it exists, else none. Under `LITMUS_TUNE=1` the
    /// file is what the tests write, so a `LITMUS_TUNING` that does not
    /// exist yet is no error: the first tuned test creates it.
    pub fn from_env() -> Result<Option<TuningFile>, TuningError> {
        TuningFile::from_vars(|name| std::env::var(name).ok())
    }

    /// [`TuningFile::from_env`] over any source of variables.
    pub fn from_vars(
        var: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<TuningFile>, TuningError> {
        let tuning = var(TUNE_ENV).is_some_and(|v| v.trim() == "1");
        match var(TUNING_ENV).filter(|v| !v.is_empty()) {
            Some(path) if tuning && !Path::new(&path).exists() => Ok(None),
            Some(path) => TuningFile::load(Path::new(&path)).map(Some),
            None if Path::new(CONVENTIONAL_FILE).is_file() => {
                TuningFile::load(Path::new(CONVENTIONAL_FILE)).map(Some)
            }
            None => Ok(None),
        }
    }

    /// The file at `path` to merge a search's winners into: read when it
    /// exists (an error if it does not read), else empty, written there on
    /// the first write.
    pub fn load_or_new(path: &Path) -> Result<TuningFile, TuningError> {
        if path.exists() {
            return TuningFile::load(path);
        }
        Ok(TuningFile {
            path: path.to_path_buf(),
            ..TuningFile::default()
        })
    }

    /// Reads and checks a tuning file: every entry's knobs must be valid
    /// knob values.
    pub fn load(path: &Path) -> Result<TuningFile, TuningError> {
        let text = std::fs::read_to_string(path).map_err(|e| TuningError::Io {
            path: path.to_path_buf(),
            message: format!("cannot read: {e}"),
        })?;
        TuningFile::parse(path, &text)
    }

    /// Parses a tuning file's text; `path` names it in errors.
    pub fn parse(path: &Path, text: &str) -> Result<TuningFile, TuningError> {
        let bad = |message: String| TuningError::Format {
            path: path.to_path_buf(),
            message,
        };
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| bad(e.to_string().trim_end().replace('\n', "\n    ")))?;
        let mut file = TuningFile {
            path: path.to_path_buf(),
            tests: BTreeMap::new(),
        };
        for (key, value) in &table {
            if key != "tests" {
                return Err(bad(format!(
                    "unknown key `{key}` (a tuning file has `[tests.NAME]` tables)"
                )));
            }
            let tests = value
                .as_table()
                .ok_or_else(|| bad("`tests` must be a table of tests".into()))?;
            for (name, entry) in tests {
                let entry = entry
                    .as_table()
                    .ok_or_else(|| bad(format!("test `{name}`: must be a table")))?;
                file.tests.insert(
                    name.clone(),
                    parse_entry(entry).map_err(|m| bad(format!("test `{name}`: {m}")))?,
                );
            }
        }
        Ok(file)
    }

    /// The file's text, entries sorted by test name.
    pub fn to_toml(&self) -> String {
        let mut out = String::from(
            "# GPU knobs per test, written by `gpu-litmus tune`: runs of these tests\n# pick them up (LITMUS_TUNING, or litmus-tuning.toml in the crate's root).\n",
        );
        for (name, e) in &self.tests {
            let key = toml::Value::String(name.clone()).to_string();
            out.push_str(&format!("\n[tests.{key}]\n"));
            out.push_str(&format!(
                "device = {}\n",
                toml::Value::String(e.device.clone())
            ));
            if !e.build.is_empty() {
                out.push_str(&format!(
                    "build = {}\n",
                    toml::Value::String(e.build.clone())
                ));
            }
            out.push_str(&format!(
                "weak_per_s_low = {:e}\nweak = {}\ninstances = {}\n",
                e.weak_per_s_low, e.weak, e.instances
            ));
            out.push_str(&format!("\n[tests.{key}.knobs]\n"));
            for (var, value) in &e.knobs {
                out.push_str(&format!("{var} = {}\n", toml::Value::String(value.clone())));
            }
        }
        out
    }

    /// Writes the file to its path.
    pub fn write(&self) -> Result<(), TuningError> {
        std::fs::write(&self.path, self.to_toml()).map_err(|e| TuningError::Io {
            path: self.path.clone(),
            message: format!("cannot write: {e}"),
        })
    }

    /// The knobs of the `most` best entries that showed their weak outcome
    /// (by their rate's lower bound), under `base`'s seed and budget: where
    /// a search for a sibling test starts. The published GPU harnesses tune
    /// a family and reuse what they keep across its variants; a winner for
    /// one fenced variant is often a winner for the next.
    pub fn winners(&self, base: &Knobs, most: usize) -> Vec<Knobs> {
        let mut seen: Vec<(&String, &Entry)> = self
            .tests
            .iter()
            .filter(|(_, e)| e.weak > 0 && !e.knobs.is_empty())
            .collect();
        seen.sort_by(|a, b| b.1.weak_per_s_low.total_cmp(&a.1.weak_per_s_low));
        let mut out: Vec<Knobs> = Vec::new();
        for (name, _) in seen {
            if out.len() == most {
                break;
            }
            if let Ok(k) = self.knobs_for(name, base, |_| None) {
                let k = Knobs { tuning: None, ..k };
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }

    /// The knobs test `name` runs with: `base` (the environment's knobs,
    /// with the command line's seed, budget and launches) where the file
    /// has no entry; otherwise the entry's knobs under the environment's
    /// variables (`env`), with `base`'s seed, budget and launches.
    pub fn knobs_for(
        &self,
        name: &str,
        base: &Knobs,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Knobs, GpuError> {
        let Some(entry) = self.tests.get(name) else {
            return Ok(base.clone());
        };
        let tuned = Knobs::from_vars(|var| {
            env(var)
                .filter(|v| !v.trim().is_empty())
                .or_else(|| entry.knobs.get(var).cloned())
        })
        .map_err(|e| GpuError::Tuning(format!("{}, test `{name}`: {e}", self.path.display())))?;
        Ok(Knobs {
            seed: base.seed,
            budget_ms: base.budget_ms,
            launches: base.launches,
            // Where the logical GPUs run, and which compiler builds the
            // module, are the machine's, not the test's.
            gpu_map: base.gpu_map.clone(),
            ptxas: base.ptxas.clone(),
            tuning: Some(self.path.display().to_string()),
            ..tuned
        })
    }
}

impl Entry {
    /// The entry for knobs `k`, which showed `weak` weak outcomes in
    /// `instances` on `device` at a lower bound of `weak_per_s_low` per
    /// second: the tunable knobs that differ from their defaults.
    pub fn new(
        k: &Knobs,
        device: &str,
        build: &str,
        weak_per_s_low: f64,
        weak: u64,
        instances: u64,
    ) -> Entry {
        Entry {
            knobs: k
                .env_assignments()
                .into_iter()
                .filter(|(var, _)| TUNABLE.contains(var))
                .map(|(var, value)| (var.to_string(), value))
                .collect(),
            device: device.to_string(),
            build: build.to_string(),
            weak_per_s_low,
            weak,
            instances,
        }
    }
}

/// One `[tests.NAME]` table.
fn parse_entry(t: &toml::Table) -> Result<Entry, String> {
    let mut entry = Entry {
        knobs: BTreeMap::new(),
        device: String::new(),
        build: String::new(),
        weak_per_s_low: 0.0,
        weak: 0,
        instances: 0,
    };
    for (key, value) in t {
        match key.as_str() {
            "device" => {
                entry.device = value
                    .as_str()
                    .ok_or("`device` must be a string")?
                    .to_string()
            }
            "build" => {
                entry.build = value
                    .as_str()
                    .ok_or("`build` must be a string")?
                    .to_string()
            }
            "weak_per_s_low" => {
                entry.weak_per_s_low = value
                    .as_float()
                    .or_else(|| value.as_integer().map(|i| i as f64))
                    .filter(|f| *f >= 0.0)
                    .ok_or("`weak_per_s_low` must be a non-negative number")?
            }
            "weak" | "instances" => {
                let n = value
                    .as_integer()
                    .and_then(|i| u64::try_from(i).ok())
                    .ok_or_else(|| format!("`{key}` must be a non-negative integer"))?;
                if key == "weak" {
                    entry.weak = n;
                } else {
                    entry.instances = n;
                }
            }
            "knobs" => {
                let knobs = value.as_table().ok_or("`knobs` must be a table")?;
                for (var, v) in knobs {
                    if !TUNABLE.contains(&var.as_str()) {
                        return Err(format!(
                            "`{var}` is not a knob a tuning entry may set (one of {})",
                            TUNABLE.join(", ")
                        ));
                    }
                    let v = match v {
                        toml::Value::String(s) => s.clone(),
                        toml::Value::Integer(i) => i.to_string(),
                        _ => return Err(format!("knob `{var}` must be a string or an integer")),
                    };
                    entry.knobs.insert(var.clone(), v);
                }
            }
            other => return Err(format!("unknown key `{other}`")),
        }
    }
    // The knobs must hold valid values: checked now, with the same
    // messages the environment gets, rather than when a GPU runs the test.
    Knobs::from_vars(|var| entry.knobs.get(var).cloned()).map_err(|e| e.to_string())?;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = r#"
[tests."MP+fence.sc.cta"]
device = "NVIDIA H100 80GB HBM3"
weak_per_s_low = 1.5e6
weak = 120
instances = 1000000

[tests."MP+fence.sc.cta".knobs]
LITMUS_CTAS = "1024"
LITMUS_STRESS = "256:64"
LITMUS_SHUFFLE_PCT = 30
"#;

    fn base() -> Knobs {
        Knobs {
            seed: 5,
            budget_ms: 250,
            ..Knobs::default()
        }
    }

    #[test]
    fn an_entry_sets_its_knobs_and_keeps_the_runs_seed_and_budget() {
        let file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        let k = file
            .knobs_for("MP+fence.sc.cta", &base(), |_| None)
            .unwrap();
        assert_eq!((k.ctas, k.stress_ctas, k.stress_rounds), (1024, 256, 64));
        assert_eq!(k.env.shuffle_pct, 30);
        assert_eq!((k.seed, k.budget_ms), (5, 250));
        assert_eq!(k.tuning.as_deref(), Some("t.toml"));
        // A test without an entry runs the base knobs.
        assert_eq!(file.knobs_for("SB", &base(), |_| None).unwrap(), base());
        // The environment wins over the entry.
        let k = file
            .knobs_for("MP+fence.sc.cta", &base(), |v| {
                (v == "LITMUS_CTAS").then(|| "512".to_string())
            })
            .unwrap();
        assert_eq!(k.ctas, 512);
    }

    #[test]
    fn the_build_is_kept_where_known_and_absent_where_not() {
        let file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        assert_eq!(file.tests["MP+fence.sc.cta"].build, "");
        assert!(!file.to_toml().contains("build ="));
        let mut file = file;
        let build = "sm_90 PTX 7.8 via ptxas 12.4.131";
        file.tests.get_mut("MP+fence.sc.cta").unwrap().build = build.into();
        let text = file.to_toml();
        assert!(text.contains(&format!("build = \"{build}\"\n")), "{text}");
        let back = TuningFile::parse(Path::new("t.toml"), &text).unwrap();
        assert_eq!(back, file);
        let bad = FILE.replace("weak = 120", "weak = 120\nbuild = 7");
        let e = TuningFile::parse(Path::new("t.toml"), &bad)
            .unwrap_err()
            .to_string();
        assert!(e.contains("`build` must be a string"), "{e}");
    }

    #[test]
    fn a_missing_tuning_file_is_an_error_unless_the_tests_are_writing_it() {
        let missing = "/nonexistent/litmus-tuning.toml";
        let vars = |tune: Option<&'static str>| {
            move |name: &str| match name {
                TUNING_ENV => Some(missing.to_string()),
                TUNE_ENV => tune.map(str::to_string),
                _ => None,
            }
        };
        let e = TuningFile::from_vars(vars(None)).unwrap_err().to_string();
        assert!(e.contains(missing) && e.contains("cannot read"), "{e}");
        assert!(TuningFile::from_vars(vars(Some("0"))).is_err());
        assert!(TuningFile::from_vars(vars(Some("1"))).unwrap().is_none());
    }

    #[test]
    fn winners_are_the_entries_that_saw_their_outcome_best_first() {
        let text = format!(
            "{FILE}{}",
            r#"
[tests.fast]
device = "d"
weak_per_s_low = 9e6
weak = 5
instances = 10
[tests.fast.knobs]
LITMUS_STRIDE = "16"

[tests.same_as_fast]
device = "d"
weak_per_s_low = 1e3
weak = 5
instances = 10
[tests.same_as_fast.knobs]
LITMUS_STRIDE = "16"

[tests.never]
device = "d"
weak_per_s_low = 0e0
weak = 0
instances = 10
[tests.never.knobs]
"#
        );
        let file = TuningFile::parse(Path::new("t.toml"), &text).unwrap();
        let w = file.winners(&base(), 4);
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(w[0].stride, 16);
        assert_eq!(w[1].ctas, 1024);
        assert!(w
            .iter()
            .all(|k| k.seed == base().seed && k.tuning.is_none()));
        assert_eq!(file.winners(&base(), 1).len(), 1);
    }

    #[test]
    fn what_is_written_reads_back() {
        let file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        let again = TuningFile::parse(Path::new("t.toml"), &file.to_toml()).unwrap();
        assert_eq!(again, file);
    }

    #[test]
    fn bad_files_say_what_and_where() {
        for (text, expected) in [
            ("[tests.\"a\"\nx=1", "t.toml: "),
            ("title = 1", "unknown key `title`"),
            (
                "[tests.a]\ncolour = \"red\"",
                "test `a`: unknown key `colour`",
            ),
            (
                "[tests.a.knobs]\nLITMUS_SEED = \"1\"",
                "`LITMUS_SEED` is not a knob a tuning entry may set",
            ),
            (
                "[tests.a.knobs]\nLITMUS_CTAS = \"300\"",
                "test `a`: bad value `300` for LITMUS_CTAS: expected a power of two",
            ),
            (
                "[tests.a]\nweak = -1",
                "`weak` must be a non-negative integer",
            ),
        ] {
            let e = TuningFile::parse(Path::new("t.toml"), text)
                .unwrap_err()
                .to_string();
            assert!(e.contains(expected), "{text:?}: {e}");
            assert!(e.starts_with("tuning file t.toml: "), "{e}");
        }
    }
}
