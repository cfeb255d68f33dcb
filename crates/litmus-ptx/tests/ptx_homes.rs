//! Locations in the memory of a GPU other than GPU 0 (`gpu 1 x=0;`),
//! checked without a GPU: which base each slot's address adds to, the
//! parameters the kernels take only then, the classifier's stores for the
//! slots the harness does not refill, and what is refused.

use litmus_ptx::layout::{gpu_memory_param, HOST_MEMORY};
use litmus_ptx::{self as ptx, Layout, PtxError};
use litmus_text as text;

fn parse(src: &str) -> litmus_core::ir::Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")))
}

/// MP across two GPUs, the data in the reader's (GPU 1's) memory and the
/// flag in the writer's.
const MP_HOMES: &str = "PTX MP-homes\n{ gpu 1 x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// IRIW over three GPUs, `y` on GPU 2, `x` on GPU 1, `z` in host memory
/// and `w` on GPU 0.
const IRIW_HOMES: &str = "PTX IRIW-homes\n{ gpu 2 y=0; host z=0; gpu 1 x=0; w=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 2 | P2@cta 0,gpu 1 | P3@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n st.relaxed.sys z, 1 | st.relaxed.sys w, 1 | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0 /\\ z == 1)\n";

/// The parameter list of `kernel` (`litmus_test` or `litmus_classify`).
fn params<'a>(code: &'a str, kernel: &str) -> &'a str {
    let start = code
        .find(&format!(".entry {kernel}("))
        .unwrap_or_else(|| panic!("no {kernel} in:\n{code}"));
    let end = start + code[start..].find(')').unwrap_or(0);
    &code[start..end]
}

#[test]
fn each_slot_adds_to_the_base_of_the_memory_that_holds_it() {
    let layout = Layout::of(&parse(MP_HOMES)).unwrap();
    assert_eq!(layout.homes, [1, 0]);
    assert_eq!(layout.remote_homes(), [1]);
    // 0: GPU 0's buffer, 1: the host's, 2..: the other GPUs' in order.
    assert_eq!(layout.memory_of(0), 2);
    assert_eq!(layout.memory_of(1), 0);
    assert!(layout.in_remote_memory(0) && !layout.in_remote_memory(1));

    let layout = Layout::of(&parse(IRIW_HOMES)).unwrap();
    let slot = |name: &str| {
        let t = parse(IRIW_HOMES);
        let i = t
            .locations
            .iter()
            .position(|l| l.name.text == name)
            .unwrap();
        layout.slot_of[i].unwrap()
    };
    assert_eq!(layout.remote_homes(), [1, 2]);
    assert_eq!(layout.memory_of(slot("x")), 2);
    assert_eq!(layout.memory_of(slot("y")), 3);
    assert_eq!(layout.memory_of(slot("z")), 1);
    assert_eq!(layout.memory_of(slot("w")), 0);
    assert!(!layout.in_remote_memory(slot("z")) && !layout.in_remote_memory(slot("w")));
}

#[test]
fn every_location_on_gpu_0_keeps_the_one_base() {
    let layout = Layout::of(&parse(&MP_HOMES.replace("gpu 1 x", "x"))).unwrap();
    assert_eq!(layout.homes, [0, 0]);
    assert!(layout.remote_homes().is_empty());
    let code = ptx::generate(&parse(&MP_HOMES.replace("gpu 1 x", "x"))).unwrap();
    assert!(!code.contains("p_mem1"), "{code}");
}

#[test]
fn both_kernels_take_the_other_gpus_buffers_last_but_the_knob_words() {
    let code = ptx::generate(&parse(MP_HOMES)).unwrap();
    assert_eq!(gpu_memory_param(1), "p_mem1");
    let words = Layout::of(&parse(MP_HOMES)).unwrap().knob_words();
    let knob_words = format!(",\n\t.param .align 4 .b8 p_knobw[{}]\n", 4 * words);
    assert!(
        params(&code, "litmus_test")
            .ends_with(&format!("p_relay1,\n\t.param .u64 p_mem1{knob_words}")),
        "{code}"
    );
    assert!(
        params(&code, "litmus_classify")
            .ends_with(&format!("p_counters,\n\t.param .u64 p_mem1{knob_words}")),
        "{code}"
    );
    // Each kernel loads the base and adds slot offsets to it.
    for kernel in code.split(".visible .entry").skip(1) {
        let load = kernel
            .lines()
            .find(|l| l.contains("[p_mem1]"))
            .unwrap_or_else(|| panic!("p_mem1 never loaded:\n{kernel}"));
        let reg = load
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches(',');
        let global = kernel
            .lines()
            .find(|l| l.contains("cvta.to.global.u64") && l.contains(reg))
            .map(|l| l.split_whitespace().nth(1).unwrap().trim_end_matches(','));
        let base = global.unwrap_or(reg);
        assert!(
            kernel
                .lines()
                .any(|l| l.contains("add.u64") && l.trim_end_matches(';').ends_with(base)),
            "no address adds {base}:\n{kernel}"
        );
    }

    let code = ptx::generate(&parse(IRIW_HOMES)).unwrap();
    let words = Layout::of(&parse(IRIW_HOMES)).unwrap().knob_words();
    let knob_words = format!(",\n\t.param .align 4 .b8 p_knobw[{}]\n", 4 * words);
    assert!(
        params(&code, "litmus_test")
            .ends_with(&format!("{HOST_MEMORY},\n\t.param .u64 p_go,\n\t.param .u64 p_go_target,\n\t.param .u64 p_gpu,\n\t.param .u64 p_relay0,\n\t.param .u64 p_relay1,\n\t.param .u64 p_relay2,\n\t.param .u64 p_mem1,\n\t.param .u64 p_mem2{knob_words}")),
        "{code}"
    );
    assert!(
        params(&code, "litmus_classify").ends_with(&format!(
            "p_counters,\n\t.param .u64 {HOST_MEMORY},\n\t.param .u64 p_mem1,\n\t.param .u64 p_mem2{knob_words}"
        )),
        "{code}"
    );
}

#[test]
fn the_classifier_always_resets_slots_off_gpu_0() {
    // The harness's fills run on GPU 0's stream into its buffer: a slot on
    // another GPU is reset by the classifier's store whether or not the
    // harness refills, so its store loses the `@!refilled` guard.
    let guarded = |src: &str| {
        let code = ptx::generate(&parse(src)).unwrap();
        let classify = &code[code.find(".entry litmus_classify").unwrap()..];
        let stores: Vec<&str> = classify
            .lines()
            .map(str::trim)
            .filter(|l| l.contains("st.global.u32"))
            .collect();
        stores.iter().filter(|l| l.starts_with("@!")).count()
    };
    let here = guarded(&MP_HOMES.replace("gpu 1 x", "x"));
    assert_eq!(guarded(MP_HOMES), here - 1);
}

#[test]
fn a_home_no_thread_runs_on_is_refused() {
    let src = MP_HOMES.replace("gpu 1 x", "gpu 2 x");
    let e = Layout::of(&parse(&src)).unwrap_err();
    assert!(matches!(e, PtxError::Unsupported(_)), "{e}");
    assert!(
        e.to_string()
            .contains("location `x` lives in GPU 2's memory, but no thread runs on GPU 2"),
        "{e}"
    );
}

/// A final value in another GPU's memory is read with a load and reset by
/// a store, as in host memory: the exchange the classifier uses on GPU 0's
/// memory would be an atomic across the bus to a peer, which need not be
/// one. A final value in GPU 0's memory keeps the exchange.
#[test]
fn the_classifier_reads_a_peer_gpus_final_value_without_an_atomic() {
    let src = MP_HOMES.replace(
        "exists (P1:r0 == 1 /\\ P1:r1 == 0)",
        "exists (x == 1 /\\ y == 1)",
    );
    let code = ptx::generate(&parse(&src)).unwrap();
    let classify = &code[code.find(".entry litmus_classify").unwrap()..];
    let exchanges = classify
        .lines()
        .filter(|l| l.contains("atom.global.exch.b32"))
        .count();
    // y (GPU 0) is exchanged; x (GPU 1) is loaded, then stored.
    assert_eq!(exchanges, 1, "{classify}");
}
