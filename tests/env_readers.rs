//! The process's environment is read in the modules `docs/architecture.md`
//! names ("Reading the environment"), one per crate, and nowhere else
//! under `crates/*/src`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files under `crates/*/src` with a line, not a comment, that reads
/// the environment.
fn readers() -> BTreeSet<String> {
    let mut files = Vec::new();
    for krate in std::fs::read_dir(Path::new(ROOT).join("crates")).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    files
        .into_iter()
        .filter(|f| {
            std::fs::read_to_string(f).unwrap().lines().any(|l| {
                let code = l.trim_start();
                !code.starts_with("//") && code.contains("env::var")
            })
        })
        .map(|f| {
            f.strip_prefix(ROOT)
                .unwrap()
                .to_string_lossy()
                .trim_start_matches('/')
                .replace('\\', "/")
        })
        .collect()
}

/// The readers the docs' table names: its second column.
fn documented() -> BTreeSet<String> {
    let doc = std::fs::read_to_string(Path::new(ROOT).join("docs/architecture.md")).unwrap();
    let section = doc
        .split("## Reading the environment")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    section
        .lines()
        .filter(|l| l.starts_with("| `litmus-"))
        .map(|l| l.split(" | ").nth(1).unwrap().trim_matches('`').to_string())
        .collect()
}

#[test]
fn the_environment_is_read_only_where_the_docs_say() {
    let (found, named) = (readers(), documented());
    assert!(named.len() >= 7, "{named:?}");
    assert_eq!(
        found, named,
        "files that read the environment against the docs' readers"
    );
}
