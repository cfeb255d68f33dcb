//! A tuning file's TOML: reading it (both shapes, the older one entry per
//! test and the one entry per test and device kind) and writing it.
//!
//! A test's table holds its entries. Each device kind's is a table named
//! after the kind (`[tests."MP"."NVIDIA H100 80GB HBM3"]`), so a test
//! tuned on two kinds keeps both, and the header says whose entry it is.
//! The entry keys at the test's own level are the older shape: one entry,
//! whose `device` names its kind; without a `device` (written by hand) it
//! serves every kind. Both shapes read; the writer puts a kind's entry in
//! its kind table and an entry without a kind at the test's level. No
//! GPU is called `knobs` or `device`, so a kind table never reads as an
//! entry key.

use std::collections::BTreeMap;
use std::path::Path;

use litmus_hw::Knobs;

use super::{Entry, TuningError, TuningFile, TUNABLE};

/// The keys of an entry; at a test's level, any other table is a kind's.
const ENTRY_KEYS: &[&str] = &[
    "device",
    "build",
    "weak_per_s_low",
    "weak",
    "instances",
    "knobs",
];

/// Parses a tuning file's text; `path` names it in errors.
pub(super) fn parse(path: &Path, text: &str) -> Result<TuningFile, TuningError> {
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
        for (name, entries) in tests {
            let entries = entries
                .as_table()
                .ok_or_else(|| bad(format!("test `{name}`: must be a table")))?;
            let kinds = parse_test(entries).map_err(|m| {
                let at = line_of(text, name, &m).map_or(String::new(), |l| format!("line {l}: "));
                bad(format!("{at}test `{name}`: {m}"))
            })?;
            file.tests.insert(name.clone(), kinds);
        }
    }
    Ok(file)
}

/// The line (from 1) an error about test `name` points at: the first line
/// after the test's first header that sets a key the message names in
/// backticks, else that header. The TOML tables keep no positions, and a
/// message without a line leaves a person searching a long file.
fn line_of(text: &str, name: &str, message: &str) -> Option<usize> {
    let quoted = toml::Value::String(name.to_string()).to_string();
    let header = |line: &str| {
        let line = line.trim_start();
        line.starts_with(&format!("[tests.{quoted}")) || line.starts_with(&format!("[tests.{name}"))
    };
    let start = text.lines().position(header)?;
    let mut keys: Vec<&str> = message.split('`').skip(1).step_by(2).collect();
    keys.extend(
        message
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("LITMUS_")),
    );
    let set_here = text.lines().enumerate().skip(start + 1).find(|(_, line)| {
        let key = line
            .split('=')
            .next()
            .unwrap_or("")
            .trim()
            .trim_matches('"');
        line.contains('=') && keys.contains(&key)
    });
    Some(set_here.map_or(start, |(i, _)| i) + 1)
}

/// One `[tests.NAME]` table: its entries by device kind.
fn parse_test(t: &toml::Table) -> Result<BTreeMap<String, Entry>, String> {
    let mut own = toml::Table::new();
    let mut kinds = Vec::new();
    for (key, value) in t {
        match value.as_table() {
            Some(table) if !ENTRY_KEYS.contains(&key.as_str()) => kinds.push((key, table)),
            _ => {
                own.insert(key.clone(), value.clone());
            }
        }
    }
    let mut out = BTreeMap::new();
    // An empty test table is an entry with the defaults, as it always was.
    if !own.is_empty() || kinds.is_empty() {
        let entry = parse_entry(&own)?;
        out.insert(entry.device.clone(), entry);
    }
    for (kind, table) in kinds {
        if kind.trim().is_empty() {
            return Err(
                "a kind table needs the device kind as its name (an entry for every kind has its keys at the test's level)"
                    .into(),
            );
        }
        let mut entry = parse_entry(table).map_err(|m| format!("kind `{kind}`: {m}"))?;
        if !entry.device.is_empty() && entry.device != *kind {
            return Err(format!(
                "kind `{kind}`: `device` says `{}`; a kind table's name is its device kind",
                entry.device
            ));
        }
        entry.device = kind.clone();
        if out.insert(kind.clone(), entry).is_some() {
            return Err(format!(
                "two entries for kind `{kind}`: its table and the test's own `device`"
            ));
        }
    }
    Ok(out)
}

/// The file's text, entries sorted by test name, then by kind.
pub(super) fn to_toml(file: &TuningFile) -> String {
    let mut out = String::from(
        "# GPU knobs per test and device kind, written by `gpu-litmus tune`: runs of\n# these tests on a GPU of that kind pick them up (LITMUS_TUNING, or\n# litmus-tuning.toml in the crate's root).\n",
    );
    let quote = |s: &str| toml::Value::String(s.to_string()).to_string();
    for (name, kinds) in &file.tests {
        for (kind, e) in kinds {
            // An entry without a kind keeps the older shape, at the test's
            // level: it serves every kind.
            let header = match kind.is_empty() {
                true => format!("tests.{}", quote(name)),
                false => format!("tests.{}.{}", quote(name), quote(kind)),
            };
            out.push_str(&format!("\n[{header}]\n"));
            if !e.build.is_empty() {
                out.push_str(&format!("build = {}\n", quote(&e.build)));
            }
            out.push_str(&format!(
                "weak_per_s_low = {:e}\nweak = {}\ninstances = {}\n",
                e.weak_per_s_low, e.weak, e.instances
            ));
            out.push_str(&format!("\n[{header}.knobs]\n"));
            for (var, value) in &e.knobs {
                out.push_str(&format!("{var} = {}\n", quote(value)));
            }
        }
    }
    out
}

/// One entry's table: the test's own keys, or a kind table's.
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
                    .filter(|f| f.is_finite() && *f >= 0.0)
                    .ok_or("`weak_per_s_low` must be a finite non-negative number")?
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
                        // Empty, the environment would fall back to the
                        // default: in a file it is a mistake to say so.
                        toml::Value::String(s) if s.trim().is_empty() => {
                            return Err(format!("knob `{var}` is empty"))
                        }
                        toml::Value::String(s) => s.clone(),
                        toml::Value::Integer(i) => i.to_string(),
                        _ => return Err(format!("knob `{var}` must be a string or an integer")),
                    };
                    entry.knobs.insert(var.clone(), v);
                }
            }
            other => {
                return Err(format!(
                    "unknown key `{other}` (an entry has {}; a device kind's entry is a table named after the kind)",
                    ENTRY_KEYS.join(", ")
                ))
            }
        }
    }
    // The knobs must hold valid values: checked now, with the same
    // messages the environment gets, rather than when a GPU runs the test.
    Knobs::from_vars(|var| entry.knobs.get(var).cloned()).map_err(|e| e.to_string())?;
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::super::tests::FILE;
    use super::*;

    const H100: &str = "NVIDIA H100 80GB HBM3";
    const A100: &str = "NVIDIA A100-SXM4-80GB";

    fn read(text: &str) -> Result<TuningFile, TuningError> {
        TuningFile::parse(Path::new("t.toml"), text)
    }

    #[test]
    fn a_file_of_the_older_shape_reads_as_its_devices_entry() {
        let file = read(FILE).unwrap();
        let kinds = &file.tests["MP+fence.sc.cta"];
        assert_eq!(kinds.keys().collect::<Vec<_>>(), vec![H100]);
        let e = file.entry("MP+fence.sc.cta", H100).unwrap();
        assert_eq!((e.device.as_str(), e.weak), (H100, 120));
        assert_eq!(e.knobs["LITMUS_CTAS"], "1024");
        assert!(file.entry("MP+fence.sc.cta", A100).is_none());
        // Written again, it takes the kind table's shape and reads back.
        let text = file.to_toml();
        assert!(
            text.contains(&format!("[tests.\"MP+fence.sc.cta\".\"{H100}\"]\n")),
            "{text}"
        );
        assert!(!text.contains("device ="), "{text}");
        assert_eq!(read(&text).unwrap(), file);
    }

    #[test]
    fn two_kinds_of_one_test_and_an_entry_without_a_kind_round_trip() {
        let mut file = read(FILE).unwrap();
        let a100 = Knobs {
            stride: 16,
            ..Knobs::default()
        };
        let build = "sm_80 PTX 7.8 via ptxas 12.4.131";
        file.insert(
            "MP+fence.sc.cta",
            Entry::new(&a100, A100, build, 2.5e6, 9, 100),
        );
        file.insert("SB", Entry::new(&Knobs::default(), "", "", 0.0, 0, 3));
        let text = file.to_toml();
        for part in [
            format!("[tests.\"MP+fence.sc.cta\".\"{A100}\"]\nbuild = \"{build}\"\n"),
            // Every entry names its lanes, the default `auto` too.
            format!("[tests.\"MP+fence.sc.cta\".\"{A100}\".knobs]\nLITMUS_LANES = \"auto\"\nLITMUS_STRIDE = \"16\"\n"),
            format!("[tests.\"MP+fence.sc.cta\".\"{H100}\"]\nweak_per_s_low = 1.5e6\n"),
            "[tests.\"SB\"]\nweak_per_s_low = 0e0\n".to_string(),
        ] {
            assert!(text.contains(&part), "{part:?} in\n{text}");
        }
        let back = read(&text).unwrap();
        assert_eq!(back, file);
        assert_eq!(back.tests["MP+fence.sc.cta"].len(), 2);
        assert_eq!(back.entry("SB", H100).unwrap().instances, 3);
        // The older shape and a kind table side by side read as two kinds.
        let mixed = format!(
            "{FILE}\n[tests.\"MP+fence.sc.cta\".\"{A100}\"]\nweak = 2\n[tests.\"MP+fence.sc.cta\".\"{A100}\".knobs]\nLITMUS_STRIDE = \"16\"\n"
        );
        let mixed = read(&mixed).unwrap();
        assert_eq!(mixed.entry("MP+fence.sc.cta", A100).unwrap().weak, 2);
        assert_eq!(mixed.entry("MP+fence.sc.cta", H100).unwrap().weak, 120);
    }

    #[test]
    fn the_build_is_kept_where_known_and_absent_where_not() {
        let file = read(FILE).unwrap();
        assert_eq!(file.entry("MP+fence.sc.cta", H100).unwrap().build, "");
        assert!(!file.to_toml().contains("build ="));
        let mut file = file;
        let build = "sm_90 PTX 7.8 via ptxas 12.4.131";
        let mut e = file.entry("MP+fence.sc.cta", H100).unwrap().clone();
        e.build = build.into();
        file.insert("MP+fence.sc.cta", e);
        let text = file.to_toml();
        assert!(text.contains(&format!("build = \"{build}\"\n")), "{text}");
        assert_eq!(read(&text).unwrap(), file);
        let bad = FILE.replace("weak = 120", "weak = 120\nbuild = 7");
        let e = read(&bad).unwrap_err().to_string();
        assert!(e.contains("`build` must be a string"), "{e}");
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
            // Malformed kind tables.
            (
                "[tests.a.\"H100\"]\nweak = -1",
                "test `a`: kind `H100`: `weak` must be a non-negative integer",
            ),
            (
                "[tests.a.\"H100\".knobs]\nLITMUS_CTAS = \"300\"",
                "test `a`: kind `H100`: bad value `300` for LITMUS_CTAS",
            ),
            (
                "[tests.a.\"H100\"]\ncolour = 1",
                "test `a`: kind `H100`: unknown key `colour`",
            ),
            (
                "[tests.a.\"H100\".\"A100\"]\nweak = 1",
                "test `a`: kind `H100`: unknown key `A100`",
            ),
            (
                "[tests.a.\"H100\"]\ndevice = \"A100\"",
                "test `a`: kind `H100`: `device` says `A100`",
            ),
            (
                "[tests.a.\"\"]\nweak = 1",
                "test `a`: a kind table needs the device kind as its name",
            ),
            (
                "[tests.a]\ndevice = \"H100\"\n[tests.a.\"H100\"]\nweak = 1",
                "test `a`: two entries for kind `H100`",
            ),
        ] {
            let e = read(text).unwrap_err().to_string();
            assert!(e.contains(expected), "{text:?}: {e}");
            assert!(e.starts_with("tuning file t.toml: "), "{e}");
        }
        // A kind table that names its own kind again is fine.
        let same = read("[tests.a.\"H100\"]\ndevice = \"H100\"\nweak = 1").unwrap();
        assert_eq!(same.entry("a", "H100").unwrap().weak, 1);
    }
}
