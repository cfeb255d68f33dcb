//! Termination: `check_termination` must give Dat3M's TERMINATION verdict
//! on every line of `expected-termination.csv` (56 tests: CADP spin loops,
//! barrier quorums, cross-CTA barriers), read from
//! `LITMUS_CONFORMANCE_DIR`; and small tests of its own for the witness.

use litmus_core::corpus::{read_list, CORPUS_ENV, TERMINATION};
use litmus_model::{check_termination, model_by_name, Options, Termination};

fn run(src: &str) -> Termination {
    let test = litmus_text::parse(src).unwrap_or_else(|e| panic!("{e}"));
    check_termination(&test, model_by_name("ptx").unwrap(), &Options::default()).unwrap()
}

#[test]
fn termination_verdicts_match_dat3m() {
    let Some(dir) = std::env::var_os(CORPUS_ENV) else {
        println!("termination conformance: skipped, LITMUS_CONFORMANCE_DIR is not set");
        return;
    };
    let dir = std::path::Path::new(&dir);
    let entries = read_list(dir, TERMINATION).unwrap_or_else(|e| panic!("{e}"));
    let model = model_by_name("ptx").unwrap();
    let mut failures = Vec::new();
    for entry in &entries {
        let file = entry.path.as_str();
        let src = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        let test = litmus_text::parse(&src).unwrap_or_else(|e| panic!("{file}: {e}"));
        match check_termination(&test, model, &Options::default()) {
            Ok(t) if t.terminates() == entry.expected => {}
            Ok(t) => failures.push(format!(
                "{file}: terminates = {}, Dat3M says {} ({})",
                t.terminates(),
                entry.expected,
                t.hang
                    .map_or("no hang found".to_string(), |h| h.to_string())
            )),
            Err(e) => failures.push(format!("{file}: check failed: {e}")),
        }
    }
    println!(
        "termination conformance: agrees with Dat3M on {} of {} tests",
        entries.len() - failures.len(),
        entries.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(entries.len(), 56, "{TERMINATION} should name 56 tests");
}

#[test]
fn a_spin_on_a_value_nobody_changes_hangs_and_says_where() {
    let t = run("PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.relaxed.gpu r0, f ;\n beq r0, 0, L ;\nexists (P0:r0 == 0)");
    assert_eq!(t.hang.unwrap().to_string(), "thread P0 spins at L on f=0");
}

#[test]
fn a_spin_whose_flag_is_set_terminates() {
    let t = run("PTX MP-spin\n{ f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu f, 1 | L: ;\n | ld.relaxed.gpu r0, f ;\n | beq r0, 0, L ;\nexists (P1:r0 == 1)");
    assert!(t.terminates(), "{:?}", t.hang);
    assert!(!t.bounded);
}

#[test]
fn a_barrier_one_thread_never_reaches_hangs_the_other() {
    // P1 spins forever on g, so it never reaches barrier 2; P0 waits there.
    let t = run("PTX bar-hang\n{ g=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.cta.sync 2 | L: ;\n | ld.relaxed.gpu r0, g ;\n | beq r0, 0, L ;\n | bar.cta.sync 2 ;\nexists (P1:r0 == 0)");
    assert_eq!(
        t.hang.unwrap().to_string(),
        "thread P0 waits forever at `bar.cta.sync 2` (instruction 0); thread P1 spins at L on g=0"
    );
}

#[test]
fn a_barrier_quorum_larger_than_the_cta_hangs_every_thread() {
    let t = run("PTX quorum\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.cta.sync 1, 1, 3 | bar.cta.sync 1, 1, 3 ;\n st.weak x, 1 | ;\nexists (x == 0)");
    let hang = t.hang.unwrap();
    assert_eq!(hang.stuck.len(), 2, "{hang}");
}

#[test]
fn a_loop_that_writes_is_no_spin_loop_and_is_bounded() {
    let t = run("PTX counter\n{ x=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n atom.relaxed.gpu.add r0, x, 1 ;\n bne r0, 5, L ;\nexists (x == 1)");
    assert!(t.terminates());
    assert!(t.bounded);
}
