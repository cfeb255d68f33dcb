use super::*;
use litmus_core::outcome::observables;

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// A stand-in GPU: test `t` under pool configuration `c` shows its
/// weak outcome in `rate(t, c)` of its instances, a million instances
/// per millisecond of budget; it records every (test, config) run.
struct FakeGpu<'a> {
    pool: Vec<Knobs>,
    rate: &'a (dyn Fn(usize, usize) -> f64 + Sync),
    runs: Vec<(usize, usize, u64)>,
}

impl<'a> FakeGpu<'a> {
    fn new(pool: Vec<Knobs>, rate: &'a (dyn Fn(usize, usize) -> f64 + Sync)) -> Self {
        FakeGpu {
            pool,
            rate,
            runs: Vec::new(),
        }
    }

    fn run(&mut self, t: usize, k: &Knobs) -> Result<HwResult, GpuError> {
        let c = self
            .pool
            .iter()
            .position(|p| same_environment(p, k))
            .expect("a trial runs a pool configuration");
        self.runs.push((t, c, k.budget_ms));
        let instances = k.budget_ms * 1_000_000;
        let weak = ((self.rate)(t, c) * instances as f64) as u64;
        Ok(HwResult {
            histogram: vec![(vec![1, 0], weak), (vec![1, 1], instances - weak)],
            unfinished: 0,
            launches: k.budget_ms,
            instances,
            wall: Duration::from_millis(k.budget_ms),
            device: "fake".into(),
            knobs: k.clone(),
            host_threads: 0,
            build: Default::default(),
        })
    }
}

fn tests(n: usize) -> Vec<Test> {
    (0..n)
        .map(|i| {
            let mut t = litmus_text::parse(MP).unwrap();
            t.name.text = format!("mp{i}");
            t
        })
        .collect()
}

fn subjects(tests: &[Test]) -> Vec<Subject<'_>> {
    tests
        .iter()
        .map(|t| Subject {
            test: t,
            ptx: "",
            target: Target::Condition(observables(t)),
        })
        .collect()
}

fn search(
    n: usize,
    plan: &FamilyPlan,
    rate: &(dyn Fn(usize, usize) -> f64 + Sync),
) -> (Vec<Found>, Vec<(usize, usize, u64)>) {
    let tests = tests(n);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let mut gpu = FakeGpu::new(pool(&base, plan), rate);
    let found = search_family(&subjects, &base, plan, |t, _, k| gpu.run(t, k), |_, _| {});
    (found, gpu.runs)
}

#[test]
fn the_pool_holds_the_measured_anchors_right_after_the_base() {
    let base = Knobs::default();
    let pool = pool(&base, &FamilyPlan::within(640, 64, 3));
    assert_eq!(pool.len(), 64);
    assert_eq!(pool[0], base);
    assert_eq!(&pool[1..4], &crate::space::anchors(&base)[..]);
    // A family across GPUs gets the anchors measured there too.
    let across = pool_for(&base, &FamilyPlan::within(640, 64, 3), true);
    assert_eq!(&across[4..9], &crate::space::gpu_anchors(&base)[..]);
    assert!(!pool.contains(&crate::space::gpu_anchors(&base)[0]));
    assert_eq!((pool[1].ctas_per_sm, pool[2].env.interleave_pct), (1, 100));
    // A pool too small for draws after them keeps the anchors out.
    let small = pool_of(&base, 2);
    assert_eq!(small.len(), 2);
    assert!(!small.contains(&crate::space::anchors(&base)[1]));
}

#[test]
fn a_pool_over_two_compilers_runs_the_base_and_anchors_under_each() {
    let base = Knobs::default();
    let t = Some("ptxas-12.4".to_string());
    let mut plan = FamilyPlan::within(100, 16, 1);
    plan.toolchains = vec![None, t.clone()];
    let pool = pool(&base, &plan);
    assert_eq!(pool.len(), 16);
    assert_eq!(
        (pool[0].ptxas.clone(), pool[1].ptxas.clone()),
        (None, t.clone())
    );
    assert_eq!(
        Knobs {
            ptxas: None,
            ..pool[1].clone()
        },
        pool[0]
    );
    let anchor = &crate::space::anchors(&base)[0];
    for under in [None, t.clone()] {
        let k = Knobs {
            ptxas: under,
            ..anchor.clone()
        };
        assert!(pool.contains(&k), "{k}");
    }
    // Every drawn environment runs under both compilers, twins side
    // by side.
    let drawn = &pool[8..];
    assert_eq!(drawn.len(), 8);
    for twins in drawn.chunks(2) {
        assert_eq!((&twins[0].ptxas, &twins[1].ptxas), (&None, &t));
        assert_eq!(
            Knobs {
                ptxas: None,
                ..twins[1].clone()
            },
            twins[0]
        );
    }
    // The environments drawn are those a pool of one compiler draws.
    plan.toolchains = vec![t.clone()];
    let alone = pool_for(&base, &plan, false);
    let envs = |p: &[Knobs]| -> Vec<Knobs> {
        p.iter()
            .map(|k| Knobs {
                ptxas: None,
                ..k.clone()
            })
            .collect()
    };
    let twin_envs: Vec<Knobs> = envs(drawn).into_iter().step_by(2).collect();
    // (that pool: the base and three anchors, then its draws)
    assert_eq!(twin_envs, envs(&alone[4..8]));
    // One compiler (or none named): the pool is what it was.
    plan.toolchains = vec![None];
    let one = pool_for(&base, &plan, false);
    plan.toolchains.clear();
    assert_eq!(one, pool_for(&base, &plan, false));
}

fn pool_of(base: &Knobs, n: usize) -> Vec<Knobs> {
    pool(base, &FamilyPlan::within(100, n, 1))
}

#[test]
fn an_unseen_test_tries_the_whole_pool_before_any_slice_grows() {
    let plan = FamilyPlan::within(1280, 64, 3);
    assert_eq!(plan.slice_ms, 10);
    let (found, runs) = search(3, &plan, &|_, _| 0.0);
    for (t, f) in found.iter().enumerate() {
        assert!(!f.seen());
        assert_eq!(f.configs, 64, "test {t} tried {} configurations", f.configs);
        let mine: Vec<_> = runs.iter().filter(|r| r.0 == t).collect();
        // The first pass, half the budget at the first slice: every
        // configuration once. The rest goes round again, twice as long.
        let (first, rest) = mine.split_at(64);
        assert!(first.iter().all(|r| r.2 == 10), "first pass, first slice");
        let distinct: BTreeSet<usize> = first.iter().map(|r| r.1).collect();
        assert_eq!(distinct.len(), 64);
        assert!(
            !rest.is_empty() && rest.iter().all(|r| r.2 == 20),
            "second pass"
        );
        // The base first: what runs untuned is always measured.
        assert_eq!(mine[0].1, 0);
    }
    // The tests do not walk the pool in one order: the credit spreads.
    let second: BTreeSet<usize> = (0..3)
        .map(|t| runs.iter().filter(|r| r.0 == t).nth(1).unwrap().1)
        .collect();
    assert!(second.len() > 1, "{second:?}");
}

#[test]
fn a_configuration_that_showed_one_variant_is_tried_next_on_the_others() {
    // Only configuration 40 shows anything, in every test.
    let plan = FamilyPlan::within(10 * 64, 64, 5);
    let (found, runs) = search(8, &plan, &|_, c| if c == 40 { 1e-3 } else { 0.0 });
    assert!(found.iter().all(Found::seen));
    let first_hit = runs.iter().position(|r| r.1 == 40).unwrap();
    let hitter = runs[first_hit].0;
    // After the first hit, every other test's next trial is 40.
    for t in (0..8).filter(|t| *t != hitter) {
        let next = runs[first_hit + 1..].iter().find(|r| r.0 == t).unwrap();
        assert_eq!(next.1, 40, "test {t}");
    }
    // The winner is the tuning entry.
    assert!(found.iter().all(
        |f| f.best.weak > 0 && f.best.knobs.stride == pool(&Knobs::default(), &plan)[40].stride
    ));
}

#[test]
fn what_showed_a_tests_kin_runs_longer_for_it() {
    let plan = FamilyPlan::within(800, 16, 7);
    let slice = plan.slice_ms;
    // Test 0 shows at once under configuration 9; its kin, tests 1..4,
    // there too, but a hundred thousand times more rarely: never in
    // one slice, a few times in eight.
    let k = 9;
    let (found, runs) = search(4, &plan, &|t, c| match (t, c) {
        (0, 9) => 1e-3,
        (_, 9) => 1e-8,
        _ => 0.0,
    });
    assert!(found.iter().all(Found::seen));
    let shown = runs.iter().position(|r| r.0 == 0 && r.1 == k).unwrap();
    // Each of the kin, by its first trial of 9 after the showing, has
    // run it for the kin's best slices (a slice before, if it had tried
    // it then, and the rest after).
    let deeper = (slice as f64 * (1.0 + crate::credit::DEEPER)) as u64;
    for t in 1..4 {
        let first_after = shown
            + 1
            + runs[shown + 1..]
                .iter()
                .position(|r| r.0 == t && r.1 == k)
                .unwrap();
        let ms: u64 = runs[..=first_after]
            .iter()
            .filter(|r| r.0 == t && r.1 == k)
            .map(|r| r.2)
            .sum();
        assert!(ms >= deeper, "test {t}: {ms} ms at {slice} ms a slice");
    }
}

#[test]
fn a_configuration_that_shows_the_kin_after_a_test_tried_it_is_owed_the_difference() {
    let plan = FamilyPlan::within(800, 16, 7);
    let slice = plan.slice_ms;
    // Where each test's order goes when nothing shows: pick a
    // configuration that test 1 tries in its first turn and test 0 only
    // in its second.
    let (_, dry) = search(2, &plan, &|_, _| 0.0);
    let turn = |t: usize| -> Vec<usize> {
        dry.iter()
            .filter(|r| r.0 == t)
            .take(plan.turn)
            .map(|r| r.1)
            .collect()
    };
    let (first0, first1) = (turn(0), turn(1));
    let k = *first1
        .iter()
        .find(|c| **c != 0 && !first0.contains(c))
        .expect("two tests' orders differ in a pool of 16");
    // Test 0 shows under k at once; test 1 there too, a million times
    // more rarely.
    let (_, runs) = search(2, &plan, &|t, c| match (t, c) {
        (0, c) if c == k => 1e-3,
        (1, c) if c == k => 1e-9,
        _ => 0.0,
    });
    let tried = runs.iter().position(|r| r.0 == 1 && r.1 == k).unwrap();
    let shown = runs.iter().position(|r| r.0 == 0 && r.1 == k).unwrap();
    assert!(tried < shown, "test 1 tried {k} before test 0 showed it");
    assert_eq!(runs[tried].2, slice, "once, for a slice, before the credit");
    // Its next trial after the showing is k again, for what the kin's
    // best is owed beyond the slice it ran; before, a test tried a
    // configuration once a pass whatever it showed later.
    let next = runs[shown + 1..].iter().find(|r| r.0 == 1).unwrap();
    let owed = (slice as f64 * crate::credit::DEEPER).round() as u64;
    assert_eq!((next.1, next.2), (k, owed), "{runs:?}");
}

#[test]
fn what_an_earlier_step_showed_in_the_kin_is_tried_first_and_longer() {
    let plan = FamilyPlan::within(800, 16, 7);
    let tests = tests(1);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let pool = pool(&base, &plan);
    // The test shows only under configuration 12.
    let k = 12;
    let rate = |_: usize, c: usize| if c == k { 1e-3 } else { 0.0 };
    let run_with = |plan: &FamilyPlan| {
        let mut gpu = FakeGpu::new(pool.clone(), &rate);
        let found = search_family(&subjects, &base, plan, |t, _, k| gpu.run(t, k), |_, _| {});
        assert!(found[0].seen());
        gpu.runs
    };
    let alone = run_with(&plan);
    let shown = alone.iter().position(|r| r.1 == k).unwrap();
    assert!(
        shown > 1,
        "the test's own order reaches {k} late: {alone:?}"
    );
    // An earlier step showed a test of its kin under configuration 12
    // (as that trial ran it: its own seed and budget); one showed
    // another under a configuration not in this pool.
    let mut earlier = plan.clone();
    earlier.shown = vec![
        (
            Knobs {
                seed: 99,
                budget_ms: 3,
                ..pool[k].clone()
            },
            Kin::of(&tests[0]),
        ),
        (
            Knobs {
                stride: 999,
                ..base.clone()
            },
            Kin::of(&tests[0]),
        ),
    ];
    let runs = run_with(&earlier);
    // Configuration 12 first (credit outranks the order, the base's
    // place in it too), for the slices of the kin's best.
    assert_eq!(runs[0].1, k, "{runs:?}");
    let deeper = (plan.slice_ms as f64 * (1.0 + crate::credit::DEEPER)) as u64;
    assert!(runs[0].2 >= deeper, "{runs:?}");
    // A winner an earlier round took on top of its pool, less a knob its
    // tuning entry does not keep: it counts for the draw it stands for.
    earlier.shown = vec![(
        Knobs {
            gpu_jitter: pool[k].gpu_jitter + 1,
            ..pool[k].clone()
        },
        Kin::of(&tests[0]),
    )];
    assert_eq!(run_with(&earlier)[0].1, k);
}

/// MP, and MP with CTA-scope fences (another kin), `n` of each.
fn two_kin(n: usize) -> Vec<Test> {
    let fenced = MP.replace(
        " st.weak y, 1 | ld.weak r1, x ;",
        " fence.acq_rel.cta | fence.acq_rel.cta ;\n st.weak y, 1 | ld.weak r1, x ;",
    );
    let mut tests = tests(n);
    tests.extend((n..2 * n).map(|i| {
        let mut t = litmus_text::parse(&fenced).unwrap();
        t.name.text = format!("mp-fenced{i}");
        t
    }));
    tests
}

#[test]
fn a_kin_of_which_nothing_has_shown_takes_a_tenth_of_the_turns() {
    // Two MP and two fenced MP, none of which ever shows. Outside the
    // set, 40 MP of which none showed and 40 fenced of which 10 did.
    let tests = two_kin(2);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let never = |_: usize, _: usize| 0.0;
    let spent = |plan: &FamilyPlan| {
        let mut gpu = FakeGpu::new(pool(&base, plan), &never);
        search_family(&subjects, &base, plan, |t, _, k| gpu.run(t, k), |_, _| {});
        // Trials (one a turn) and GPU time, of the MP and of the fenced.
        let of = |ts: std::ops::Range<usize>| {
            let runs = gpu.runs.iter().filter(|r| ts.contains(&r.0));
            (runs.clone().count(), runs.map(|r| r.2).sum::<u64>())
        };
        (of(0..2), of(2..4))
    };
    let mut plan = FamilyPlan::within(800, 16, 7);
    plan.turn = 1;
    let (mp, fenced) = spent(&plan);
    assert_eq!(mp, fenced, "without a record outside, an even split");
    plan.outside = (0..80)
        .map(|i| (Kin::of(&tests[if i < 40 { 0 } else { 2 }]), i >= 70))
        .collect();
    let ((mp, mp_ms), (fenced, fenced_ms)) = spent(&plan);
    assert!(
        mp_ms + fenced_ms >= 4 * 800 - 200,
        "the set's budget is spent"
    );
    // A tenth of the turns (give or take the last wave of each of its
    // two tests), and less of the time: the fenced tests' later passes
    // run longer slices.
    assert!(
        mp + 2 >= fenced / 10 && mp <= fenced / 10 + 2,
        "{mp} turns against {fenced}"
    );
    assert!(mp_ms * 10 <= fenced_ms, "{mp_ms} ms against {fenced_ms}");
}

#[test]
fn a_test_tries_what_showed_its_kin_then_its_kins_compiler_before_the_rest() {
    // Tests 0..3 are MP; 3..6 MP with CTA-scope fences, a kin apart.
    let fenced = MP.replace(
        " st.weak y, 1 | ld.weak r1, x ;",
        " fence.acq_rel.cta | fence.acq_rel.cta ;\n st.weak y, 1 | ld.weak r1, x ;",
    );
    let mut tests = tests(3);
    tests.extend((3..6).map(|i| {
        let mut t = litmus_text::parse(&fenced).unwrap();
        t.name.text = format!("mp-fenced{i}");
        t
    }));
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let mut plan = FamilyPlan::within(800, 16, 7);
    let ptxas = Some("ptxas-12.4".to_string());
    plan.toolchains = vec![None, ptxas.clone()];
    let pool = pool(&base, &plan);
    let under = |c: usize| pool[c].ptxas == ptxas;
    let jit: Vec<usize> = (2..16).filter(|c| !under(*c)).collect();
    let compiled: Vec<usize> = (2..16).filter(|c| under(*c)).collect();
    // The MP tests show under two JIT configurations (so those have
    // the most credit anywhere); fenced 3 and 4 only under ptxas
    // configuration x, fenced 5 only under ptxas configuration y.
    let (j1, j2) = (jit[2], jit[4]);
    let (x, y) = (compiled[compiled.len() - 1], compiled[compiled.len() - 2]);
    let rate = |t: usize, c: usize| match t {
        0..3 if c == j1 || c == j2 => 1e-3,
        3 | 4 if c == x => 1e-3,
        5 if c == y => 1e-3,
        _ => 0.0,
    };
    let mut gpu = FakeGpu::new(pool.clone(), &rate);
    let found = search_family(&subjects, &base, &plan, |t, _, k| gpu.run(t, k), |_, _| {});
    assert!(found.iter().all(Found::seen));
    let runs = gpu.runs;
    let first_kin_hit = runs
        .iter()
        .position(|r| (3..5).contains(&r.0) && r.1 == x)
        .unwrap();
    let hitter = runs[first_kin_hit].0;
    let y_hit = runs.iter().position(|r| r.0 == 5 && r.1 == y).unwrap();
    assert!(y_hit > first_kin_hit, "fenced 5 showed before its kin did");
    // The other fenced test that shows at x tries x next, though two
    // JIT configurations have shown more tests.
    let other = 7 - hitter;
    if let Some(next) = runs[first_kin_hit + 1..].iter().find(|r| r.0 == other) {
        assert!(
            next.1 == x
                || runs[..first_kin_hit]
                    .iter()
                    .any(|r| r.0 == other && r.1 == x),
            "fenced {other} tried {} after its kin showed at {x}",
            next.1
        );
    }
    // Fenced 5 tries x, then configurations under its kin's compiler,
    // until it finds y: no JIT configuration in between.
    let between: Vec<usize> = runs[first_kin_hit + 1..y_hit]
        .iter()
        .filter(|r| r.0 == 5)
        .map(|r| r.1)
        .collect();
    assert!(
        between.iter().all(|&c| under(c)),
        "fenced 5 tried {between:?} (JIT: {jit:?}) before {y}"
    );
}

#[test]
fn lanes_share_the_pool_and_the_budget_and_every_test_is_searched() {
    let tests = tests(9);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let plan = FamilyPlan::within(400, 16, 5);
    let pool = pool(&base, &plan);
    // Configuration 5 alone shows every test's weak outcome.
    let rate = |_: usize, c: usize| if c == 5 { 1e-3 } else { 0.0 };
    let gpu = Mutex::new(FakeGpu::new(pool.clone(), &rate));
    let lanes_used = Mutex::new(BTreeSet::new());
    let found = search_family_on(
        &subjects,
        &base,
        &plan,
        3,
        |l, t, _, k| {
            lanes_used.lock().unwrap().insert(l);
            std::thread::sleep(Duration::from_millis(1));
            gpu.lock().unwrap().run(t, k)
        },
        |_, _| {},
    );
    assert_eq!(*lanes_used.lock().unwrap(), BTreeSet::from([0, 1, 2]));
    assert_eq!(found.len(), 9);
    assert!(found.iter().all(Found::seen), "every test found config 5");
    let runs = &gpu.lock().unwrap().runs;
    let spent: u64 = runs.iter().map(|(_, _, ms)| ms).sum();
    // The budget is the set's; a trial already under way may finish.
    assert!(spent <= 400 * 9 + 3 * 400, "{spent} ms");
    // The credit is shared: once one test showed configuration 5, the
    // tests after it try it before the whole pool.
    let tried: Vec<usize> = (0..9)
        .map(|t| runs.iter().filter(|(x, _, _)| *x == t).count())
        .collect();
    assert!(tried.iter().skip(3).any(|&n| n < pool.len()), "{tried:?}");
}

#[test]
fn the_budget_flows_to_the_tests_still_unseen() {
    // Tests 0..7 show under the base at once; test 7 only under the
    // pool's last configuration, which its own budget (40 slices)
    // would never reach, but the set's budget does.
    let plan = FamilyPlan::within(200, 64, 11);
    assert_eq!(plan.slice_ms, 5);
    let last = 63;
    let (found, runs) = search(8, &plan, &|t, c| match (t, c) {
        (7, c) if c == last => 1e-4,
        (7, _) => 0.0,
        (_, 0) => 1e-2,
        _ => 0.0,
    });
    assert!(
        found.iter().all(Found::seen),
        "{:?}",
        found.iter().map(Found::seen).collect::<Vec<_>>()
    );
    let spent7: u64 = runs.iter().filter(|r| r.0 == 7).map(|r| r.2).sum();
    assert!(
        spent7 > 200,
        "test 7 spent {spent7} ms, more than its own 200"
    );
    // Seen tests stopped after their refinement: a quarter of their
    // budget, give or take one doubled trial.
    for t in 0..7 {
        let spent: u64 = runs.iter().filter(|r| r.0 == t).map(|r| r.2).sum();
        assert!(spent <= 5 + 50 + 80, "test {t} spent {spent}");
    }
    let total: u64 = runs.iter().map(|r| r.2).sum();
    assert!(total <= 8 * 200 + 640, "{total}");
}

#[test]
fn a_configuration_whose_launches_outlast_its_slices_is_left_out_after_a_few_trials() {
    let tests = tests(6);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let plan = FamilyPlan::within(1000, 16, 5);
    let pool = pool(&base, &plan);
    // Nothing shows, so every test walks the whole pool; every trial
    // of configuration 3 takes twenty times the GPU time it asked for
    // (one launch outlasting the slice), six of them the set's budget.
    let slow = 3;
    let mut gpu = FakeGpu::new(pool.clone(), &|_, _| 0.0);
    let mut dropped = Vec::new();
    search_family(
        &subjects,
        &base,
        &plan,
        |t, _, k| {
            let mut r = gpu.run(t, k)?;
            if gpu.runs.last().is_some_and(|run| run.1 == slow) {
                r.wall *= 20;
            }
            Ok(r)
        },
        |p, _| dropped.push(p.dropped),
    );
    let slow_trials = gpu.runs.iter().filter(|r| r.1 == slow).count();
    assert_eq!(slow_trials, crate::overrun::TRIALS as usize);
    assert_eq!(dropped.last(), Some(&1));
    // The time it did not take went to the others: every test tried
    // the rest of the pool.
    for t in 0..6 {
        let tried: BTreeSet<usize> = gpu.runs.iter().filter(|r| r.0 == t).map(|r| r.1).collect();
        let rest = (0..pool.len()).filter(|&c| c != slow);
        assert!(
            rest.into_iter().all(|c| tried.contains(&c)),
            "test {t} tried {tried:?}"
        );
    }
}

#[test]
fn a_configuration_that_fails_is_not_tried_again_and_a_test_that_never_runs_says_why() {
    let tests = tests(2);
    let subjects = subjects(&tests);
    let base = Knobs::default();
    let plan = FamilyPlan::within(100, 8, 1);
    let mut calls = Vec::new();
    let found = search_family(
        &subjects,
        &base,
        &plan,
        |_, s, k| {
            calls.push((s.test.name.text.clone(), k.to_string()));
            Err(GpuError::Worker(format!("no {}", s.test.name)))
        },
        |_, _| {},
    );
    // Each test tried each configuration once, then stopped.
    assert_eq!(calls.len(), 16);
    let distinct: BTreeSet<_> = calls.iter().collect();
    assert_eq!(distinct.len(), 16);
    for f in &found {
        assert!(!f.seen());
        assert!(matches!(&f.error, Some(GpuError::Worker(m)) if m.starts_with("no mp")));
    }
}

#[test]
fn the_pool_holds_the_seeds_draws_whatever_the_starts_and_the_starts_on_top() {
    let base = Knobs::default();
    let plan = FamilyPlan::within(1000, 16, 9);
    let seeds = pool(&base, &plan);
    assert_eq!(seeds.len(), 16);
    // Winners as a tuning file gives them back: a drawn environment less a
    // knob the entry does not keep, so no longer equal to the draw.
    let winner = |c: usize| Knobs {
        gpu_jitter: seeds[c].gpu_jitter + 1,
        ..seeds[c].clone()
    };
    assert_ne!(winner(15), seeds[15]);
    let other = |stride: u32| Knobs {
        stride,
        ..Knobs::default()
    };
    assert!(seeds.iter().all(|k| k.stride != 13 && k.stride != 14));
    let mut with = plan.clone();
    with.starts = vec![other(13), base.clone(), winner(15), other(13), winner(14)];
    let p = pool(&base, &with);
    // Every draw of the seed's pool is still there, in its place.
    assert_eq!(&p[..16], &seeds[..]);
    // On top: the starts that are not one of its entries already.
    assert_eq!(&p[16..], &[other(13)][..]);
    // At most a quarter of the pool more.
    let many = FamilyPlan {
        starts: (1..=16).map(other).collect(),
        ..plan.clone()
    };
    let p = pool(&base, &many);
    assert_eq!((p.len(), &p[..16]), (16 + 4, &seeds[..]));
    let distinct: BTreeSet<String> = p.iter().map(|k| k.to_string()).collect();
    assert_eq!(distinct.len(), p.len());
    // The same seed draws the same pool.
    assert_eq!(pool(&base, &with), pool(&base, &with));
}
