//! GPU harness benchmark: classic litmus shapes with relaxed.gpu accesses and
//! threads in different CTAs, plus fenced and release/acquire variants.
//! For each: instances/s, weak outcomes/s, weak fraction, launches, device.
//!
//! ```text
//! cargo run --release --example gpu_bench -- [--budget-ms N] [NAME_FILTER]
//! ```
//! (`.gpu/bin/gpu_bench` on the GPU machine, after `../shared/tools/gpu-pack`.)
//! Knobs come from the environment as for every run (`LITMUS_SEED`,
//! `LITMUS_CTAS`, `LITMUS_THREADS`, `LITMUS_STRIDE`, ...).

use std::process::ExitCode;

use gpu_litmus::hw as gpu;

mod bench_support;

use bench_support::{prepared, weak, Args};

/// (name, `.litmus` text): the weak outcome is the one the condition names.
const TESTS: &[(&str, &str)] = &[
    ("MP", "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB", "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("LB", "PTX LB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n st.relaxed.gpu y, 1 | st.relaxed.gpu x, 1 ;\nexists (P0:r0 == 1 /\\ P1:r1 == 1)\n"),
    ("IRIW", "PTX IRIW\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 | P3@cta 3,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r2, y ;\n | | ld.relaxed.gpu r1, y | ld.relaxed.gpu r3, x ;\nexists (P2:r0 == 1 /\\ P2:r1 == 0 /\\ P3:r2 == 1 /\\ P3:r3 == 0)\n"),
    ("2+2W", "PTX 2+2W\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n st.relaxed.gpu y, 2 | st.relaxed.gpu x, 2 ;\nexists (x == 1 /\\ y == 1)\n"),
    ("WRC", "PTX WRC\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 2,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y ;\n | st.relaxed.gpu y, 1 | ld.relaxed.gpu r2, x ;\nexists (P1:r0 == 1 /\\ P2:r1 == 1 /\\ P2:r2 == 0)\n"),
    ("MP+fence.sc.gpu", "PTX MP+fence.sc.gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n fence.sc.gpu | fence.sc.gpu ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("SB+fence.sc.gpu", "PTX SB+fence.sc.gpu\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n fence.sc.gpu | fence.sc.gpu ;\n ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"),
    ("MP+rel+acq", "PTX MP+rel+acq\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP-cluster-dsmem", "PTX MP-cluster-dsmem\n{ shared::cluster x=0; shared::cluster y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP-cluster-global", "PTX MP-cluster-global\n{ x=0; y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP-cluster+acq_rel", "PTX MP-cluster+acq_rel\n{ shared::cluster x=0; shared::cluster y=0; }\n P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0 ;\n st.relaxed.cluster x, 1 | ld.relaxed.cluster r0, y ;\n fence.acq_rel.cluster | fence.acq_rel.cluster ;\n st.relaxed.cluster y, 1 | ld.relaxed.cluster r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
    ("MP+fence.sc.cta", "PTX MP+fence.sc.cta\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n fence.sc.cta | fence.sc.cta ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"),
];

fn main() -> ExitCode {
    let bench = "gpu_bench";
    let args = match Args::read(bench, "gpu_bench [--budget-ms N] [NAME_FILTER]", |_, _| {
        None
    }) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let knobs = match args.knobs(bench) {
        Ok(k) => k,
        Err(code) => return code,
    };
    println!(
        "{:<18} {:>12} {:>14} {:>12} {:>10} {:>9}  device",
        "test", "instances/s", "weak/s", "weak frac", "weak", "launches"
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
            Err(e) => {
                eprintln!("{name}: {e}");
                failed = true;
                continue;
            }
        };
        let weak = weak(&test, &result);
        let secs = result.wall.as_secs_f64();
        println!(
            "{:<18} {:>12.3e} {:>14.3e} {:>12.3e} {:>10} {:>9}  {}",
            name,
            result.rate(),
            weak as f64 / secs,
            weak as f64 / result.instances as f64,
            weak,
            result.launches,
            result.device
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
