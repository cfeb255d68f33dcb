//! The knobs line (`Knobs`'s `Display`, which evidence records keep) and
//! the assignments that reproduce a run must not change when the knobs'
//! code does: this compares both, for many drawn configurations, with a
//! snapshot written by the code before the knobs became one table.
//! `KNOBS_SNAPSHOT_WRITE=1` writes the snapshot anew (only after a change
//! to the line that is meant).

use litmus_hw::{splitmix, CtaSpread, Knobs, PtxTarget};
use litmus_ptx::isa::SmArch;
use litmus_ptx::Addressing;
use litmus_tune::space::draw;

const SNAPSHOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/knobs_snapshot.txt");

/// A base the draw leaves alone where it draws nothing: the run's
/// launches, budget and seed, the toolchain, the target, the map and the
/// other knobs the search does not draw, varied by `state`.
fn base(state: &mut u64) -> Knobs {
    let mut next = |n: u64| splitmix(state) % n;
    let d = Knobs::default();
    Knobs {
        launches: (next(2) == 0).then(|| 1 + next(1000)),
        budget_ms: [1000, 250, 4000][next(3) as usize],
        seed: next(1_000_000_007),
        ptxas: [None, Some("ptxas-12.4.131"), Some("/opt/cuda/bin/ptxas")][next(3) as usize]
            .map(String::from),
        ptx_target: [PtxTarget::Native, PtxTarget::Arch(SmArch::new(80))][next(2) as usize],
        addressing: [Addressing::Global, Addressing::Generic][next(2) as usize],
        cta_spread: [CtaSpread::Neighbours, CtaSpread::ByLane][next(2) as usize],
        dependent_launch: next(2) == 0,
        host_instances: [d.host_instances, 256][next(2) as usize],
        host_threads: [d.host_threads, 2][next(2) as usize],
        loop_bound: [d.loop_bound, 5][next(2) as usize],
        gpu_map: [None, Some(vec![0, 0]), Some(vec![1, 0, 1])][next(3) as usize].clone(),
        ..d
    }
}

fn lines() -> String {
    let mut state = 46u64;
    let mut out = String::new();
    for i in 0..2000 {
        let b = base(&mut state);
        let mut k = draw(&mut state, &b);
        if i % 7 == 0 {
            k.tuning = Some("litmus-tuning.toml".into());
        }
        if i % 11 == 0 {
            k = k.resolve_for_gpus(2 + (i % 3) as u32);
        }
        out.push_str(&format!("{k}\n"));
        let vars: Vec<String> = k
            .env_assignments()
            .into_iter()
            .map(|(v, x)| format!("{v}={x}"))
            .collect();
        out.push_str(&format!("{}\n", vars.join(" ")));
    }
    out
}

#[test]
fn the_knobs_line_and_its_assignments_are_as_before() {
    let now = lines();
    if std::env::var("KNOBS_SNAPSHOT_WRITE").is_ok_and(|v| v == "1") {
        std::fs::write(SNAPSHOT, &now).unwrap();
    }
    let before = std::fs::read_to_string(SNAPSHOT).unwrap();
    for (n, (a, b)) in before.lines().zip(now.lines()).enumerate() {
        assert_eq!(a, b, "line {} of {SNAPSHOT}", n + 1);
    }
    assert_eq!(before.lines().count(), now.lines().count());
}
