//! Enumerated diy7 cycles through the binary: `gpu-litmus diff
//! --cycles-up-to N` and `gpu-litmus mutants --kill-tests ... --cycles-up-to
//! N`, with the vocabulary (`--edges`, `*` expanded), the thread and access
//! bounds, the limit on the cycles, the bound every report names, and one
//! clear error for each bad value.

mod cli_support;

use std::path::Path;

use cli_support::mutant_models::{CORR, SB, TINY};
use cli_support::{bin, scratch, stderr, stdout, write};
use serde_json::Value;

/// `gpu-litmus ARGS`.
fn run(args: &[&str]) -> std::process::Output {
    bin().args(args).output().unwrap()
}

/// The names of the tests a `diff` lists, in order.
fn listed(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.starts_with("  ") && !l.starts_with("      "))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// ptx against sc over every cycle of up to 4 edges (the default
/// vocabulary: plain and fenced program order): the two-thread shapes come
/// first, named after their shape, then the same shapes with a fence on
/// one thread (`MP+fence.sc.cta+po`), which ptx still allows; the header
/// names the bound searched.
#[test]
fn diff_ptx_sc_over_enumerated_cycles_lists_the_plain_shapes_first() {
    let out = run(&[
        "diff",
        "ptx",
        "sc",
        "--shapes",
        "none",
        "--cycles-up-to",
        "4",
    ]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let head = text.lines().next().unwrap();
    assert!(
        head.contains(
            "every cycle of 2 to 4 edges, 2 to 4 threads and at most 2 accesses a thread over 31 edges (Rfe,Fre,Wse,Pod**,Fence.*.*d**): 231 cycles (2 edges: 0, 3: 0, 4: 231)"
        ),
        "{head}"
    );
    assert!(head.contains(" of 231 tests tell ptx from sc"), "{head}");
    let names = listed(&text);
    let mut first: Vec<&str> = names[..6].iter().map(String::as_str).collect();
    first.sort();
    assert_eq!(
        first,
        [
            "2+2W+cta0_1+gpu",
            "LB+cta0_1+gpu",
            "MP+cta0_1+gpu",
            "R+cta0_1+gpu",
            "S+cta0_1+gpu",
            "SB+cta0_1+gpu"
        ],
        "{text}"
    );
    // A fence at GPU scope on MP's writer alone does not forbid it.
    assert!(
        names.contains(&"MP+fence.sc.gpu+po+cta0_1+gpu".to_string()),
        "{text}"
    );
    // Fences on both threads at GPU scope do: never listed.
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("MP+fence.sc.gpu+fence.sc.gpu+")),
        "{text}"
    );
    // The same in JSON, with the enumeration spelled out.
    let out = run(&[
        "diff",
        "ptx",
        "sc",
        "--shapes",
        "none",
        "--cycles-up-to",
        "4",
        "--format",
        "json",
    ]);
    let json: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let e = &json["enumeration"];
    assert_eq!(e["vocabulary"].as_array().unwrap().len(), 31, "{e}");
    assert_eq!(e["cycles"], 231);
    assert_eq!(
        e["by_length"],
        serde_json::json!([[2, 0], [3, 0], [4, 231]])
    );
    assert_eq!(json["tests"], 231);
}

/// Cycles of up to 6 edges over plain program order: IRIW (four threads)
/// is among them, after every shorter cycle; `--max-threads 3` leaves it
/// out and says so in the bound.
#[test]
fn the_thread_bound_decides_whether_iriw_is_searched() {
    let args = [
        "diff",
        "ptx",
        "sc",
        "--shapes",
        "none",
        "--cycles-up-to",
        "6",
        "--edges",
        "Rfe,Fre,Wse,Pod**",
    ];
    let out = run(&args);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    let names = listed(&text);
    let iriw = names
        .iter()
        .position(|n| n.starts_with("IRIW+"))
        .unwrap_or_else(|| panic!("{text}"));
    let mp = names.iter().position(|n| n.starts_with("MP+")).unwrap();
    let wrc = names.iter().position(|n| n.starts_with("WRC+")).unwrap();
    assert!(mp < wrc && wrc < iriw, "{names:?}");
    let mut three = args.to_vec();
    three.extend(["--max-threads", "3"]);
    let out = run(&three);
    let text = stdout(&out);
    assert!(
        text.lines()
            .next()
            .unwrap()
            .contains("2 to 6 edges, 2 to 3 threads and at most 2 accesses a thread over 7 edges (Rfe,Fre,Wse,Pod**)"),
        "{text}"
    );
    assert!(
        !listed(&text).iter().any(|n| n.starts_with("IRIW")),
        "{text}"
    );
}

/// A model against itself: no difference, and the line says exactly what
/// was searched: the vocabulary's size, the bound, the cycles per length,
/// the tests.
#[test]
fn no_difference_names_the_bound_searched() {
    let out = run(&[
        "diff",
        "sc",
        "sc",
        "--shapes",
        "none",
        "--cycles-up-to",
        "5",
        "--edges",
        "Rfe,Fre,Wse,Pod**",
        "--max-accesses",
        "3",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "no difference among 65 tests (bound: no shape; no cycle; every cycle of 2 to 5 edges, 2 to 4 threads and at most 3 accesses a thread over 7 edges (Rfe,Fre,Wse,Pod**): 65 cycles (2 edges: 0, 3: 0, 4: 16, 5: 49); gen's default options)\n"
    );
}

/// `--out` writes the enumerated tests that differ, smallest first, each
/// ready to run under NEW; the files check under NEW as declared.
#[test]
fn diff_writes_the_enumerated_tests_that_differ() {
    let dir = scratch("cycles-out");
    let out = bin()
        .args([
            "diff",
            "ptx",
            "sc",
            "--shapes",
            "none",
            "--cycles-up-to",
            "4",
            "--edges",
            "Rfe,Fre,PodWW,PodRR",
            "--out",
        ])
        .arg(dir.join("out"))
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(1), "{text}{}", stderr(&out));
    assert_eq!(listed(&text), ["MP+cta0_1+gpu"], "{text}");
    let file = dir.join("out/MP+cta0_1+gpu.litmus");
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("=> forbidden"), "{written}");
    let check = bin()
        .args(["check", "--model", "sc"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

/// Every bad value of the enumeration's options: exit 2, one error line
/// naming the option and the value, then the usage.
#[test]
fn bad_enumeration_options_are_one_clear_error_each() {
    let base = ["diff", "ptx", "sc", "--shapes", "none"];
    for (extra, message) in [
        (&["--cycles-up-to", "9"][..], "error: --cycles-up-to `9`: cycles have 2 to 8 edges"),
        (&["--cycles-up-to", "1"], "error: --cycles-up-to `1`: cycles have 2 to 8 edges"),
        (&["--cycles-up-to", "many"], "error: `--cycles-up-to` needs a number, not `many`"),
        (
            &["--cycles-up-to", "4", "--edges", "Rfe,PodQQ"],
            "error: --edges `PodQQ`: a program-order edge is `Pos` or `Pod`",
        ),
        (
            &["--cycles-up-to", "4", "--edges", "Rfe,Pox*"],
            "error: --edges `Pox*`: matches no edge",
        ),
        (
            &["--cycles-up-to", "4", "--edges", "Rfe,DpAddrdW"],
            "error: --edges `DpAddrdW`: the IR names locations",
        ),
        (&["--cycles-up-to", "4", "--edges", ","], "error: `--edges` needs diy7 edge names"),
        (
            &[
                "--cycles-up-to",
                "4",
                "--edges",
                "Fence.*.*d**,Fence.*.*s**,Fence.release.*d**,Pod**,Rfe",
            ],
            "error: --edges `Fence.*.*d**,Fence.*.*s**,Fence.release.*d**,Pod**,Rfe`: more than 64 edges once `*` is expanded",
        ),
        (
            &["--cycles-up-to", "8"],
            "error: --cycles-up-to `8`: cycles of up to 7 edges, 2 to 4 threads and 2 accesses a thread, over 31 edges are more than 20000 (5873 of up to 6 edges); lower it or --max-threads, give fewer --edges, or raise --max-cycles",
        ),
        (
            &["--cycles-up-to", "4", "--max-cycles", "10"],
            "error: --cycles-up-to `4`: cycles of up to 4 edges, 2 to 4 threads and 2 accesses a thread, over 31 edges are more than 10 (0 of up to 3 edges)",
        ),
        (&["--cycles-up-to", "4", "--max-threads", "1"], "error: --max-threads `1`: a cycle has 2 threads or more"),
        (&["--cycles-up-to", "4", "--max-accesses", "0"], "error: --max-accesses `0`: a thread has one access or more"),
        (&["--cycles-up-to", "4", "--max-cycles", "0"], "error: --max-cycles `0`"),
        (&["--edges", "Rfe,Fre"], "error: `--edges` shapes the enumeration of cycles: give `--cycles-up-to N` too"),
        (&["--max-accesses", "3"], "error: `--max-accesses` shapes the enumeration"),
        (
            &["--cycles-up-to", "3", "--edges", "Rfe,Fre"],
            "error: `--shapes none`, no --cycle and no enumerated cycle: no candidate test",
        ),
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let out = run(&args);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        let first = err.lines().next().unwrap_or_default();
        assert!(first.starts_with(message), "{args:?}: {err}");
        assert!(err.contains("Usage: gpu-litmus"), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // mutants: the enumeration is the kill tests' and needs --kill-tests.
    let out = run(&["mutants", "ptx", "--evidence", "e", "--cycles-up-to", "4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`--cycles-up-to` chooses the candidates of --kill-tests"),
        "{}",
        stderr(&out)
    );
}

/// `mutants --kill-tests` over enumerated cycles: the surviving stronger
/// mutant (`irreflexive po; fr` → `acyclic`, which SB shows stronger) is
/// told apart by SB alone of the six cycles of up to 4 edges; the report
/// names the enumeration.
#[test]
fn kill_tests_come_from_enumerated_cycles() {
    let dir = scratch("cycles-kill");
    write(&dir, "tiny.cat", TINY);
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    write(&dir.join("tests"), "corr.litmus", CORR);
    write(&dir.join("tests"), "sb.litmus", SB);
    std::fs::create_dir_all(dir.join("evidence")).unwrap();
    let out = bin()
        .current_dir(&dir)
        .args([
            "mutants",
            "tiny.cat",
            "--evidence",
            "evidence",
            "tests",
            "--kill-tests",
            "kill",
            "--shapes",
            "none",
            "--cycles-up-to",
            "4",
            "--edges",
            "Rfe,Fre,Wse,Pod**",
        ])
        .output()
        .unwrap();
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}{}", stderr(&out));
    assert!(
        text.contains("every cycle of 2 to 4 edges, 2 to 4 threads and at most 2 accesses a thread over 7 edges (Rfe,Fre,Wse,Pod**): 6 cycles (2 edges: 0, 3: 0, 4: 6)"),
        "{text}"
    );
    let number = text
        .lines()
        .find(|l| l.ends_with("`irreflexive` → `acyclic` in the check `sb`"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    let line = text
        .lines()
        .find(|l| l.starts_with(&format!("  #{number}: ")))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.ends_with(&format!(
            ": 1 test in kill/{number} (first: SB+cta0_1+gpu.litmus)"
        )),
        "{line}"
    );
    let file = dir.join(format!("kill/{number}/SB+cta0_1+gpu.litmus"));
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(
        written.contains("the model allows and the mutant forbids: P0:r0=0; P1:r0=0"),
        "{written}"
    );
    let check = bin()
        .arg("check")
        .arg("--model")
        .arg(Path::new(&dir).join("tiny.cat"))
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(check.status.code(), Some(0), "{}", stdout(&check));
}

/// Both commands' help lists the enumeration's options, as clap lists
/// options.
#[test]
fn help_lists_the_enumeration_options() {
    for command in ["diff", "mutants"] {
        let out = run(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0));
        let help = stdout(&out);
        for option in [
            "--shapes <LIST>",
            "--cycles-up-to <N>",
            "--edges <LIST>",
            "--max-threads <N>",
            "--max-accesses <N>",
            "--max-cycles <N>",
        ] {
            assert!(
                help.contains(&format!("\n      {option}\n")),
                "{command}: {option}:\n{help}"
            );
        }
    }
}
