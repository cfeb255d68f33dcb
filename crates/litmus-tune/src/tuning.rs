//! Tuning files: per test and device kind, the GPU knobs that exposed its
//! weak outcome best (written by `gpu-litmus tune`), picked up by every run
//! of that test on a GPU of that kind.
//!
//! The file is TOML, one table per test name, holding one table per device
//! kind (the GPU's name, as [`litmus_hw::device_kind`] reads it from a
//! result's device line):
//!
//! ```toml
//! [tests."MP+fence.sc.cta"."NVIDIA H100 80GB HBM3"]
//! build = "sm_90 PTX 7.8 via driver JIT 580.159.04"
//! weak_per_s_low = 1.25e6   # lower Wilson bound of weak outcomes per second
//! weak = 31205
//! instances = 2147483648
//!
//! [tests."MP+fence.sc.cta"."NVIDIA H100 80GB HBM3".knobs]
//! LITMUS_CTAS = "1024"
//! LITMUS_STRESS = "256:64"
//!
//! [tests."MP+fence.sc.cta"."NVIDIA A100-SXM4-80GB"]
//! # ...
//! ```
//!
//! Files of the older shape, one entry per test with its kind in `device =
//! "..."` at the test's level, read as that kind's entry; an entry at the
//! test's level without a `device` (written by hand) serves every kind
//! that has none of its own (`text` has the details). A run takes the
//! entry of the kind of the GPU it runs on ([`TuningFile::entry`]), and
//! the defaults where there is none: knobs that expose a weak outcome on
//! one GPU say little about another.
//!
//! The knobs are the environment variables that set them, with the values
//! they would hold, so an entry reads exactly like the environment and is
//! checked by the same rules ([`Knobs::from_vars`]). Which file: the one
//! `LITMUS_TUNING` names, else `litmus-tuning.toml` in the current folder
//! (the crate's root under `cargo test`) if there is one. Variables set in
//! the environment win over an entry's, so a user can still try a knob by
//! hand; the run's seed, budget and launches are never tuned. An entry
//! without `LITMUS_LANES` runs the permuted lanes, the default it was
//! written under.

mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use litmus_hw::{GpuError, Knobs, LANES_ENV, PTXAS_ENV, TOOLCHAIN_ENV};

/// The lanes of an entry that names none: the default until `auto`
/// ([`litmus_hw::Lanes::resolve`]), so an entry written before it still
/// means what it ran. Every entry made since names its lanes
/// ([`Entry::new`]), `auto` included.
const PERMUTED_BEFORE_AUTO: &str = "permuted";

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

/// One test's tuned knobs on one device kind, and what they achieved.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `LITMUS_*` variable → value.
    pub knobs: BTreeMap<String, String>,
    /// The kind of device the knobs were tuned on (its name); empty for an
    /// entry written by hand without one, which serves every kind.
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

/// A tuning file: its path and its entries by test name and device kind.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TuningFile {
    /// Where it was read from (or will be written to).
    pub path: PathBuf,
    /// Test name → device kind → entry, each entry under its own
    /// [`Entry::device`] (see [`TuningFile::insert`]).
    pub tests: BTreeMap<String, BTreeMap<String, Entry>>,
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
/// seed, budget or launches (the tuned rows of [`Knobs::table`]).
static TUNABLE: LazyLock<Vec<&'static str>> = LazyLock::new(Knobs::tunable);

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
        text::parse(path, text)
    }

    /// The file's text, entries sorted by test name, then by device kind.
    pub fn to_toml(&self) -> String {
        text::to_toml(self)
    }

    /// Writes the file to its path.
    pub fn write(&self) -> Result<(), TuningError> {
        // Whole or not at all: a killed tune keeps the file it had.
        litmus_core::files::write_atomic(&self.path, self.to_toml().as_bytes()).map_err(|e| {
            TuningError::Io {
                path: self.path.clone(),
                message: format!("cannot write: {e}"),
            }
        })
    }

    /// Puts `entry` in as test `name`'s entry for its device kind
    /// ([`Entry::device`]), in place of the one it had; the test's entries
    /// for other kinds stay.
    pub fn insert(&mut self, name: &str, entry: Entry) {
        self.tests
            .entry(name.to_string())
            .or_default()
            .insert(entry.device.clone(), entry);
    }

    /// Test `name`'s entry for a run on a device of kind `kind` (its name,
    /// as [`litmus_hw::kind_on`] gives it; empty when the device is not
    /// known): the one tuned on that kind, else the test's entry without a
    /// kind, which serves every kind. Never another kind's: knobs tuned on
    /// one GPU are not evidence for another, so a run without its kind's
    /// entry runs the defaults.
    pub fn entry(&self, name: &str, kind: &str) -> Option<&Entry> {
        let kinds = self.tests.get(name)?;
        kinds.get(kind).or_else(|| kinds.get(""))
    }

    /// Every entry, as (test name, entry), by test name then kind.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.tests
            .iter()
            .flat_map(|(name, kinds)| kinds.values().map(move |e| (name.as_str(), e)))
    }

    /// The knobs of the `most` best entries for device kind `kind` (those
    /// [`TuningFile::entry`] gives a run there) that showed their weak
    /// outcome (by their rate's lower bound), under `base`'s seed and
    /// budget: where a search on that kind for a sibling test starts. The
    /// published GPU harnesses tune a family and reuse what they keep
    /// across its variants; a winner for one fenced variant is often a
    /// winner for the next, on the same GPU.
    pub fn winners(&self, base: &Knobs, most: usize, kind: &str) -> Vec<Knobs> {
        let mut seen: Vec<(&String, &Entry)> = self
            .tests
            .keys()
            .filter_map(|name| Some((name, self.entry(name, kind)?)))
            .filter(|(_, e)| e.weak > 0 && e.off_defaults().next().is_some())
            .collect();
        seen.sort_by(|a, b| b.1.weak_per_s_low.total_cmp(&a.1.weak_per_s_low));
        let mut out: Vec<Knobs> = Vec::new();
        for (name, _) in seen {
            if out.len() == most {
                break;
            }
            if let Ok(k) = self.knobs_for(name, kind, base, |_| None) {
                let k = Knobs { tuning: None, ..k };
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }

    /// The knobs test `name` runs with on a device of kind `kind`: `base`
    /// (the environment's knobs, with the command line's seed, budget and
    /// launches) where the file has no entry for that kind
    /// ([`TuningFile::entry`]); otherwise the entry's knobs under the
    /// environment's variables (`env`), with `base`'s seed, budget and
    /// launches.
    pub fn knobs_for(
        &self,
        name: &str,
        kind: &str,
        base: &Knobs,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Knobs, GpuError> {
        let Some(entry) = self.entry(name, kind) else {
            return Ok(base.clone());
        };
        let tuned = Knobs::from_vars(|var| {
            env(var)
                .filter(|v| !v.trim().is_empty())
                .or_else(|| entry.knobs.get(var).cloned())
                .or_else(|| (var == LANES_ENV).then(|| PERMUTED_BEFORE_AUTO.to_string()))
        })
        .map_err(|e| GpuError::Tuning(format!("{}, test `{name}`: {e}", self.path.display())))?;
        Ok(Knobs {
            seed: base.seed,
            budget_ms: base.budget_ms,
            launches: base.launches,
            // Where the logical GPUs run is the machine's, not the test's.
            gpu_map: base.gpu_map.clone(),
            ptxas: self.toolchain_of(entry, base, &env),
            tuning: Some(self.path.display().to_string()),
            ..tuned
        })
    }

    /// The compiler of a run under `entry`: the environment's when it
    /// names one; else the entry's, when the entry names a toolchain and
    /// it is installed here; else (said once, with what to install) the
    /// base's. An entry written by a search over toolchains names the one
    /// its configuration won under; an older entry names none and runs
    /// under the machine's.
    fn toolchain_of(
        &self,
        entry: &Entry,
        base: &Knobs,
        env: &impl Fn(&str) -> Option<String>,
    ) -> Option<String> {
        let set = |v: &str| env(v).is_some_and(|x| !x.trim().is_empty());
        let Some(wanted) = entry.knobs.get(TOOLCHAIN_ENV) else {
            return base.ptxas.clone();
        };
        if set(TOOLCHAIN_ENV) || set(PTXAS_ENV) {
            return base.ptxas.clone();
        }
        if wanted.trim().eq_ignore_ascii_case("jit") {
            return None;
        }
        match litmus_hw::check_ptxas(wanted) {
            Ok(_) => Some(wanted.clone()),
            Err(why) => {
                // Once per file and toolchain, not per test: a campaign's
                // hundred entries share one missing install.
                litmus_hw::say_once(&format!(
                    "gpu-litmus: {}: its entries name {TOOLCHAIN_ENV}={wanted}: {why}; those tests run under {}",
                    self.path.display(),
                    base.ptxas.as_deref().unwrap_or("the driver's JIT")
                ));
                base.ptxas.clone()
            }
        }
    }
}

impl Entry {
    /// The entry for knobs `k`, which showed `weak` weak outcomes in
    /// `instances` on `device` at a lower bound of `weak_per_s_low` per
    /// second: the tunable knobs that differ from their defaults, and the
    /// lanes whatever they are (an entry that names none runs the permuted
    /// ones, the default it was written under).
    pub fn new(
        k: &Knobs,
        device: &str,
        build: &str,
        weak_per_s_low: f64,
        weak: u64,
        instances: u64,
    ) -> Entry {
        let mut knobs: BTreeMap<String, String> = k
            .env_assignments()
            .into_iter()
            .filter(|(var, _)| TUNABLE.contains(var))
            .map(|(var, value)| (var.to_string(), value))
            .collect();
        knobs
            .entry(LANES_ENV.to_string())
            .or_insert_with(|| k.lanes.as_str().to_string());
        Entry {
            knobs,
            device: device.to_string(),
            build: build.to_string(),
            weak_per_s_low,
            weak,
            instances,
        }
    }

    /// The entry's knobs that are not the defaults: all it names but the
    /// default lanes, which every entry names ([`Entry::new`]).
    pub fn off_defaults(&self) -> impl Iterator<Item = (&str, &str)> {
        let default_lanes = Knobs::default().lanes.as_str();
        self.knobs
            .iter()
            .map(|(var, v)| (var.as_str(), v.as_str()))
            .filter(move |&(var, v)| (var, v) != (LANES_ENV, default_lanes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H100: &str = "NVIDIA H100 80GB HBM3";
    const A100: &str = "NVIDIA A100-SXM4-80GB";

    /// A file of the older shape: one entry per test, its kind in `device`.
    pub(super) const FILE: &str = r#"
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
            .knobs_for("MP+fence.sc.cta", H100, &base(), |_| None)
            .unwrap();
        assert_eq!((k.ctas, k.stress_ctas, k.stress_rounds), (1024, 256, 64));
        assert_eq!(k.env.shuffle_pct, 30);
        assert_eq!((k.seed, k.budget_ms), (5, 250));
        assert_eq!(k.tuning.as_deref(), Some("t.toml"));
        // A test without an entry runs the base knobs.
        assert_eq!(
            file.knobs_for("SB", H100, &base(), |_| None).unwrap(),
            base()
        );
        // The environment wins over the entry.
        let k = file
            .knobs_for("MP+fence.sc.cta", H100, &base(), |v| {
                (v == "LITMUS_CTAS").then(|| "512".to_string())
            })
            .unwrap();
        assert_eq!(k.ctas, 512);
    }

    /// An entry that names no lanes was written when the permuted ones
    /// were the default, and runs them; one written since names its lanes,
    /// the default `auto` too (a search whose defaults won), and the
    /// environment still wins.
    #[test]
    fn an_entry_without_lanes_runs_the_permuted_ones() {
        let file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        let on = |env: Option<&str>| {
            file.knobs_for("MP+fence.sc.cta", H100, &base(), |v| {
                env.filter(|_| v == LANES_ENV).map(str::to_string)
            })
            .unwrap()
            .lanes
        };
        assert_eq!(base().lanes, litmus_hw::Lanes::Auto);
        assert_eq!(on(None), litmus_hw::Lanes::Permuted);
        assert_eq!(on(Some("auto")), litmus_hw::Lanes::Auto);
        for lanes in [
            litmus_hw::Lanes::Permuted,
            litmus_hw::Lanes::Aligned,
            litmus_hw::Lanes::Auto,
        ] {
            let k = Knobs { lanes, ..base() };
            let entry = Entry::new(&k, H100, "", 1.0, 1, 1);
            assert_eq!(
                entry.knobs.get(LANES_ENV).map(String::as_str),
                Some(lanes.as_str())
            );
            let mut file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
            file.insert("SB", entry);
            assert_eq!(
                file.knobs_for("SB", H100, &base(), |_| None).unwrap().lanes,
                lanes
            );
        }
    }

    #[test]
    fn an_entry_names_its_toolchain_and_one_not_installed_runs_under_the_base() {
        // An entry won under an installed release names it by name...
        let k = Knobs {
            ptxas: Some("ptxas-1.2.3".into()),
            stride: 8,
            ..base()
        };
        let entry = Entry::new(&k, H100, "", 1.0, 1, 1);
        assert_eq!(
            entry.knobs.get(TOOLCHAIN_ENV).map(String::as_str),
            Some("ptxas-1.2.3")
        );
        let mut file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        file.insert("SB", entry);
        // ... which is not installed here: the run keeps the entry's other
        // knobs and the base's compiler (the JIT).
        let run = file.knobs_for("SB", H100, &base(), |_| None).unwrap();
        assert_eq!((run.stride, run.ptxas.clone()), (8, None));
        // A compiler the environment names wins over the entry's.
        let jit_entry = Entry::new(
            &Knobs {
                ptxas: None,
                ..k.clone()
            },
            H100,
            "",
            1.0,
            1,
            1,
        );
        assert_eq!(jit_entry.knobs.get(TOOLCHAIN_ENV), None);
        let env = |v: &str| (v == TOOLCHAIN_ENV).then(|| "jit".to_string());
        assert_eq!(
            file.knobs_for("SB", H100, &base(), env).unwrap().ptxas,
            None
        );
    }

    /// A file with an H100 entry for MP and A100 entry for MP, and an
    /// entry without a kind for SB.
    fn two_kinds() -> TuningFile {
        let mut file = TuningFile::parse(Path::new("t.toml"), FILE).unwrap();
        let a100 = Knobs {
            stride: 16,
            ..Knobs::default()
        };
        file.insert("MP+fence.sc.cta", Entry::new(&a100, A100, "", 2e6, 9, 100));
        let sb = Knobs {
            ctas: 64,
            ..Knobs::default()
        };
        file.insert("SB", Entry::new(&sb, "", "", 0.0, 0, 0));
        file
    }

    #[test]
    fn a_run_takes_its_kinds_entry_else_the_kindless_one_else_the_defaults() {
        let file = two_kinds();
        let on = |name: &str, kind: &str| file.knobs_for(name, kind, &base(), |_| None).unwrap();
        assert_eq!(on("MP+fence.sc.cta", H100).ctas, 1024);
        assert_eq!(on("MP+fence.sc.cta", A100).stride, 16);
        assert_eq!(on("MP+fence.sc.cta", A100).ctas, base().ctas);
        // Another kind's entry is not this kind's: the defaults run.
        assert_eq!(on("MP+fence.sc.cta", "NVIDIA L4"), base());
        assert_eq!(on("MP+fence.sc.cta", ""), base());
        // An entry without a kind serves every kind.
        assert_eq!(on("SB", H100).ctas, 64);
        assert_eq!(on("SB", "").ctas, 64);
        assert_eq!(file.entry("SB", A100).unwrap().device, "");
        // Inserting a kind's entry again replaces it and keeps the others.
        let mut file = file;
        let e = Entry::new(&base(), H100, "", 0.0, 0, 7);
        file.insert("MP+fence.sc.cta", e.clone());
        assert_eq!(file.entry("MP+fence.sc.cta", H100), Some(&e));
        assert_eq!(file.entry("MP+fence.sc.cta", A100).unwrap().weak, 9);
        assert_eq!(file.entries().count(), 3);
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
device = "NVIDIA H100 80GB HBM3"
weak_per_s_low = 9e6
weak = 5
instances = 10
[tests.fast.knobs]
LITMUS_STRIDE = "16"

[tests.same_as_fast]
device = "NVIDIA H100 80GB HBM3"
weak_per_s_low = 1e3
weak = 5
instances = 10
[tests.same_as_fast.knobs]
LITMUS_STRIDE = "16"

[tests.never]
device = "NVIDIA H100 80GB HBM3"
weak_per_s_low = 0e0
weak = 0
instances = 10
[tests.never.knobs]

[tests.defaults_won]
device = "NVIDIA H100 80GB HBM3"
weak_per_s_low = 5e6
weak = 5
instances = 10
[tests.defaults_won.knobs]
LITMUS_LANES = "auto"
"#
        );
        let file = TuningFile::parse(Path::new("t.toml"), &text).unwrap();
        // The defaults' own entry (it names only the default lanes) is no
        // winner: the search runs the defaults anyway.
        let w = file.winners(&base(), 4, H100);
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(w[0].stride, 16);
        assert_eq!(w[1].ctas, 1024);
        assert!(w
            .iter()
            .all(|k| k.seed == base().seed && k.tuning.is_none()));
        assert_eq!(file.winners(&base(), 1, H100).len(), 1);
    }

    #[test]
    fn a_search_on_one_kind_starts_from_that_kinds_winners_only() {
        let file = two_kinds();
        let a100 = file.winners(&base(), 4, A100);
        assert_eq!(a100.len(), 1, "{a100:?}");
        assert_eq!((a100[0].stride, a100[0].ctas), (16, base().ctas));
        let h100 = file.winners(&base(), 4, H100);
        assert_eq!(h100.len(), 1, "{h100:?}");
        assert_eq!(h100[0].ctas, 1024);
        assert!(file.winners(&base(), 4, "NVIDIA L4").is_empty());
    }
}
