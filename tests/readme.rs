//! The README says only what the repository holds: its "Tested on" table
//! is made from the records in evidence/ and the pinned toolchain (so it
//! cannot drift from them), and every file it links to or names is here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use gpu_litmus::evidence::Evidence;

const BEGIN: &str = "<!-- tested-on: made by tests/readme.rs from evidence/ -->";
const END: &str = "<!-- tested-on: end -->";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// The GPU of a record's `device`, without what a run across GPUs adds
/// (`NVIDIA H200 (logical GPUs on devices 0,1; ...)`), and how many GPUs
/// the run used.
fn gpu_and_count(device: &str) -> (String, usize) {
    match device.split_once(" (") {
        Some((gpu, rest)) => {
            let count = rest
                .strip_prefix("logical GPUs on devices ")
                .and_then(|r| r.split(';').next())
                .map_or(1, |list| list.trim_end_matches(')').split(',').count());
            (gpu.to_string(), count)
        }
        None => (device.to_string(), 1),
    }
}

/// The pinned Rust toolchain (rust-toolchain.toml's `channel`).
fn rust_channel() -> String {
    let text = std::fs::read_to_string(root().join("rust-toolchain.toml")).unwrap();
    text.lines()
        .find_map(|l| l.trim().strip_prefix("channel = "))
        .expect("rust-toolchain.toml has a channel")
        .trim_matches('"')
        .to_string()
}

/// A row of the table: the GPU, GPUs a run, the driver, the build.
type Row = (String, usize, String, String);
/// What a row's records say: how many, the first and the last day.
type Seen = (usize, String, String);

/// The table the README must hold: one row per GPU, GPUs per run, driver
/// and build of the module, from every record in evidence/.
fn tested_on() -> String {
    let evidence = Evidence::read(&[root().join("evidence")]).unwrap();
    assert!(
        evidence.problems.is_empty(),
        "evidence/ has lines that are not records"
    );
    assert!(!evidence.records.is_empty(), "evidence/ has no records");
    let mut rows: BTreeMap<Row, Seen> = BTreeMap::new();
    for r in &evidence.records {
        let (gpu, gpus) = gpu_and_count(&r.device);
        let driver = r.driver.clone().unwrap_or_else(|| "not recorded".into());
        let build = r
            .build
            .clone()
            .unwrap_or_else(|| "not recorded (older records)".into());
        let day = r.date.get(..10).unwrap_or(&r.date).to_string();
        let row = rows
            .entry((gpu, gpus, driver, build))
            .or_insert_with(|| (0, day.clone(), day.clone()));
        row.0 += 1;
        row.1 = row.1.clone().min(day.clone());
        row.2 = row.2.clone().max(day);
    }
    let mut out = String::from(
        "| GPU | GPUs a run | driver | module built as | dates | records |\n|---|---|---|---|---|---|\n",
    );
    for ((gpu, gpus, driver, build), (records, first, last)) in &rows {
        let dates = if first == last {
            first.clone()
        } else {
            format!("{first} to {last}")
        };
        out.push_str(&format!(
            "| {gpu} | {gpus} | {driver} | {build} | {dates} | {records} |\n"
        ));
    }
    out.push_str(&format!(
        "\nBuilt with the pinned Rust, {} (`rust-toolchain.toml`); the records do not name it.\n",
        rust_channel()
    ));
    out
}

#[test]
fn the_tested_on_table_is_made_from_the_evidence() {
    let text = readme();
    let (Some(start), Some(end)) = (text.find(BEGIN), text.find(END)) else {
        panic!("README.md has no `{BEGIN}` ... `{END}` block");
    };
    let held = text[start + BEGIN.len()..end].trim();
    let wanted = tested_on();
    assert_eq!(
        held,
        wanted.trim(),
        "README.md's \"Tested on\" table is not evidence/'s; put this between the markers:\n\n{wanted}"
    );
}

#[test]
fn the_table_reads_runs_across_gpus() {
    assert_eq!(
        gpu_and_count("NVIDIA H200 (logical GPUs on devices 0,1,2; 0-1 NVLink, P2P rank 0)"),
        ("NVIDIA H200".to_string(), 3)
    );
    assert_eq!(
        gpu_and_count("NVIDIA H100 80GB HBM3 (device 0)"),
        ("NVIDIA H100 80GB HBM3".to_string(), 1)
    );
    assert_eq!(
        gpu_and_count("NVIDIA H100 80GB HBM3"),
        ("NVIDIA H100 80GB HBM3".to_string(), 1)
    );
}

/// Files the README names that are the reader's, not the repository's.
const THE_READERS: &[&str] = &["tests/mp.rs"];

/// Every relative link target in `text`, without its `#fragment`.
fn links(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        let Some(close) = rest.find(')') else {
            continue;
        };
        let target = &rest[..close];
        if target.contains("://") || target.starts_with('#') || target.starts_with("mailto:") {
            continue;
        }
        let path = target.split('#').next().unwrap_or(target);
        out.insert(path.to_string());
    }
    out
}

/// Every `code span` in `text` that names a file by its extension.
fn named_files(text: &str) -> BTreeSet<String> {
    const EXTENSIONS: &[&str] = &[
        ".rs", ".cu", ".sh", ".py", ".toml", ".yml", ".yaml", ".md", ".cat", ".litmus",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|span| !span.contains(char::is_whitespace) && !span.contains('*'))
        .filter(|span| EXTENSIONS.iter().any(|e| span.ends_with(e)))
        // `.litmus` alone is the extension, not a file.
        .filter(|span| !EXTENSIONS.contains(&span.rsplit('/').next().unwrap_or(span)))
        .map(str::to_string)
        .collect()
}

/// Every file under `dir` (the build's folders left out), relative to it.
fn files_under(dir: &Path, base: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if name == "target" || name == ".git" {
            continue;
        }
        if path.is_dir() {
            files_under(&path, base, out);
        } else {
            out.push(path.strip_prefix(base).unwrap().to_path_buf());
        }
    }
}

#[test]
fn every_file_the_readme_cites_is_in_the_repository() {
    let text = readme();
    let mut files = Vec::new();
    files_under(root(), root(), &mut files);
    let missing: Vec<String> = links(&text)
        .into_iter()
        .filter(|link| !root().join(link).exists())
        .chain(
            named_files(&text)
                .into_iter()
                .filter(|f| !THE_READERS.contains(&f.as_str()))
                // A path is looked up as it is; a bare name anywhere.
                .filter(|f| {
                    if f.contains('/') {
                        !root().join(f).exists()
                    } else {
                        !files
                            .iter()
                            .any(|p| p.file_name().is_some_and(|n| n == f.as_str()))
                    }
                }),
        )
        .collect();
    assert!(
        missing.is_empty(),
        "README.md cites files the repository does not hold: {missing:?}"
    );
}

#[test]
fn the_citation_check_sees_links_and_names() {
    let text = "see [a](docs/a.md#x), [b](https://x.org/b.md), `sys_probe.cu`'s and `cargo test --test mp`, `models/*.cat`, a `.litmus` file";
    assert_eq!(links(text), BTreeSet::from(["docs/a.md".to_string()]));
    assert_eq!(
        named_files(text),
        BTreeSet::from(["sys_probe.cu".to_string()])
    );
}
