//! The enumerator: loops and the bound, deadlocks, forall, values, budgets.

mod common;
use common::*;

use std::time::Duration;

use litmus_model::{check, model_by_name, CheckError, Options};

const SPIN: &str = "PTX spin
{ f=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.relaxed.gpu f, 1 | LC00:                ;
                     | ld.relaxed.gpu r0, f ;
                     | beq r0, 0, LC00      ;
exists (P1:r0 == 0)";

#[test]
fn a_taken_backward_jump_discards_the_execution_at_bound_one() {
    let r = run(SPIN, "ptx");
    assert!(r.bounded, "the loop bound cut a path");
    assert!(!r.condition_reachable);
    assert_eq!(r.outcome_lines(&parse(SPIN)), vec!["P1:r0=1"]);
}

#[test]
fn a_larger_loop_bound_runs_the_body_again() {
    let test = parse(SPIN);
    let ptx = model_by_name("ptx").unwrap();
    // Every execution is counted, not one per outcome.
    let all = Options {
        all_executions: true,
        ..Options::default()
    };
    let opts = Options {
        loop_bound: 3,
        ..all.clone()
    };
    let r = check(&test, ptx, &opts).unwrap();
    assert!(
        r.bounded,
        "three iterations still cut the path that spins on"
    );
    // Reading 0 twice and then 1 is fine (0 then 1 is not a coherence
    // violation); the final value of r0 is still 1.
    assert_eq!(r.outcome_lines(&test), vec!["P1:r0=1"]);
    assert!(r.consistent_executions > check(&test, ptx, &all).unwrap().consistent_executions);
}

#[test]
fn straight_line_tests_are_not_bounded() {
    let r = run(
        "PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)",
        "ptx",
    );
    assert!(!r.bounded);
    assert!(r.condition_reachable && r.claim_holds);
    assert_eq!(r.allowed.len(), 4);
}

#[test]
fn forward_branches_pick_the_path_the_values_give() {
    let src = "PTX branch
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, x  ;
                | beq r0, 0, L   ;
                | mov r1, 7      ;
                | L:             ;
exists (P1:r1 == 7 /\\ P1:r0 == 1)";
    let r = run(src, "ptx");
    assert!(!r.bounded);
    assert_eq!(
        r.outcome_lines(&parse(src)),
        vec!["P1:r1=0; P1:r0=0", "P1:r1=7; P1:r0=1"]
    );
}

#[test]
fn deadlocked_barriers_leave_no_execution() {
    let src = "PTX deadlock
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 ld.weak r0, x  | bar.cta.sync 1 ;
 bar.cta.sync 0 | st.weak x, 1   ;
 bar.cta.sync 1 | bar.cta.sync 0 ;
forall (P0:r0 == 5)";
    let r = run(src, "ptx");
    assert_eq!(r.consistent_executions, 0);
    assert!(r.allowed.is_empty());
    // forall over no execution holds; exists over none does not.
    assert!(r.claim_holds && !r.condition_reachable);
}

#[test]
fn arithmetic_wraps_at_32_bits() {
    let src = "PTX wrap
{ x=0; }
 P0@cta 0,gpu 0          ;
 mov r0, 1               ;
 add r1, r0, 0xffffffff  ;
 sub r2, r1, 1           ;
 st.weak x, r2           ;
exists (x == -1)";
    let r = run(src, "ptx");
    assert!(r.condition_reachable);
    assert_eq!(r.outcome_lines(&parse(src)), vec!["x=4294967295"]);
}

#[test]
fn racing_weak_writes_leave_either_final_value() {
    // Neither write is morally strong: coherence leaves them unordered and
    // each is co-maximal.
    let src = "PTX race
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
exists (x == 1 \\/ x == 2)";
    let r = run(src, "ptx");
    assert_eq!(r.outcome_lines(&parse(src)), vec!["x=1", "x=2"]);
    assert_eq!(
        r.consistent_executions, 1,
        "one execution, two final values"
    );
    let sc = run(src, "sc");
    assert_eq!(
        sc.consistent_executions, 2,
        "sc orders the writes both ways"
    );
}

/// A test far too large to enumerate within a small budget.
fn big() -> String {
    let mut src = String::from(
        "PTX big\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n",
    );
    for i in 0..4 {
        src.push_str(&format!(
            " st.weak x, {} | st.weak x, {} | st.weak x, {} | st.weak x, {} ;\n",
            i * 4 + 1,
            i * 4 + 2,
            i * 4 + 3,
            i * 4 + 4
        ));
        src.push_str(&format!(
            " ld.weak r{i}, x | ld.weak r{i}, x | ld.weak r{i}, x | ld.weak r{i}, x ;\n"
        ));
    }
    src.push_str("exists (P0:r0 == 1)\n");
    src
}

#[test]
fn exceeding_the_step_budget_is_an_error_naming_it_and_the_progress() {
    let test = parse(&big());
    let opts = Options {
        max_steps: 1000,
        ..Options::default()
    };
    let err = check(&test, model_by_name("ptx").unwrap(), &opts).unwrap_err();
    assert!(matches!(err, CheckError::Budget(_)));
    let msg = err.to_string();
    assert!(msg.contains("budget exceeded: max_steps = 1000"), "{msg}");
    assert!(msg.contains("stopped after 1000 search steps"), "{msg}");
    assert!(msg.contains("candidate executions"), "{msg}");
}

#[test]
fn exceeding_the_time_budget_is_an_error_naming_it() {
    let test = parse(&big());
    let opts = Options {
        max_time: Some(Duration::from_millis(20)),
        max_steps: u64::MAX,
        ..Options::default()
    };
    let start = std::time::Instant::now();
    let err = check(&test, model_by_name("ptx").unwrap(), &opts).unwrap_err();
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "the time budget stops the search promptly"
    );
    let msg = err.to_string();
    assert!(msg.contains("budget exceeded: max_time = 20ms"), "{msg}");
}

#[test]
fn invalid_tests_are_refused_with_the_reason() {
    let mut test = parse(SPIN);
    test.threads.clear();
    let err = check(&test, model_by_name("ptx").unwrap(), &Options::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the test is not valid: the test has no threads; unknown thread `P1`"
    );
}

#[test]
fn nested_loops_get_the_bound_per_outer_iteration() {
    // The inner loop runs at most twice in each of at most two outer
    // iterations: up to four reads of f.
    let src = "PTX nested
{ f=0; }
 P0@cta 0,gpu 0       ;
 mov r1, 0            ;
 mov r2, 0            ;
 O:                   ;
 add r2, r2, 1        ;
 I:                   ;
 ld.relaxed.gpu r0, f ;
 add r1, r1, 1        ;
 beq r0, 0, I         ;
 beq r2, 1, O         ;
exists (P0:r1 == 4)";
    let test = parse(src);
    let opts = Options {
        loop_bound: 2,
        ..Options::default()
    };
    let p = litmus_model::events::thread_paths(&test, 0, 2, 100).unwrap();
    let reads: Vec<usize> = p.paths.iter().map(|p| p.events.len()).collect();
    assert_eq!(reads.iter().max(), Some(&4), "{reads:?}");
    // f is never written: every read returns 0, so the inner loop always
    // spins on and every path is cut.
    let r = check(&test, model_by_name("ptx").unwrap(), &opts).unwrap();
    assert!(r.bounded && r.allowed.is_empty());
}

/// Quorum barriers (the corpus dialect `bar.cta.sync I, ID, Q`): with a
/// quorum of 2 among 3 threads, the thread arriving last waits for nobody
/// after it, so the writer's store need not be seen...
#[test]
fn a_quorum_barrier_need_not_wait_for_every_thread() {
    let src = "PTX q2
{ x=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;
 st.weak x, 1         | bar.cta.sync 1, 1, 2 | bar.cta.sync 1, 1, 2 ;
 bar.cta.sync 1, 1, 2 | ld.weak r0, x        |                      ;
exists (P1:r0 == 0)";
    assert_eq!(verdict(src, "ptx"), ALLOWED);
    // ... with a quorum of 3 everyone waits for everyone ...
    assert_eq!(
        verdict(&src.replace("1, 1, 2", "1, 1, 3"), "ptx"),
        FORBIDDEN
    );
    // ... and a quorum of 4 never completes: no execution at all.
    let r = run(&src.replace("1, 1, 2", "1, 1, 4"), "ptx");
    assert_eq!(r.consistent_executions, 0);
}

/// A named barrier whose id comes from a read synchronises only in the
/// executions where the ids agree.
#[test]
fn a_barrier_id_read_from_memory_decides_who_synchronises() {
    let src = "PTX named
{ x=0; y=0; z=0; }
 P0@cta 0,gpu 0     | P1@cta 0,gpu 0    | P2@cta 0,gpu 0 ;
 st.weak x, 1       | st.weak y, 1      | st.weak z, 1   ;
 ld.weak r2, z      | bar.cta.sync 1, 1 |                ;
 bar.cta.sync 1, r2 | ld.weak r1, x     |                ;
 ld.weak r0, y      |                   |                ;
exists (P0:r0 == 0 /\\ P1:r1 == 0 /\\ P0:r2 == Z)";
    assert_eq!(verdict(&src.replace('Z', "0"), "ptx"), ALLOWED);
    assert_eq!(verdict(&src.replace('Z', "1"), "ptx"), FORBIDDEN);
}
