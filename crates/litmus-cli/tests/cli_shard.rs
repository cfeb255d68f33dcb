//! Across machines: `--shard K/N` on `campaign` and `tune` splits a set of
//! tests by relaxation so that N jobs run disjoint parts, each test in one; and
//! `evidence merge` joins the jobs' evidence for `gate` and `report`. No
//! GPU needed: without one, campaign still prints a line per test it would
//! have run, and tune says its shard's share.

mod cli_support;

use std::collections::BTreeSet;
use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout, write, BROKEN};
use serde_json::Value;

/// `n` MP tests `MP_0` .. in `dir`, each of its own relaxation (the
/// shards split by it): `MP_i`'s writer stores to `x` `i + 1` times.
fn mp_tests(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        let stores: String = (1..=i + 1)
            .map(|v| format!(" st.relaxed.gpu x, {v} | ;\n"))
            .collect();
        let text = format!(
            "PTX MP_{i}\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n{stores} st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, y ;\n | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"
        );
        write(dir, &format!("mp_{i:02}.litmus"), &text);
    }
}

/// The files a campaign printed a line for, and its summary line.
fn campaign(args: &[&str], paths: &[&Path]) -> (Vec<String>, String) {
    let out = bin()
        .args(["campaign", "--launches", "1"])
        .args(args)
        .args(paths)
        .output()
        .unwrap();
    let text = stdout(&out);
    // The broken file fails its shard's campaign, and only that one.
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{text}{}",
        stderr(&out)
    );
    let mut lines: Vec<&str> = text.lines().collect();
    let summary = lines.pop().expect("a summary line").to_string();
    assert!(summary.starts_with("campaign: "), "{text}");
    // A broken file's error is one `file:line:col: message` line per problem.
    let files = lines
        .iter()
        .map(|l| l.split(".litmus").next().unwrap().to_string() + ".litmus")
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    (files, summary)
}

#[test]
fn four_shards_of_a_campaign_run_exactly_the_tests_of_one_each_once() {
    let dir = scratch("shard-campaign");
    let (tests, other) = (dir.join("tests"), dir.join("other"));
    mp_tests(&tests, 12);
    std::fs::create_dir_all(&other).unwrap();
    // Placed by its path, as it has no name: still in exactly one shard.
    write(&other, "broken.litmus", BROKEN);
    let (all, summary) = campaign(&[], &[&tests, &other]);
    assert_eq!(all.len(), 13, "{all:?}");
    assert!(summary.starts_with("campaign: 13 tests, "), "{summary}");
    let mut union = Vec::new();
    let mut sizes = Vec::new();
    for k in 1..=4 {
        let shard = format!("{k}/4");
        let (files, summary) = campaign(&["--shard", &shard], &[&tests, &other]);
        let want = format!("campaign: shard {shard}: {} of 13 tests, ", files.len());
        assert!(summary.starts_with(&want), "{summary}");
        sizes.push(files.len());
        union.extend(files);
    }
    union.sort();
    assert_eq!(union, all, "each test in exactly one shard");
    assert!(sizes.iter().filter(|&&n| n > 0).count() >= 3, "{sizes:?}");
    // The same split in JSON, and on a second run (it is by the test, not luck).
    let out = bin()
        .args([
            "campaign",
            "--launches",
            "1",
            "--format",
            "json",
            "--shard",
            "2/4",
        ])
        .arg(&tests)
        .output()
        .unwrap();
    let last: Value = serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(last["summary"]["shard"], "2/4");
    assert_eq!(last["summary"]["of"], 12);
    let in_2 = campaign(&["--shard=2/4"], &[&tests]).0;
    assert_eq!(last["summary"]["tests"], in_2.len());
}

#[test]
fn four_shards_of_tune_share_out_the_set() {
    let dir = scratch("shard-tune");
    mp_tests(&dir.join("tests"), 12);
    let mut total = 0;
    for k in 1..=4 {
        let out = bin()
            .args(["tune", "--budget-ms", "5", "--configs", "2", "--shard"])
            .arg(format!("{k}/4"))
            .arg("--tuning")
            .arg(dir.join(format!("tuning-{k}.toml")))
            .arg(dir.join("tests"))
            .output()
            .unwrap();
        let text = stdout(&out);
        assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
        // `tune: skipped, no GPU ... (shard K/4: M of 12 tests)` without a
        // GPU, `tune: shard K/4: M of 12 tests, E entries in FILE` with one.
        let last = text.lines().last().unwrap();
        let at = last
            .find(&format!("shard {k}/4: "))
            .unwrap_or_else(|| panic!("{text}"));
        let rest = &last[at + "shard k/4: ".len()..];
        let (m, of) = rest.split_once(" of ").unwrap();
        assert!(of.starts_with("12 tests"), "{last}");
        total += m.parse::<usize>().unwrap();
    }
    assert_eq!(total, 12, "each test in one shard");
}

#[test]
fn a_bad_shard_is_one_line_naming_the_option() {
    let dir = scratch("shard-bad");
    mp_tests(&dir, 1);
    for (command, value) in [
        ("campaign", "0/4"),
        ("campaign", "5/4"),
        ("tune", "a/b"),
        ("tune", "3"),
    ] {
        let out = bin()
            .args([command, "--shard", value])
            .arg(&dir)
            .output()
            .unwrap();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{err}");
        let first = err.lines().next().unwrap();
        assert!(
            first.starts_with("error: `--shard` takes K/N")
                && first.contains(&format!("`{value}`")),
            "{err}"
        );
    }
}

/// A litmus7 log in which tests `MP_{from}..MP_{to}` each ran 1000 times.
fn log(from: usize, to: usize) -> String {
    (from..to)
        .map(|i| {
            format!(
                "Test MP_{i} Allowed\nHistogram (2 states)\n3 *>1:r0=1; 1:r1=0;\n997 :>1:r0=1; 1:r1={};\nOk\nWitnesses\nPositive: 3, Negative: 997\n\n",
                i + 1
            )
        })
        .collect()
}

/// Imports `log` into a new file in `into`; that file.
fn import(into: &Path, tests: &Path, log: &Path) -> std::path::PathBuf {
    let before: BTreeSet<_> = std::fs::read_dir(into)
        .map(|d| d.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default();
    let out = bin()
        .args(["evidence", "import", "--into"])
        .arg(into)
        .arg("--tests")
        .arg(tests)
        .arg(log)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_dir(into)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !before.contains(p))
        .unwrap()
}

fn merge(out_dir: &Path, inputs: &[&Path]) -> std::process::Output {
    bin()
        .args(["evidence", "merge"])
        .arg(out_dir)
        .args(inputs)
        .output()
        .unwrap()
}

#[test]
fn merge_writes_each_record_once_skips_a_bad_line_and_gate_reads_the_union() {
    let dir = scratch("shard-merge");
    let tests = dir.join("tests");
    mp_tests(&tests, 6);
    let (a, b) = (dir.join("ev/1"), dir.join("ev/2"));
    let in_a = import(&a, &tests, &write(&dir, "a.log", &log(0, 4)));
    import(&b, &tests, &write(&dir, "b.log", &log(4, 6)));
    // `b` also holds a copy of `a`'s file with a damaged line in it.
    let text = std::fs::read_to_string(&in_a).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.insert(2, "{\"format\": \"gpu-litmus-evidence/1\", \"run\":");
    write(&b, "copy.jsonl", &(lines.join("\n") + "\n"));
    let merged = dir.join("merged");
    let out = merge(&merged, &[&a, &b]);
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(
        out.status.code(),
        Some(1),
        "a corrupt line fails it: {text}{err}"
    );
    assert!(
        text.ends_with("merged 6 records from 3 files (4 duplicates, 1 unreadable lines)\n"),
        "{text}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("copy.jsonl:3: corrupt record"), "{err}");
    // The gate reads the union: 4 + 2 records, each once.
    let gate = bin()
        .args(["gate", "--model", "ptx", "--format", "json", "--evidence"])
        .arg(&merged)
        .arg(&tests)
        .output()
        .unwrap();
    assert!(gate.status.success(), "{}{}", stdout(&gate), stderr(&gate));
    let summary: Value = serde_json::from_str(stdout(&gate).lines().last().unwrap()).unwrap();
    assert_eq!(summary["records"], 6, "{summary}");
    assert_eq!(summary["instances"], 6 * 1000);
    // Again, from the clean folder: nothing new, nothing skipped.
    let out = merge(&merged, &[&a]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "merged 0 records from 1 files (4 duplicates, 0 unreadable lines)\n"
    );
    let out = merge(&merged, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).starts_with("error: no evidence to merge"),
        "{}",
        stderr(&out)
    );
}
