//! Verdict lists of an external conformance corpus, such as Dat3M's PTX
//! tests: a CSV file of `path,result` lines beside the `.litmus` files,
//! where `path` is relative to the corpus folder and `result` is `1` (the
//! test's claim holds under the list's model, or the program terminates)
//! or `0`.
//!
//! Tests take their file lists from these lists rather than from a walk of
//! the folder: a corpus grows (new dialects, new verdict files), and a
//! walk would pick up files that a given list says nothing about.
//!
//! ```
//! let list = litmus_core::corpus::parse_list("a.csv", "Manual/MP.litmus,0\nCADP/x.litmus,1\n").unwrap();
//! assert_eq!(list[0].path, "Manual/MP.litmus");
//! assert!(!list[0].expected && list[1].expected);
//! ```

use std::path::{Path, PathBuf};

/// The environment variable that names the corpus folder.
pub const CORPUS_ENV: &str = "LITMUS_CONFORMANCE_DIR";

/// Dat3M's PTX 6.0 verdicts (`exists`/`~exists`/`forall` claims).
pub const PTX_V6: &str = "expected-ptx-v6.csv";
/// Dat3M's PTX 7.5 verdicts (with proxies and aliases).
pub const PTX_V75: &str = "expected-ptx-v7.5.csv";
/// Dat3M's termination verdicts (`1`: every execution terminates).
pub const TERMINATION: &str = "expected-termination.csv";

/// One line of a verdict list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The test's path relative to the corpus folder, as the list writes it.
    pub path: String,
    /// `true` for `1`, `false` for `0`.
    pub expected: bool,
    /// The 1-based line of the list that holds this entry.
    pub line: usize,
}

/// Why a verdict list could not be read.
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    /// The list file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The list's path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line is not `path,0` or `path,1`.
    #[error("{file}:{line}: expected `path,0` or `path,1`, found `{text}`")]
    Line {
        /// The list's name or path, as given.
        file: String,
        /// The 1-based line.
        line: usize,
        /// The line as written.
        text: String,
    },
    /// A path is listed twice.
    #[error("{file}:{line}: `{path}` is listed already on line {first}")]
    Duplicate {
        /// The list's name or path, as given.
        file: String,
        /// The 1-based line of the repeat.
        line: usize,
        /// The repeated path.
        path: String,
        /// The line that listed it first.
        first: usize,
    },
}

/// Reads the verdict list `name` (for example [`PTX_V6`]) in the corpus
/// folder `dir`.
pub fn read_list(dir: &Path, name: &str) -> Result<Vec<Entry>, CorpusError> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path).map_err(|source| CorpusError::Read {
        path: path.clone(),
        source,
    })?;
    parse_list(&path.display().to_string(), &text)
}

/// Parses a verdict list's text; `file` names it in errors. Blank lines
/// are skipped; everything else must be `path,0` or `path,1`.
pub fn parse_list(file: &str, text: &str) -> Result<Vec<Entry>, CorpusError> {
    let mut entries: Vec<Entry> = Vec::new();
    let mut seen = std::collections::HashMap::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        let bad = || CorpusError::Line {
            file: file.to_string(),
            line: n + 1,
            text: raw.to_string(),
        };
        let (path, result) = line.rsplit_once(',').ok_or_else(bad)?;
        let expected = match result.trim() {
            "1" => true,
            "0" => false,
            _ => return Err(bad()),
        };
        let path = path.trim();
        if path.is_empty() {
            return Err(bad());
        }
        if let Some(&first) = seen.get(path) {
            return Err(CorpusError::Duplicate {
                file: file.to_string(),
                line: n + 1,
                path: path.to_string(),
                first,
            });
        }
        seen.insert(path.to_string(), n + 1);
        entries.push(Entry {
            path: path.to_string(),
            expected,
            line: n + 1,
        });
    }
    Ok(entries)
}

/// The paths that any of `lists` names, each once, sorted.
pub fn union_of(dir: &Path, lists: &[&str]) -> Result<Vec<String>, CorpusError> {
    let mut paths = std::collections::BTreeSet::new();
    for name in lists {
        paths.extend(read_list(dir, name)?.into_iter().map(|e| e.path));
    }
    Ok(paths.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_path_comma_bit_are_errors_with_their_line() {
        let err = parse_list("v.csv", "a.litmus,1\n\nb.litmus,2\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "v.csv:3: expected `path,0` or `path,1`, found `b.litmus,2`"
        );
        let err = parse_list("v.csv", "no comma").unwrap_err();
        assert!(err.to_string().starts_with("v.csv:1:"), "{err}");
        let err = parse_list("v.csv", ",1").unwrap_err();
        assert!(err.to_string().starts_with("v.csv:1:"), "{err}");
    }

    #[test]
    fn a_path_listed_twice_is_an_error() {
        let err = parse_list("v.csv", "a,1\nb,0\na,0\n").unwrap_err();
        assert_eq!(err.to_string(), "v.csv:3: `a` is listed already on line 1");
    }

    #[test]
    fn entries_keep_their_lines() {
        let list = parse_list("v.csv", "\na,1\r\nb,0\n").unwrap();
        assert_eq!(
            list,
            vec![
                Entry {
                    path: "a".into(),
                    expected: true,
                    line: 2
                },
                Entry {
                    path: "b".into(),
                    expected: false,
                    line: 3
                },
            ]
        );
    }
}
