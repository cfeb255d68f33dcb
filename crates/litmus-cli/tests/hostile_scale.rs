//! Property runs at scale (issue 44): random `.litmus` tests, cat models
//! and evidence files up to ten times the size of the repository's largest
//! (4 threads, 6 locations, conditions a few levels deep), through the
//! reader, the checker, the cat compiler and the evidence reader. Whatever
//! comes in, each returns a result or an error; none panics or overflows
//! its stack (a test thread's 2 MiB, smaller than a command's 8).
//!
//! The inputs come from a seeded generator, so that a failure prints the
//! seed and the input that reproduce it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::time::Duration;

use litmus_evidence::{Evidence, Record, Run};
use litmus_model::cat::CatModel;
use litmus_model::{check, model_by_name, Options};

/// xorshift64: small, seeded, enough for inputs.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A budget that keeps each check short: the point is that a check ends,
/// not what it finds.
fn quick() -> Options {
    Options {
        max_steps: 20_000,
        max_time: Some(Duration::from_millis(200)),
        ..Options::default()
    }
}

/// A random test: up to 40 threads, 60 locations (now and then 2,000
/// declared), 6 instructions a thread, and a condition nested up to 1,500
/// deep (past the reader's bound of nesting now and then).
fn litmus_text(rng: &mut Rng) -> String {
    let threads = 1 + rng.below(40) as usize;
    let locations = 1 + if rng.below(20) == 0 {
        2000
    } else {
        rng.below(60) as usize
    };
    let rows = rng.below(7) as usize;
    let mut regs = vec![0usize; threads];
    let mut cells = vec![vec![String::new(); threads]; rows];
    for (t, regs) in regs.iter_mut().enumerate() {
        for row in cells.iter_mut() {
            if rng.below(4) == 0 {
                continue;
            }
            let loc = format!("l{}", rng.below(locations as u64));
            row[t] = match rng.below(6) {
                0 | 1 => format!("st.weak {loc}, {}", 1 + rng.below(3)),
                2 => format!("st.release.gpu {loc}, {}", 1 + rng.below(3)),
                3 => {
                    *regs += 1;
                    format!("ld.acquire.gpu r{}, {loc}", *regs - 1)
                }
                4 => "fence.sc.gpu".to_string(),
                _ => {
                    *regs += 1;
                    format!("ld.weak r{}, {loc}", *regs - 1)
                }
            };
        }
    }
    let decl: String = (0..locations).map(|i| format!("l{i}=0; ")).collect();
    let heads: Vec<String> = (0..threads)
        .map(|t| format!("P{t}@cta {},gpu 0", rng.below(4)))
        .collect();
    let mut text = format!("PTX fuzz\n{{ {decl}}}\n {} ;\n", heads.join(" | "));
    for row in &cells {
        text.push_str(&format!(" {} ;\n", row.join(" | ")));
    }
    let atom = |rng: &mut Rng| {
        let t = rng.below(threads as u64) as usize;
        if regs[t] > 0 && rng.below(2) == 0 {
            format!("P{t}:r{} == {}", rng.below(regs[t] as u64), rng.below(3))
        } else {
            format!("l{} == {}", rng.below(locations as u64), rng.below(3))
        }
    };
    let depth = if rng.below(10) == 0 {
        rng.below(1500)
    } else {
        rng.below(8)
    } as usize;
    let ops = ["/\\", "\\/"];
    let mut cond = atom(rng);
    for _ in 0..depth {
        cond = format!("({cond} {} {})", rng.pick(&ops), atom(rng));
    }
    text.push_str(&format!("exists ({cond})\n"));
    text
}

#[test]
fn large_litmus_tests_are_read_and_checked_or_refused_without_a_panic() {
    let mut rng = Rng(0x44_5ca1e);
    let ptx = model_by_name("ptx").unwrap();
    let (mut checked, mut refused, mut errors) = (0, 0, 0);
    for n in 0..150 {
        let src = litmus_text(&mut rng);
        let run = catch_unwind(AssertUnwindSafe(|| match litmus_text::parse(&src) {
            Err(_) => (0, 1, 0),
            Ok(test) => match check(&test, ptx, &quick()) {
                Ok(_) => (1, 0, 0),
                Err(_) => (0, 0, 1),
            },
        }));
        match run {
            Ok((c, r, e)) => (checked, refused, errors) = (checked + c, refused + r, errors + e),
            Err(_) => panic!("input {n} panicked (see above):\n{src}"),
        }
    }
    println!("litmus: {checked} checked, {refused} refused by the reader, {errors} refused by the checker");
    // Each path is exercised, or the run proves little.
    assert!(
        checked > 0 && refused > 0 && errors > 0,
        "{checked} {refused} {errors}"
    );
}

/// A random cat expression: chains up to 6,000 operators long and
/// parentheses up to 150 deep (past the compiler's bounds now and then).
fn cat_expr(rng: &mut Rng, budget: &mut usize) -> String {
    let names = [
        "po", "rf", "co", "fr", "loc", "ext", "int", "id", "rmw", "0", "_",
    ];
    let binary = [" | ", " ; ", " \\ ", " & "];
    let postfix = ["", "", "^+", "^*", "^-1", "?"];
    let len = if rng.below(8) == 0 {
        1 + rng.below(6000)
    } else {
        1 + rng.below(6)
    } as usize;
    let mut out = String::new();
    for i in 0..len {
        if i > 0 {
            out.push_str(rng.pick(&binary));
        }
        if *budget > 0 && rng.below(5) == 0 {
            *budget -= 1;
            out.push('(');
            out.push_str(&cat_expr(rng, budget));
            out.push(')');
        } else {
            out.push_str(rng.pick(&names));
        }
        out.push_str(rng.pick(&postfix));
    }
    out
}

#[test]
fn large_cat_models_compile_or_are_refused_without_a_panic() {
    let mut rng = Rng(0xca7_f00d);
    let mp = litmus_text::parse(
        "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
    )
    .unwrap();
    let (mut compiled, mut refused) = (0, 0);
    for n in 0..150 {
        let mut budget = if rng.below(6) == 0 { 150 } else { 4 };
        let deep = if rng.below(6) == 0 {
            let d = rng.below(160) as usize;
            format!("{}po{}", "(".repeat(d), ")".repeat(d))
        } else {
            "po".into()
        };
        let src = format!(
            "\"fuzz\"\nlet a = {}\nlet b = {deep}\nacyclic a | b as A\nirreflexive {} as B\n",
            cat_expr(&mut rng, &mut budget),
            cat_expr(&mut rng, &mut budget),
        );
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut no_include = |_: &Path| Err("no includes".into());
            match CatModel::from_source(Path::new("fuzz.cat"), &src, &mut no_include) {
                Ok(model) => {
                    let _ = check(&mp, &model, &quick());
                    true
                }
                Err(e) => {
                    assert!(e.to_string().starts_with("fuzz.cat:"), "no place: {e}");
                    false
                }
            }
        }));
        match run {
            Ok(true) => compiled += 1,
            Ok(false) => refused += 1,
            Err(_) => panic!("input {n} panicked (see above):\n{src}"),
        }
    }
    println!("cat: {compiled} compiled and checked, {refused} refused");
    assert!(compiled > 0 && refused > 0, "{compiled} {refused}");
}

#[test]
fn large_evidence_files_read_without_a_panic() {
    let mut rng = Rng(0xe1d_e1ce);
    let (mut records, mut problems) = (0, 0);
    for n in 0..60 {
        let mut lines = Vec::new();
        for _ in 0..1 + rng.below(4) {
            let src = litmus_text(&mut rng);
            let Ok(test) = litmus_text::parse(&src) else {
                continue;
            };
            let width = litmus_core::outcome::observables(&test).len();
            // Now and then a width that is not the test's.
            let width = if rng.below(5) == 0 { width + 1 } else { width };
            let histogram: Vec<(Vec<u32>, u64)> = (0..rng.below(50))
                .map(|_| {
                    (
                        (0..width).map(|_| rng.below(4) as u32).collect(),
                        1 + rng.below(9),
                    )
                })
                .collect();
            let run = Run {
                histogram: &histogram,
                instances: 1000,
                unfinished: 0,
                device: "NVIDIA H100",
                knobs: "ctas=4",
                seed: n,
            };
            let catch = catch_unwind(|| Record::of_run(&test, &run, "fuzz"));
            // A histogram that does not fit the test cannot be worded; the
            // writer's panic is not what this tests.
            let Ok(mut record) = catch else { continue };
            record.run = format!("fuzz-{n}");
            record.seq = lines.len() as u64;
            let mut line = record.to_json().to_string().into_bytes();
            // Now and then a byte changed or the line cut.
            if rng.below(4) == 0 && !line.is_empty() {
                let at = rng.below(line.len() as u64) as usize;
                line[at] = rng.below(256) as u8;
            }
            if rng.below(8) == 0 {
                line.truncate(rng.below(line.len() as u64) as usize);
            }
            lines.push(line);
        }
        let bytes = lines.join(&b'\n');
        let read = catch_unwind(|| Evidence::read_bytes(Path::new("fuzz.jsonl"), &bytes));
        match read {
            Ok(e) => {
                records += e.records.len();
                problems += e.problems.len();
                assert!(e.problems.iter().all(|p| p.line >= 1), "{:?}", e.problems);
            }
            Err(_) => panic!(
                "file {n} panicked (see above):\n{}",
                String::from_utf8_lossy(&bytes)
            ),
        }
    }
    println!("evidence: {records} records read, {problems} lines refused");
    assert!(records > 0 && problems > 0, "{records} {problems}");
}
