//! `LITMUS_TUNE=1`: each `litmus!` and `litmus_files!` test tunes itself
//! before it runs, and merges its entry into the tuning file its runs read
//! (`LITMUS_TUNING`, else `litmus-tuning.toml` in the crate's root). This
//! is how a crate's own tests get a tuning file without writing them out
//! as `.litmus` files: `LITMUS_TUNE=1 cargo test` on a GPU runner, then
//! commit the file.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use litmus_core::ir::Test;

use crate::config::Config;

mod error;
pub use error::TuneInPlaceError;
use litmus_hw as gpu;
pub use litmus_tune::tuning::TUNE_ENV;
use litmus_tune::tuning::{TuningFile, CONVENTIONAL_FILE, TUNING_ENV};
/// The variable that sets each test's search budget (GPU milliseconds).
pub const TUNE_BUDGET_ENV: &str = "LITMUS_TUNE_BUDGET_MS";
/// The search budget when `LITMUS_TUNE_BUDGET_MS` is unset.
pub const DEFAULT_BUDGET_MS: u64 = 4000;
/// Configurations drawn per test.
pub const CONFIGS: usize = 16;

/// Serialises the read-merge-write of the tuning file by the tests of one
/// binary, which run on several threads.
static FILE: Mutex<()> = Mutex::new(());

/// When `LITMUS_TUNE=1`: tunes `test`, merges its entry into the tuning
/// file and points `config` at the file, so the run that follows uses it.
/// `Ok(None)` when tuning is off; `Ok(Some(line))` says what it did (or why
/// it could not run here); `Err` is a failure (a bad variable, a file that
/// cannot be read or written, a GPU that broke).
pub fn tune_from_env(
    test: &Test,
    ptx: Option<&str>,
    config: &mut Config,
) -> Result<Option<String>, TuneInPlaceError> {
    tune_from_vars(crate::config::var, test, ptx, config)
}

/// [`tune_from_env`] over any source of variables.
pub fn tune_from_vars(
    var: impl Fn(&str) -> Option<String>,
    test: &Test,
    ptx: Option<&str>,
    config: &mut Config,
) -> Result<Option<String>, TuneInPlaceError> {
    match var(TUNE_ENV).as_deref().map(str::trim) {
        None | Some("") | Some("0") => return Ok(None),
        Some("1") => {}
        Some(other) => {
            return Err(TuneInPlaceError::BadValue {
                var: TUNE_ENV,
                value: other.to_string(),
                expected: "1 (tune each test) or 0",
            })
        }
    }
    let budget_ms =
        match var(TUNE_BUDGET_ENV) {
            Some(v) if !v.trim().is_empty() => {
                v.trim().parse::<u64>().ok().filter(|n| *n > 0).ok_or(
                    TuneInPlaceError::BadValue {
                        var: TUNE_BUDGET_ENV,
                        value: v,
                        expected: "a positive number of milliseconds",
                    },
                )?
            }
            _ => DEFAULT_BUDGET_MS,
        };
    let name = &test.name.text;
    // `litmus!` embeds its PTX; a `.litmus` file's is generated here.
    let generated;
    let ptx = match ptx {
        Some(text) => text,
        None => match litmus_ptx::generate(test) {
            Ok(text) => {
                generated = text;
                &generated
            }
            Err(e) => return Ok(Some(format!("tune: `{name}` not tuned: {e}"))),
        },
    };
    match gpu::hardware_wanted() {
        Ok(None) => {}
        Ok(Some(why)) => return Ok(Some(format!("tune: skipped, {why}"))),
        Err(e) => return Err(TuneInPlaceError::Gpu(e)),
    }
    let base = config.knobs.clone();
    let path = var(TUNING_ENV)
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from(CONVENTIONAL_FILE), PathBuf::from);
    // The tests tuned before (this binary's, or an earlier run's) lend
    // their winners, as for `gpu-litmus tune`.
    let tuned = config.tuning.clone();
    // Those of the kind of GPU this search runs on (where it cannot say,
    // the run fails the same way and says why).
    let kind = gpu::kind_on(&[], test, &base).unwrap_or_default();
    let (entry, line) = litmus_tune::tune_test(
        test,
        ptx,
        (config.model, &config.options),
        &base,
        budget_ms,
        CONFIGS,
        (tuned.as_deref(), &kind),
    )
    .map_err(|error| TuneInPlaceError::Search {
        name: name.clone(),
        error,
    })?;
    let _file = FILE.lock().unwrap_or_else(|p| p.into_inner());
    let mut file = if Path::new(&path).exists() {
        TuningFile::load(&path)?
    } else {
        TuningFile {
            path: path.clone(),
            ..TuningFile::default()
        }
    };
    file.insert(name, entry);
    file.write()?;
    config.tuning = Some(Arc::new(file));
    Ok(Some(format!("tune `{name}`: {line} -> {}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: std::collections::HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |name| map.get(name).cloned()
    }

    fn test() -> Test {
        litmus_text::parse("PTX t\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n")
            .unwrap()
    }

    #[test]
    fn off_unless_asked_and_bad_values_say_what_is_accepted() {
        let mut config = Config::from_env().unwrap();
        for off in [&[][..], &[(TUNE_ENV, "0")], &[(TUNE_ENV, " ")]] {
            assert!(matches!(
                tune_from_vars(vars(off), &test(), None, &mut config),
                Ok(None)
            ));
        }
        let e = tune_from_vars(vars(&[(TUNE_ENV, "yes")]), &test(), None, &mut config)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "bad value `yes` for LITMUS_TUNE: expected 1 (tune each test) or 0"
        );
        for bad in ["0", "-5", "soon"] {
            let e = tune_from_vars(
                vars(&[(TUNE_ENV, "1"), (TUNE_BUDGET_ENV, bad)]),
                &test(),
                None,
                &mut config,
            )
            .unwrap_err()
            .to_string();
            assert!(
                e.contains(&format!("bad value `{bad}` for LITMUS_TUNE_BUDGET_MS")),
                "{e}"
            );
        }
    }
}
