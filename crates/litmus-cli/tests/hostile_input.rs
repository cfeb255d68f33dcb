//! Careless and hostile input (issue 44): each trial of the issue's table
//! as a case. Every command must end within [`LIMIT`] with exit 1 or 2 and
//! a line saying what and where (or, where the input is fine, the right
//! answer): no abort, no hang, nothing overwritten, nothing run that the
//! user did not type.
//!
//! Unix only: the trials are symbolic links, FIFOs, `/dev/zero` and a line
//! pasted into `sh`.
#![cfg(unix)]

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};
use litmus_evidence::store::Writer;
use litmus_evidence::{Evidence, Record, Run};

/// How long any one trial may take.
const LIMIT: Duration = Duration::from_secs(10);

/// Runs `cmd` to its end, failing the test if it takes longer than
/// [`LIMIT`] (it is killed first, so that a hang fails rather than blocks
/// the suite).
fn within_limit(mut cmd: Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > LIMIT {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!(
                "still running after {LIMIT:?}; stdout: {}\nstderr: {}",
                stdout(&out),
                stderr(&out)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `threads` threads, each storing its number to `x`.
fn many_writers(name: &str, threads: usize) -> String {
    let heads: Vec<String> = (0..threads)
        .map(|i| format!("P{i}@cta {i},gpu 0"))
        .collect();
    let body: Vec<String> = (0..threads)
        .map(|i| format!("st.weak x, {}", i + 1))
        .collect();
    format!(
        "PTX {name}\n{{ x=0; }}\n {} ;\n {} ;\nexists (x == 1)\n",
        heads.join(" | "),
        body.join(" | ")
    )
}

/// A record of `src` that showed `histogram`, as `run --evidence` writes
/// it.
fn record_of(src: &str, histogram: &[(Vec<u32>, u64)]) -> Record {
    let test = litmus_text::parse(src).unwrap();
    let run = Run {
        histogram,
        instances: histogram.iter().map(|(_, n)| n).sum(),
        unfinished: 0,
        device: "NVIDIA H100",
        knobs: "ctas=4",
        seed: 7,
    };
    Record::of_run(&test, &run, "hostile")
}

/// An evidence folder holding one record of [`MP_RELACQ`] (whose outcomes
/// the model allows).
fn evidence_folder(dir: &Path) -> PathBuf {
    let ev = dir.join("ev");
    let mut w = Writer::create(&ev).unwrap();
    w.append(record_of(MP_RELACQ, &[(vec![1, 1], 10), (vec![0, 0], 5)]))
        .unwrap();
    ev
}

/// The one file of an [`evidence_folder`].
fn record_file(ev: &Path) -> PathBuf {
    std::fs::read_dir(ev)
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path()
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// `gate --model ptx --evidence EV`, run [`within_limit`]: its exit code
/// and its output, stdout then stderr.
fn gate_ptx(ev: &Path) -> (i32, String) {
    let mut cmd = bin();
    cmd.args(["gate", "--model", "ptx", "--evidence"]).arg(ev);
    let o = within_limit(cmd);
    (code(&o), format!("{}{}", stdout(&o), stderr(&o)))
}

#[test]
fn a_test_of_250_threads_is_refused_in_one_line() {
    let dir = scratch("hostile-250");
    let file = write(&dir, "w250.litmus", &many_writers("W250", 250));
    let mut cmd = bin();
    cmd.args(["check"]).arg(&file);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 1, "{}{}", stdout(&o), stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.contains("too large to check: 251 events, more than the bound of 96"),
        "{text}"
    );
    // The bound is an option: raised, the same test is decided (writers
    // only: the last write is any of them).
    let file = write(&dir, "w120.litmus", &many_writers("W120", 120));
    let mut cmd = bin();
    cmd.args(["check", "--max-events", "200"]).arg(&file);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("120 allowed outcomes"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn declared_locations_by_the_hundred_thousand_are_refused() {
    let dir = scratch("hostile-locations");
    let decl: String = (0..100_000).map(|i| format!("l{i}=0; ")).collect();
    let src = format!(
        "PTX LOCS\n{{ x=0; {decl}}}\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n"
    );
    let file = write(&dir, "locs.litmus", &src);
    let mut cmd = bin();
    cmd.args(["check"]).arg(&file);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(
        stdout(&o).contains("too large to check: 100001 locations"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_record_of_150_threads_is_one_failure_of_the_gate_not_an_abort() {
    let dir = scratch("hostile-record");
    let ev = evidence_folder(&dir);
    let big = many_writers("W150", 150);
    let mut w = Writer::create(&ev).unwrap();
    w.append(record_of(&big, &[(vec![1], 3)])).unwrap();
    for args in [&["gate", "--model", "ptx"][..], &["report"][..]] {
        let mut cmd = bin();
        cmd.args(args).arg("--evidence").arg(&ev);
        if args[0] == "report" {
            cmd.arg("--html").arg(dir.join("page.html"));
        }
        let o = within_limit(cmd);
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert_ne!(o.status.code(), None, "killed by a signal: {all}");
        if args[0] == "gate" {
            assert_eq!(code(&o), 1, "{all}");
            assert_eq!(all.matches("too large to check").count(), 1, "{all}");
            // The other record was judged all the same.
            assert!(
                all.contains("2 tests (1 with evidence), 1 records"),
                "{all}"
            );
            assert!(all.contains(", 1 failure,"), "{all}");
        } else {
            assert_eq!(code(&o), 0, "{all}");
        }
    }
}

#[test]
fn no_output_overwrites_an_input() {
    let dir = scratch("hostile-clobber");
    let ev = evidence_folder(&dir);
    let record = record_file(&ev);
    let before = std::fs::read(&record).unwrap();
    let trials: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "report".into(),
            "--evidence".into(),
            ev.clone().into(),
            "--html".into(),
            record.clone().into(),
        ],
        vec![
            "report".into(),
            "--evidence".into(),
            ev.clone().into(),
            "--html".into(),
            ev.join("new.html").into(),
        ],
        vec![
            "mutants".into(),
            "ptx".into(),
            "--evidence".into(),
            ev.clone().into(),
            "--out".into(),
            record.clone().into(),
        ],
        vec![
            "evidence".into(),
            "merge".into(),
            ev.join("sub").into(),
            ev.clone().into(),
        ],
        vec![
            "evidence".into(),
            "merge".into(),
            ev.clone().into(),
            ev.clone().into(),
        ],
    ];
    for args in trials {
        let mut cmd = bin();
        cmd.args(&args);
        let o = within_limit(cmd);
        assert_eq!(code(&o), 1, "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("the output is, or is inside, the input"),
            "{err}"
        );
        assert_eq!(std::fs::read(&record).unwrap(), before, "{args:?}");
    }
    assert!(!ev.join("new.html").exists() && !ev.join("sub").exists());
    // A link as the output: through it to an input is refused; to any
    // other file, the link is replaced and its target left alone.
    let link = dir.join("link.html");
    std::os::unix::fs::symlink(&record, &link).unwrap();
    let mut cmd = bin();
    cmd.args(["report", "--evidence"])
        .arg(&ev)
        .arg("--html")
        .arg(&link);
    assert_eq!(code(&within_limit(cmd)), 1);
    assert_eq!(std::fs::read(&record).unwrap(), before);
    let victim = write(&dir, "victim.txt", "keep me\n");
    let link = dir.join("other.html");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let mut cmd = bin();
    cmd.args(["report", "--evidence"])
        .arg(&ev)
        .arg("--html")
        .arg(&link);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n");
    assert!(std::fs::read_to_string(&link).unwrap().contains("<html"));
}

/// A command line and the variables it runs with.
type Trial<'a> = (Vec<std::ffi::OsString>, Vec<(&'a str, &'a Path)>);

/// Each `(args, environment)` of `trials` ends with `exit` and one line
/// refusing the output.
fn refused_as_clobber(trials: &[Trial], exit: i32) {
    for (args, vars) in trials {
        let mut cmd = bin();
        cmd.args(args);
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let o = within_limit(cmd);
        let err = stderr(&o);
        assert_eq!(code(&o), exit, "{args:?} {vars:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.contains("the output is, or is inside, the input"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn import_diff_gen_and_report_folders_never_overwrite_inputs() {
    let dir = scratch("hostile-clobber-2");
    let ev = evidence_folder(&dir);
    let test = write(&dir, "mp.litmus", MP_RELACQ);
    let log = write(&dir, "run.jsonl", "{}\n");
    let cat = dir.join("a.cat");
    std::fs::copy(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../litmus-model/models/sc.cat"),
        &cat,
    )
    .unwrap();
    let cat_link = dir.join("cat-link");
    std::os::unix::fs::symlink(&cat, &cat_link).unwrap();
    let keep = [&test, &log, &cat];
    let before: Vec<Vec<u8>> = keep.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let os = |v: &[&dyn AsRef<std::ffi::OsStr>]| -> Vec<std::ffi::OsString> {
        v.iter().map(|a| a.as_ref().to_os_string()).collect()
    };
    // Exit 1, as each command's other input errors.
    refused_as_clobber(
        &[
            (
                os(&[
                    &"evidence",
                    &"import",
                    &"--into",
                    &log,
                    &"--tests",
                    &test,
                    &log,
                ]),
                vec![],
            ),
            (
                os(&[
                    &"evidence",
                    &"import",
                    &"--out",
                    &test,
                    &"--tests",
                    &test,
                    &log,
                ]),
                vec![],
            ),
            (
                os(&[
                    &"diff",
                    &cat,
                    &"sc",
                    &"--cycles-up-to",
                    &"3",
                    &"--out",
                    &cat,
                ]),
                vec![],
            ),
            (
                os(&[
                    &"diff",
                    &"sc",
                    &cat,
                    &"--cycles-up-to",
                    &"3",
                    &"--out",
                    &cat_link,
                ]),
                vec![],
            ),
            (
                os(&[&"gen", &"--model", &cat, &"--out", &cat, &"MP"]),
                vec![],
            ),
            (
                os(&[&"gen", &"--model", &cat, &"--out", &cat_link, &"MP"]),
                vec![],
            ),
        ],
        1,
    );
    // The runner's report folder: a content error, exit 2 before anything
    // runs.
    let inside = ev.join("reports");
    refused_as_clobber(
        &[
            (os(&[&"run", &"--report", &test, &test]), vec![]),
            (
                os(&[&"run", &"--evidence", &ev, &"--report", &ev, &test]),
                vec![],
            ),
            (
                os(&[&"run", &test]),
                vec![("LITMUS_EVIDENCE", &ev), ("LITMUS_REPORT_DIR", &inside)],
            ),
            (
                os(&[&"campaign", &"--evidence", &ev, &"--report", &inside, &test]),
                vec![],
            ),
        ],
        2,
    );
    for (p, b) in keep.iter().zip(&before) {
        assert_eq!(&std::fs::read(p).unwrap(), b, "{}", p.display());
    }
    assert!(!inside.exists());
    // Outputs elsewhere are written.
    let mut cmd = bin();
    cmd.args(["gen", "--model"])
        .arg(&cat)
        .arg("--out")
        .arg(dir.join("gen"))
        .arg("MP");
    let o = within_limit(cmd);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut cmd = bin();
    cmd.arg("run")
        .arg("--report")
        .arg(dir.join("rep"))
        .arg(&test);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.join("rep").join("junit-gpu-litmus.xml").exists());
}

#[test]
fn link_loops_and_links_out_of_a_test_folder_are_refused_one_line_each() {
    let dir = scratch("hostile-loops");
    let ev = evidence_folder(&dir);
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    write(&tests, "mp.litmus", MP_RELACQ);
    std::os::unix::fs::symlink(".", tests.join("a")).unwrap();
    std::os::unix::fs::symlink(".", tests.join("b")).unwrap();
    std::os::unix::fs::symlink("/", tests.join("root")).unwrap();
    let mut cmd = bin();
    cmd.args(["gate", "--model", "ptx", "--evidence"])
        .arg(&ev)
        .arg(&tests);
    let o = within_limit(cmd);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(code(&o), 1, "{all}");
    assert!(all.contains("gate: 1 tests (1 with evidence)"), "{all}");
    assert_eq!(all.matches("a symbolic link loop").count(), 2, "{all}");
    assert_eq!(all.matches("a symbolic link out of").count(), 1, "{all}");
    for args in [&["campaign"][..], &["tune"][..]] {
        let mut cmd = bin();
        cmd.args(args).arg(&tests);
        let o = within_limit(cmd);
        assert_eq!(code(&o), 1, "{args:?}: {}{}", stdout(&o), stderr(&o));
        assert!(
            stderr(&o).contains("a symbolic link loop"),
            "{}",
            stderr(&o)
        );
    }
    let log = write(&dir, "empty.log", "\n");
    let mut cmd = bin();
    cmd.args(["evidence", "import", "--into"])
        .arg(dir.join("imported"))
        .arg("--tests")
        .arg(&tests)
        .arg(&log);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 3, "{}", stderr(&o));
}

#[test]
fn devices_fifos_and_links_out_of_an_evidence_folder_are_refused() {
    let dir = scratch("hostile-devices");
    let ev = evidence_folder(&dir);
    let outside = evidence_folder(&dir.join("elsewhere"));
    std::os::unix::fs::symlink("/dev/zero", ev.join("z.jsonl")).unwrap();
    std::os::unix::fs::symlink(&outside, ev.join("out")).unwrap();
    let fifo = ev.join("p.jsonl");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 1, "{all}");
    assert!(all.contains("p.jsonl: not a regular file"), "{all}");
    assert!(all.contains("z.jsonl: a symbolic link out of"), "{all}");
    assert!(all.contains("out: a symbolic link out of"), "{all}");
    let out = dir.join("merged");
    let mut cmd = bin();
    cmd.args(["evidence", "merge"]).arg(&out).arg(&ev);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 3, "{}", stderr(&o));
    // Only the folder's own record, none from outside it.
    assert_eq!(Evidence::read(&[out]).unwrap().records.len(), 1);
}

#[test]
fn a_deep_cat_chain_is_an_error_not_a_stack_overflow() {
    let dir = scratch("hostile-cat");
    let test = write(&dir, "mp.litmus", MP_RELACQ);
    for (n, says) in [
        (30_000, "an expression holds more than 4000 operators"),
        (3_000, "definitions nest deeper than 400 operators"),
    ] {
        let chain = vec!["po"; n].join(" | ");
        let cat = write(
            &dir,
            "deep.cat",
            &format!("\"deep\"\nlet r = {chain}\nacyclic r as A\n"),
        );
        let mut cmd = bin();
        cmd.arg("check").arg("--model").arg(&cat).arg(&test);
        let o = within_limit(cmd);
        assert_eq!(code(&o), 2, "{}", stderr(&o));
        assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
    }
}

#[test]
fn control_characters_in_names_are_printed_escaped() {
    let dir = scratch("hostile-names");
    let src = MP_RELACQ.replace("PTX MP-relacq", "PTX MP\u{1b}[2J\u{1b}]0;owned\u{7}");
    let file = write(&dir, "esc.litmus", &src);
    let mut cmd = bin();
    cmd.arg("check").arg(&file);
    let o = within_limit(cmd);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text:?}"
    );
    assert!(text.contains(r"MP\u{1b}[2J\u{1b}]0;owned\u{7}"), "{text}");
    let ev = dir.join("ev");
    let mut w = Writer::create(&ev).unwrap();
    w.append(record_of(&src, &[(vec![1, 0], 3)])).unwrap();
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 1, "the weak outcome is forbidden: {all}");
    assert!(!all.contains('\u{1b}') && !all.contains('\u{7}'), "{all:?}");
    assert!(all.contains(r"MP\u{1b}[2J"), "{all}");
}

/// Whether `text` holds a character a terminal would act on: a control
/// character other than a line break or tab, or a bidi override or
/// isolate.
fn acts_on_terminal(text: &str) -> bool {
    text.chars().any(|c| {
        (c.is_control() && c != '\n' && c != '\t')
            || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    })
}

#[test]
fn control_and_bidi_characters_are_escaped_by_every_command_and_in_json() {
    let dir = scratch("hostile-names-2");
    // The name holds ESC, BEL; the file's name CR and every bidi override
    // and isolate (a test name cannot hold those: the reader refuses them).
    let src = MP_RELACQ.replace("PTX MP-relacq", "PTX MP\u{1b}[2J\u{1b}]0;owned\u{7}");
    let bidi: String = ('\u{202a}'..='\u{202e}')
        .chain('\u{2066}'..='\u{2069}')
        .collect();
    let file = write(&dir, &format!("mp\r{bidi}.litmus"), &src);
    let ev = dir.join("ev");
    std::fs::create_dir_all(&ev).unwrap();
    let escaped_name = r"MP\u{1b}[2J\u{1b}]0;owned\u{7}";
    let trials: Vec<(Vec<std::ffi::OsString>, Option<&str>)> = vec![
        (
            vec!["explain".into(), file.clone().into()],
            Some(escaped_name),
        ),
        (
            vec!["campaign".into(), file.clone().into()],
            Some(r"\r\u{202a}\u{202b}\u{202c}\u{202d}\u{202e}\u{2066}"),
        ),
        (
            vec![
                "mutants".into(),
                "sc".into(),
                "--evidence".into(),
                ev.clone().into(),
                file.clone().into(),
            ],
            None,
        ),
        (
            vec![
                "tune".into(),
                "--tuning".into(),
                dir.join("t.toml").into(),
                file.clone().into(),
            ],
            None,
        ),
        (
            vec![
                "check".into(),
                "--format".into(),
                "json".into(),
                file.clone().into(),
            ],
            None,
        ),
        (
            vec![
                "run".into(),
                "--format".into(),
                "json".into(),
                file.clone().into(),
            ],
            None,
        ),
        (
            vec![
                "campaign".into(),
                "--format".into(),
                "json".into(),
                file.clone().into(),
            ],
            None,
        ),
    ];
    for (args, says) in trials {
        let mut cmd = bin();
        cmd.args(&args);
        let o = within_limit(cmd);
        let (out, err) = (stdout(&o), stderr(&o));
        assert!(!acts_on_terminal(&out), "{args:?}: {out:?}");
        assert!(!acts_on_terminal(&err), "{args:?}: {err:?}");
        if let Some(says) = says {
            assert!(out.contains(says), "{args:?}: {out}");
        }
        if args[1] == "--format" {
            // Still JSON, and the names read back as they are.
            let first: serde_json::Value = serde_json::from_str(out.lines().next().unwrap())
                .unwrap_or_else(|e| panic!("{args:?}: {e}: {out}"));
            assert_eq!(first["file"], file.display().to_string(), "{out}");
            assert!(out.contains(r"\u202e"), "{out}");
        }
    }
}

/// A fake `gpu-litmus` and a fake `id` in a folder of their own: each
/// records how it was called in `log`, so that a pasted line shows what it
/// ran.
fn fake_tools(dir: &Path, log: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let log = log.display();
    let tools = [
        (
            "gpu-litmus",
            format!(
                "#!/bin/sh\nprintf 'LITMUS_TUNING=%s\\n' \"$LITMUS_TUNING\" >> '{log}'\nfor a in \"$@\"; do printf 'arg=%s\\n' \"$a\" >> '{log}'; done\n"
            ),
        ),
        ("id", format!("#!/bin/sh\necho 'id ran' >> '{log}'\n")),
    ];
    for (name, script) in tools {
        let path = write(&bin, name, &script);
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    bin
}

/// Pastes `line` into `sh` with only `bin` on PATH; what sh printed.
fn paste(line: &str, bin: &Path) -> String {
    let o = Command::new("/bin/sh")
        .arg("-c")
        .arg(line)
        .env_clear()
        .env("PATH", bin)
        .output()
        .unwrap();
    format!("{}{}", stdout(&o), stderr(&o))
}

#[test]
fn a_pasted_reproduce_line_runs_gpu_litmus_on_that_file_and_nothing_else() {
    use litmus_runner::runner::{judge, Hardware, Source};
    let dir = scratch("hostile-paste");
    let file = write(&dir, "a b;echo PWNED $(id).litmus", MP_RELACQ);
    let tuning = dir.join("my tunings").join("t.toml");
    let log = dir.join("log");
    let tools = fake_tools(&dir, &log);
    // The line as every format gives it, for a run with a tuning file.
    let test = litmus_text::parse(MP_RELACQ).unwrap();
    let config = litmus_runner::Config {
        model: litmus_model::model_by_name("ptx").unwrap(),
        options: litmus_model::Options::default(),
        knobs: litmus_hw::Knobs::default(),
        report_dir: None,
        hardware: false,
        tuning: None,
        evidence_dir: None,
        portfolio: litmus_runner::portfolio::Portfolio::off(),
    };
    let name = file.display().to_string();
    let mut report = judge(
        &test,
        &config,
        Hardware::Skipped("no GPU".into()),
        Vec::new(),
        Source::File(name.clone()),
    );
    report.knobs = Some(litmus_hw::Knobs {
        tuning: Some(tuning.display().to_string()),
        ..litmus_hw::Knobs::default()
    });
    let line = litmus_runner::report::text::reproduce(&report);
    let said = paste(&line, &tools);
    assert!(!said.contains("PWNED"), "{line}: {said}");
    let ran = std::fs::read_to_string(&log).unwrap();
    let want = format!(
        "LITMUS_TUNING={}\narg=run\narg=--model\narg=ptx\narg={name}\n",
        tuning.display()
    );
    assert_eq!(ran, want, "{line}");
    // And the line `run --format json` prints for that file.
    std::fs::remove_file(&log).unwrap();
    let mut cmd = bin();
    cmd.args(["run", "--format", "json"]).arg(&file);
    let o = within_limit(cmd);
    let json: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    let line = json["reproduce"].as_str().unwrap();
    let said = paste(line, &tools);
    assert!(!said.contains("PWNED"), "{line}: {said}");
    let ran = std::fs::read_to_string(&log).unwrap();
    assert!(
        ran.ends_with(&format!("arg=run\narg=--model\narg=ptx\narg={name}\n")),
        "{line}: {ran}"
    );
    assert!(!ran.contains("id ran"), "{ran}");
}

#[test]
fn merges_killed_at_random_moments_leave_their_output_whole_or_absent() {
    let dir = scratch("hostile-kill");
    let input = dir.join("in");
    let records = 4000;
    let mut w = Writer::create(&input).unwrap();
    let record = record_of(MP_RELACQ, &[(vec![1, 1], 10), (vec![0, 0], 5)]);
    for _ in 0..records {
        w.append(record.clone()).unwrap();
    }
    let merge = |out: &Path| {
        let mut cmd = bin();
        cmd.args(["evidence", "merge"]).arg(out).arg(&input);
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        cmd
    };
    let start = Instant::now();
    assert!(merge(&dir.join("whole")).status().unwrap().success());
    let took = start.elapsed();
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos() as u64
        | 1;
    let mut outcomes = [0usize; 2];
    for i in 0..20 {
        // xorshift: a moment in the i-th of 20 slices of the merge's last
        // 70% (reading comes first, writing last) and just past it, so that
        // the kills land all along the writing, wherever it falls.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let slice = (i as f64 + (seed % 1000) as f64 / 1000.0) / 20.0;
        let at = took.mul_f64(0.35 + 0.75 * slice);
        let out = dir.join(format!("out{i}"));
        let mut child = merge(&out).spawn().unwrap();
        std::thread::sleep(at);
        let _ = child.kill();
        let _ = child.wait();
        let read = if out.exists() {
            Evidence::read(std::slice::from_ref(&out)).unwrap()
        } else {
            Evidence::default()
        };
        assert!(
            read.problems.is_empty(),
            "merge {i}, killed after {at:?}: {:?}",
            read.problems
        );
        assert!(
            read.records.is_empty() || read.records.len() == records,
            "merge {i}, killed after {at:?}: {} of {records} records",
            read.records.len()
        );
        outcomes[usize::from(!read.records.is_empty())] += 1;
    }
    eprintln!(
        "killed merges: {} left nothing, {} whole",
        outcomes[0], outcomes[1]
    );
}

#[test]
fn records_that_contradict_their_test_are_refused_by_file_and_line() {
    let dir = scratch("hostile-values");
    let ev = evidence_folder(&dir);
    let good = record_of(MP_RELACQ, &[(vec![1, 1], 10)]).to_json();
    let mut extra = good.clone();
    extra["histogram"][0]["outcome"] = serde_json::json!([1, 1, 7]);
    extra["seq"] = serde_json::json!(1);
    let mut renamed = good.clone();
    renamed["observables"] = serde_json::json!(["P0:r9", "P1:r1"]);
    renamed["seq"] = serde_json::json!(2);
    let mut huge = good;
    huge["observables"] = serde_json::json!(vec!["x"; 5000]);
    huge["seq"] = serde_json::json!(3);
    let lines: Vec<String> = [extra, renamed, huge]
        .iter()
        .map(|v| v.to_string())
        .collect();
    let bad = write(&ev, "bad.jsonl", &(lines.join("\n") + "\n"));
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 1, "{all}");
    let at = |line: usize| format!("{}:{line}: corrupt record: ", bad.display());
    assert!(
        all.contains(&format!(
            "{}outcome [1, 1, 7] has 3 values for 2 observables",
            at(1)
        )),
        "{all}"
    );
    assert!(
        all.contains(&format!(
            "{}observables [P0:r9, P1:r1] are not the recorded test's [P1:r0, P1:r1]",
            at(2)
        )),
        "{all}"
    );
    assert!(
        all.contains(&format!("{}observables: 5000, more than the 4096", at(3))),
        "{all}"
    );
    // The good record is judged all the same.
    assert!(all.contains("1 records"), "{all}");
}

#[test]
fn bad_tuning_files_are_refused_with_the_line_and_no_usage_text() {
    let dir = scratch("hostile-tuning");
    let test = write(&dir, "mp.litmus", MP_RELACQ);
    let name = "MP-relacq";
    let cases = [
        (
            format!("[tests.\"{name}\"]\nweak = 1\nweak_per_s_low = inf\n"),
            "line 3: test `MP-relacq`: `weak_per_s_low` must be a finite non-negative number",
        ),
        (
            format!(
                "# tuned\n\n[tests.\"{name}\".knobs]\nLITMUS_STRIDE = \"4\"\nLITMUS_CTAS = \"\"\n"
            ),
            "line 5: test `MP-relacq`: knob `LITMUS_CTAS` is empty",
        ),
        (
            format!("[tests.\"{name}\".knobs]\nLITMUS_STRIDE = \"4294967295\"\n"),
            "line 2: test `MP-relacq`: bad value `4294967295` for LITMUS_STRIDE",
        ),
        (
            format!("[tests.\"{name}\".knobs]\nLITMUS_STRESS = \"4294967295:1\"\n"),
            "line 2: test `MP-relacq`: bad value `4294967295:1` for LITMUS_STRESS",
        ),
        (
            format!("[tests.\"{name}\".knobs]\nLITMUS_PRE_STRESS = \"4294967295\"\n"),
            "line 2: test `MP-relacq`: bad value `4294967295` for LITMUS_PRE_STRESS",
        ),
    ];
    for (text, says) in cases {
        let file = write(&dir, "t.toml", &text);
        for by_variable in [false, true] {
            let mut cmd = bin();
            cmd.arg("run");
            if by_variable {
                cmd.env("LITMUS_TUNING", &file);
            } else {
                cmd.arg("--tuning").arg(&file);
            }
            cmd.arg(&test);
            let o = within_limit(cmd);
            let err = stderr(&o);
            assert_eq!(code(&o), 2, "{text}: {err}");
            assert_eq!(err.lines().count(), 1, "{text}: {err}");
            assert!(err.contains(says), "{text}: {err}");
        }
    }
}

/// Ten threads that each write and read `x`: 21 events, within the
/// bound, but minutes of search.
fn ten_writers_and_readers() -> String {
    let heads: Vec<String> = (0..10).map(|i| format!("P{i}@cta {i},gpu 0")).collect();
    let writes: Vec<String> = (0..10).map(|i| format!("st.weak x, {}", i + 1)).collect();
    let reads: Vec<String> = (0..10).map(|_| "ld.weak r0, x".to_string()).collect();
    format!(
        "PTX RW10\n{{ x=0; }}\n {} ;\n {} ;\n {} ;\nexists (P0:r0 == 1)\n",
        heads.join(" | "),
        writes.join(" | "),
        reads.join(" | ")
    )
}

#[test]
fn a_record_the_model_cannot_decide_in_time_is_one_failure_of_the_gate() {
    let dir = scratch("hostile-slow");
    let ev = evidence_folder(&dir);
    let slow = ten_writers_and_readers();
    let mut w = Writer::create(&ev).unwrap();
    w.append(record_of(&slow, &[(vec![0], 3)])).unwrap();
    // The gate's default bound: 5 s.
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 1, "{all}");
    assert_eq!(
        all.matches("budget exceeded: max_time = 5s").count(),
        1,
        "{all}"
    );
    assert!(all.contains(", 1 failure,"), "{all}");
}

#[test]
fn check_and_explain_end_a_search_that_would_take_minutes_in_one_line() {
    let dir = scratch("hostile-slow-check");
    let file = write(&dir, "rw10.litmus", &ten_writers_and_readers());
    // By default (5 s), in text and JSON, and explain the same.
    for args in [
        vec!["check"],
        vec!["check", "--format", "json"],
        vec!["explain"],
    ] {
        let mut cmd = bin();
        cmd.args(&args).arg(&file);
        let o = within_limit(cmd);
        let all = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(code(&o), 1, "{args:?}: {all}");
        assert_eq!(all.lines().count(), 1, "{args:?}: {all}");
        assert!(
            all.contains("rw10.litmus:1:5: budget exceeded: max_time = 5s"),
            "{args:?}: {all}"
        );
    }
    // `--max-seconds` sets it.
    let mut cmd = bin();
    cmd.args(["check", "--max-seconds", "1"]).arg(&file);
    let o = within_limit(cmd);
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert_eq!(code(&o), 1, "{all}");
    assert!(all.contains("budget exceeded: max_time = 1s"), "{all}");
}

#[test]
fn gzipped_evidence_is_read_and_gzip_that_is_not_whole_is_refused_in_one_line() {
    let dir = scratch("hostile-gzip");
    let ev = evidence_folder(&dir);
    let file = record_file(&ev);
    let zipped = Command::new("gzip").arg("-9").arg(&file).status().unwrap();
    assert!(zipped.success());
    let gz = PathBuf::from(format!("{}.gz", file.display()));
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 0, "{all}");
    assert!(all.contains(" 1 records"), "{all}");

    let bytes = std::fs::read(&gz).unwrap();
    std::fs::write(&gz, &bytes[..bytes.len() / 2]).unwrap();
    let text = write(&ev, "text.jsonl.gz", "{\"not\": \"gzip\"}\n");
    let (exit, all) = gate_ptx(&ev);
    assert_eq!(exit, 1, "{all}");
    for path in [&gz, &text] {
        let line = format!("error: {}: not whole gzip data (", path.display());
        assert_eq!(all.matches(&line).count(), 1, "{line}\n{all}");
    }
    assert!(all.contains("after 0 bytes inflated; refused"), "{all}");
}
