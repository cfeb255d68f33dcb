//! Two-GPU benchmark: message passing (its locations in the writer's
//! memory, in the reader's, and split as `sys_probe.cu` puts them) and
//! store buffering with one thread on each of two logical GPUs, IRIW with
//! a writer and a reader on each and with one thread on each of four
//! GPUs, relaxed `.sys` and fenced, WRC with one thread on each of three
//! GPUs, and for comparison the same tests with both threads on one GPU (in different
//! CTAs). For each: instances/s, weak outcomes/s, weak fraction, launches,
//! the time a launch takes, and the devices.
//!
//! ```text
//! cargo run --release --example gpus_bench -- [--budget-ms N] [NAME_FILTER]
//! ```
//! (`.gpu/bin/gpus_bench` on the GPU machine, after
//! `../shared/tools/gpu-pack`.) Knobs come from the environment as for
//! every run; on a machine with one GPU, `LITMUS_GPU_MAP=0,0` runs both
//! logical GPUs there (without it the two-GPU lines say they did not run).

use std::process::ExitCode;

use gpu_litmus::hw as gpu;

mod bench_support;

use bench_support::{prepared, weak, Args};

/// (name, `.litmus` text): the weak outcome is the one the condition names.
const TESTS: &[(&str, &str)] = &[
    ("MP 2 GPUs", "PTX MP-two-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP 2 GPUs x,y@1", "PTX MP-two-gpus-at-reader\n{ gpu 1 x=0; gpu 1 y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP 2 GPUs x@0,y@1", "PTX MP-two-gpus-split\n{ x=0; gpu 1 y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP 2 GPUs fenced", "PTX MP-two-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n fence.sc.sys | fence.sc.sys ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB 2 GPUs", "PTX SB-two-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("SB 2 GPUs fenced", "PTX SB-two-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n fence.sc.sys | fence.sc.sys ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("IRIW 2 GPUs", "PTX IRIW-two-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 1,gpu 0 | P3@cta 1,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n"),
    ("IRIW 2 GPUs fenced", "PTX IRIW-two-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 1,gpu 0 | P3@cta 1,gpu 1 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | fence.sc.sys | fence.sc.sys ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n"),
    ("IRIW 4 GPUs", "PTX IRIW-four-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 0,gpu 2 | P3@cta 0,gpu 3 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n"),
    ("IRIW 4 GPUs fenced", "PTX IRIW-four-gpus-fenced\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 0,gpu 2 | P3@cta 0,gpu 3 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | | fence.sc.sys | fence.sc.sys ;\n | | ld.relaxed.sys r1, y | ld.relaxed.sys r1, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r0 == 1 /\\ P3:r1 == 0)\n"),
    ("WRC 3 GPUs", "PTX WRC-three-gpus\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 | P2@cta 0,gpu 2 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, x | ld.relaxed.sys r0, y ;\n | st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P2:r0 == 1 /\\ P2:r1 == 0)\n"),
    ("MP 1 GPU", "PTX MP-one-gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB 1 GPU", "PTX SB-one-gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.sys x, 1 | st.relaxed.sys y, 1 ;\n ld.relaxed.sys r0, y | ld.relaxed.sys r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
];

fn main() -> ExitCode {
    let bench = "gpus_bench";
    let args = match Args::read(bench, "gpus_bench [--budget-ms N] [NAME_FILTER]", |_, _| {
        None
    }) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let knobs = match args.knobs(bench) {
        Ok(k) => k,
        Err(code) => return code,
    };
    // What the tests on several GPUs run with (the one-GPU lines run the
    // knobs above).
    println!("knobs on two GPUs: {}", knobs.resolve_for_gpus(2));
    println!("knobs on three or more: {}", knobs.resolve_for_gpus(3));
    println!(
        "{:<18} {:>12} {:>12} {:>11} {:>9} {:>8} {:>9}  device",
        "test", "instances/s", "weak/s", "weak frac", "weak", "launches", "ms/launch"
    );
    let mut failed = false;
    for (name, src) in TESTS {
        if args.skips(name) {
            continue;
        }
        let Some((test, code)) = prepared(name, src) else {
            failed = true;
            continue;
        };
        let result = match gpu::run(&test, &code, &knobs) {
            Ok(r) => r,
            Err(e) if e.is_absent() => {
                println!("hardware: skipped, {e}");
                return ExitCode::SUCCESS;
            }
            Err(gpu::GpuError::Unfaithful(why)) => {
                println!("{name:<18} not run, {why}");
                continue;
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
                continue;
            }
        };
        let weak = weak(&test, &result);
        let secs = result.wall.as_secs_f64();
        println!(
            "{:<18} {:>12.3e} {:>12.3e} {:>11.3e} {:>9} {:>8} {:>9.3}  {}",
            name,
            result.rate(),
            weak as f64 / secs,
            weak as f64 / result.instances.max(1) as f64,
            weak,
            result.launches,
            secs * 1e3 / result.launches.max(1) as f64,
            result.device
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
