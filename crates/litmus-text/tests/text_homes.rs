//! A location's home GPU (`gpu 1 x=0;`) in the text format: what the reader
//! makes of it, that the writer writes it back (and leaves GPU 0 unwritten,
//! so every other file prints as before), and every mistake with its
//! `line:column`.

use litmus_core::ir::{Space, Test};
use litmus_text as text;

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

/// MP across two GPUs, the data in the reader's memory, the flag in the
/// writer's.
const MP: &str = "PTX mp-homes\n{ gpu 1 x=0; gpu 0 y=0; z=3; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)";

fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("<src>")))
}

#[test]
fn a_home_gpu_is_read() {
    let t = parse(MP);
    let homes: Vec<_> = t
        .locations
        .iter()
        .map(|l| (l.name.text.as_str(), l.space, l.gpu, l.init.value))
        .collect();
    assert_eq!(
        homes,
        [
            ("x", Space::Global, 1, 0),
            ("y", Space::Global, 0, 0),
            ("z", Space::Global, 0, 3)
        ]
    );
}

#[test]
fn a_home_gpu_prints_and_reads_back() {
    let t = parse(MP);
    let printed = text::print(&t);
    assert!(printed.contains("{\ngpu 1 x=0;\n"), "{printed}");
    // GPU 0 is the default: not written.
    assert!(printed.contains("\ny=0;\n"), "{printed}");
    let init_block = printed.split('}').next().unwrap_or_default();
    assert!(!init_block.contains("gpu 0"), "{printed}");
    assert_eq!(parse(&printed), t, "{printed}");
    // The home is part of the test: the same file on GPU 0 differs.
    assert_ne!(parse(&MP.replace("gpu 1 x", "x")), t);
}

#[test]
fn an_invalid_home_prints_as_it_reads() {
    // Built IR may hold what validation refuses; the writer still writes
    // it so that the reader reports it where it stands.
    let mut t = parse(MP);
    t.locations[2].space = Space::Host;
    t.locations[2].gpu = 2;
    let printed = text::print(&t);
    assert!(printed.contains("gpu 2 host z=3;"), "{printed}");
    assert_eq!(
        errors(&printed),
        "5:12: `z` is host memory, which is in no GPU's global memory: only a global location takes `gpu 2`"
    );
}

#[test]
fn gpu_is_still_a_name() {
    // `gpu` is a home only before a number: `gpu=0` declares a location
    // called `gpu`, and a thread may be called `gpu`.
    let t = parse(
        "PTX t\n{ gpu=0; gpu:r0=1; }\n gpu@cta 0,gpu 0 ;\n st.weak gpu, r0 ;\nexists (gpu == 1)",
    );
    assert_eq!(t.locations[0].name.text, "gpu");
    assert_eq!(t.locations[0].gpu, 0);
    assert_eq!(t.threads[0].name.text, "gpu");
    assert_eq!(t.threads[0].init[0].reg.text, "r0");
}

#[test]
fn only_global_memory_has_a_home_gpu() {
    let src = "PTX t\n{ x=0;\n gpu 1 shared s=0;\n gpu 2 shared::cluster d=0;\n gpu 1 host h=0;\n gpu 1 y @ generic aliases x;\n gpu 0 host g=0; }\n P0@cta 0,gpu 0,cluster 0 ;\n st.weak s, 1 ;\n ld.weak r0, y ;\nexists (P0:r0 == 1)";
    assert_eq!(
        errors(src),
        "3:15: `s` is shared memory, which is in no GPU's global memory: only a global location takes `gpu 1`\n\
         4:24: `d` is cluster-shared memory, which is in no GPU's global memory: only a global location takes `gpu 2`\n\
         5:13: `h` is host memory, which is in no GPU's global memory: only a global location takes `gpu 1`\n\
         6:8: `y` is an alias of `x` and lives where `x` does: write `gpu 1` on `x` instead"
    );
}

#[test]
fn a_home_gpu_must_fit_32_bits() {
    assert_eq!(
        errors(
            "PTX t\n{ gpu 4294967296 x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)"
        ),
        "2:7: gpu 4294967296 does not fit 32 bits unsigned (expected 0 ..= 4294967295)"
    );
    assert_eq!(
        errors("PTX t\n{ gpu -1 x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)"),
        "2:7: gpu -1 does not fit 32 bits unsigned (expected 0 ..= 4294967295)"
    );
}
