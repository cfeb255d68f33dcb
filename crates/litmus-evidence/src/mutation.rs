//! The mutation score of a cat model: how much of it the hardware evidence
//! and the tests' declared verdicts pin down.
//!
//! Every single-edit mutant of the model ([`litmus_model::cat::mutate`]) is
//! classified against the model on the tests, and judged: killed by
//! evidence when the hardware showed an outcome the mutant forbids and the
//! model allows, killed by a verdict when a test's declared verdict agrees
//! with the model and not with the mutant, else survived. The score is
//! killed / (mutants − equivalent). [`kill_candidates`] then finds, among
//! candidate tests, those that could kill a survivor on a GPU.
//!
//! This lives here, not in the model crate, because a kill is judged by
//! the evidence's rule ([`crate::judge`]): an outcome the mutant allows
//! with more loop iterations kills nothing, as in the [`crate::gate`]. Not
//! in the CLI either: a CI bot or a notebook scores a model with these
//! calls, and `gpu-litmus mutants` only parses, loads and prints.
//!
//! ```
//! use litmus_evidence::gate::Subject;
//! use litmus_evidence::mutation::{judge_all, Ground, Kill, Score};
//! use litmus_evidence::{Evidence, Record, Run};
//! use litmus_model::cat::mutate::mutate;
//! use litmus_model::Options;
//!
//! // Message passing with no fence: the hardware shows its weak outcome.
//! let test = litmus_core::text::parse(
//!     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
//! )
//! .unwrap();
//! let run = Run {
//!     histogram: &[(vec![1, 0], 3), (vec![0, 0], 97)],
//!     instances: 100,
//!     unfinished: 0,
//!     device: "NVIDIA H100",
//!     knobs: "ctas=4",
//!     seed: 7,
//! };
//! let evidence = Evidence {
//!     records: vec![Record::of_run(&test, &run, "mp.litmus")],
//!     ..Evidence::default()
//! };
//! let subjects = [Subject::new("mp.litmus", test)];
//! let src = "\"tiny\"\nacyclic po-loc | rf | co | fr as coherence\n";
//! let m = mutate("tiny.cat".as_ref(), src, &mut |_| Err("no includes".into())).unwrap();
//! let options = Options::default();
//!
//! let ground = Ground::new(&m, &subjects, &evidence, &options, 2).unwrap();
//! assert_eq!(ground.base_failure_count(), 0, "the model allows what was seen");
//! let judged = judge_all(&ground, &m, 2);
//! // The mutant that adds plain SC forbids the outcome the GPU showed.
//! let sc = m.mutants.iter().position(|x| x.description.contains("plain SC")).unwrap();
//! assert!(matches!(&judged[sc].kill, Kill::Evidence(k) if k[0].count == 3));
//! let score = Score::of(&judged);
//! assert!(score.by_evidence >= 1);
//! assert!(score.value().is_some());
//! ```

use std::path::Path;

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Test, Verdict};
use litmus_core::parallel::par_for;
use litmus_model::cat::batch::Batch;
use litmus_model::cat::mutate::{Mutant, Mutation};
use litmus_model::cat::{CatError, CatModel, IncludeError};
use litmus_model::compare::{
    classify, diff_verdicts, verdict_of, Allowed, Class, Classification, Difference,
};
use litmus_model::{Model, Options};

use crate::gate::{seen, Seen, Subject};
use crate::judge::allowed_with_more_iterations;
use crate::Evidence;

/// Why a model could not be scored: its cat text (or a mutant's) does not
/// compile as one file.
#[derive(Debug, thiserror::Error)]
pub enum MutationError {
    /// The compiler's error, with its file, line and column.
    #[error(transparent)]
    Cat(#[from] CatError),
}

/// Hardware evidence that kills a mutant on one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvidenceKill {
    /// The test's index in [`Ground::subjects`].
    pub test: usize,
    /// Instances that showed the outcomes the mutant forbids.
    pub count: u64,
    /// Those outcomes, as recorded (`P1:r0=1; P1:r1=0`).
    pub outcomes: Vec<String>,
}

/// A declared verdict that kills a mutant on one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerdictKill {
    /// The test's index in [`Ground::subjects`].
    pub test: usize,
    /// The verdict the test declares: the model's, not the mutant's.
    pub declared: Verdict,
}

/// What killed a mutant.
#[derive(Clone, Debug)]
pub enum Kill {
    /// The hardware showed outcomes the mutant forbids and the model
    /// allows, in test order: every test without loops that does, or when
    /// none does, every test with loops that does.
    Evidence(Vec<EvidenceKill>),
    /// Tests whose declared verdict agrees with the model and not with the
    /// mutant, in test order.
    Verdict(Vec<VerdictKill>),
    /// Nothing did.
    Survived,
}

impl Kill {
    /// `evidence`, `verdict`, or `—` for a survivor: the table's column.
    pub fn word(&self) -> &'static str {
        match self {
            Kill::Evidence(_) => "evidence",
            Kill::Verdict(_) => "verdict",
            Kill::Survived => "—",
        }
    }
}

/// One mutant's judgement.
#[derive(Clone, Debug)]
pub struct Judged {
    /// How the mutant relates to the model on the tests.
    pub class: Classification,
    /// What kills it.
    pub kill: Kill,
}

/// The tests, their evidence, and the verdicts of the model and every
/// mutant on them: what each mutant is judged against.
pub struct Ground<'a> {
    /// The tests.
    pub subjects: &'a [Subject],
    /// Per test: every outcome the hardware showed, merged over records.
    pub seen: Vec<Vec<Seen>>,
    /// Per model row (0: the model, `i + 1`: mutant `i`), per test.
    pub allowed: Vec<Vec<Allowed>>,
    /// Per test: the observed outcomes the model itself forbids.
    pub base_failures: Vec<Vec<Vec<u32>>>,
    /// The options every check ran with.
    pub options: &'a Options,
}

impl<'a> Ground<'a> {
    /// Checks every test under the model and all its mutants (one shared
    /// search per test, on `threads` threads), then judges the model itself
    /// against `evidence` as the gate does. [`Ground::check`] and
    /// [`Ground::judge_base`] are the two halves, for a caller that times
    /// them apart.
    pub fn new(
        m: &Mutation,
        subjects: &'a [Subject],
        evidence: &Evidence,
        options: &'a Options,
        threads: usize,
    ) -> Result<Ground<'a>, MutationError> {
        let allowed = Ground::check(m, subjects, options, threads);
        Ground::judge_base(m, subjects, evidence, allowed, options)
    }

    /// The allowed outcomes of the model (row 0) and every mutant (row
    /// `i + 1`) on every test.
    pub fn check(
        m: &Mutation,
        subjects: &[Subject],
        options: &Options,
        threads: usize,
    ) -> Vec<Vec<Allowed>> {
        Ground::check_with(m, subjects, options, threads, &|| {})
    }

    /// [`Ground::check`], calling `done` as each test is checked (the
    /// long part of a score: a progress bar's count).
    pub fn check_with(
        m: &Mutation,
        subjects: &[Subject],
        options: &Options,
        threads: usize,
        done: &(dyn Fn() + Sync),
    ) -> Vec<Vec<Allowed>> {
        let tests: Vec<Test> = subjects.iter().map(|s| s.test.clone()).collect();
        m.batch()
            .verdicts_with(&tests, options, threads, done)
            .allowed
    }

    /// The ground from [`Ground::check`]'s rows: the evidence per test,
    /// and the outcomes the model itself forbids.
    pub fn judge_base(
        m: &Mutation,
        subjects: &'a [Subject],
        evidence: &Evidence,
        allowed: Vec<Vec<Allowed>>,
        options: &'a Options,
    ) -> Result<Ground<'a>, MutationError> {
        let base = CatModel::from_source(&m.path, &m.base_source, &mut no_include)?;
        let seen = observed(subjects, evidence);
        let base_failures = (0..subjects.len())
            .map(|t| forbidden_seen(&subjects[t].test, &base, &allowed[0][t], &seen[t], options))
            .collect();
        Ok(Ground {
            subjects,
            seen,
            allowed,
            base_failures,
            options,
        })
    }

    /// Observed outcomes the model itself forbids, over every test: 0 when
    /// the model passes the gate.
    pub fn base_failure_count(&self) -> usize {
        self.base_failures.iter().map(Vec::len).sum()
    }

    /// The tests the model itself cannot check, with why.
    pub fn base_errors(&self) -> Vec<(usize, &litmus_model::Unchecked)> {
        self.allowed[0]
            .iter()
            .enumerate()
            .filter_map(|(t, a)| a.as_ref().err().map(|e| (t, e)))
            .collect()
    }
}

/// The reader of includes for a model printed as one file: there are none.
pub fn no_include(p: &Path) -> Result<String, IncludeError> {
    Err(format!(
        "a model as one file includes nothing, but `{}` was asked for",
        p.display()
    )
    .into())
}

/// Per subject, the outcomes its evidence showed (matched by name and IR
/// hash, as the gate matches them).
pub fn observed(subjects: &[Subject], evidence: &Evidence) -> Vec<Vec<Seen>> {
    let by_test = evidence.by_test();
    subjects
        .iter()
        .map(|s| {
            by_test
                .get(&(s.test.name.text.as_str(), s.hash.as_str()))
                .map_or_else(Vec::new, |r| seen(r))
        })
        .collect()
}

/// Whether some thread of `test` jumps back: only then can a check cut
/// paths at the loop bound, and an outcome outside the allowed set be one
/// that more iterations allow.
pub fn has_loop(test: &Test) -> bool {
    test.threads.iter().any(|t| {
        t.body
            .iter()
            .enumerate()
            .any(|(i, instr)| match &instr.kind {
                InstrKind::Branch { target, .. } => t.body[..=i]
                    .iter()
                    .any(|x| matches!(&x.kind, InstrKind::Label(l) if l.text == target.text)),
                _ => false,
            })
    })
}

/// The outcomes of `seen` that `model` forbids, judged as the gate does:
/// outside `allowed`, and not allowed with more loop iterations either.
pub fn forbidden_seen(
    test: &Test,
    model: &dyn Model,
    allowed: &Allowed,
    seen: &[Seen],
    options: &Options,
) -> Vec<Vec<u32>> {
    let Ok(allowed) = allowed else {
        return Vec::new();
    };
    let outside: Vec<Vec<u32>> = seen
        .iter()
        .filter(|s| !allowed.contains(&s.values))
        .map(|s| s.values.clone())
        .collect();
    if outside.is_empty() || !has_loop(test) {
        return outside;
    }
    let more = allowed_with_more_iterations(test, model, options);
    outside.into_iter().filter(|v| !more.contains(v)).collect()
}

/// Mutant `i` (`mutant`, row `i + 1` of [`Ground::allowed`]): its class,
/// and what kills it.
pub fn judge(g: &Ground, i: usize, mutant: &Mutant) -> Judged {
    let row = &g.allowed[i + 1];
    let class = classify(&g.allowed[0], row);
    let mut verdicts = Vec::new();
    for (t, subject) in g.subjects.iter().enumerate() {
        let test = &subject.test;
        let (Ok(base), Ok(mine), Some(declared)) = (&g.allowed[0][t], &row[t], &test.verdict)
        else {
            continue;
        };
        let d = declared.verdict;
        if verdict_of(test, base) == d && verdict_of(test, mine) != d {
            verdicts.push(VerdictKill {
                test: t,
                declared: d,
            });
        }
    }
    // Tests with loops come last, and only when no other test kills the
    // mutant: excusing an outcome there means checking again with loops
    // unrolled further (seconds per test and mutant), which the first
    // kill makes moot.
    let (plain, looping): (Vec<usize>, Vec<usize>) =
        (0..g.subjects.len()).partition(|&t| !has_loop(&g.subjects[t].test));
    let mut evidence = evidence_kills(g, i, mutant, &plain);
    if evidence.is_empty() {
        evidence = evidence_kills(g, i, mutant, &looping);
    }
    let kill = if !evidence.is_empty() {
        Kill::Evidence(evidence)
    } else if !verdicts.is_empty() {
        Kill::Verdict(verdicts)
    } else {
        Kill::Survived
    };
    Judged { class, kill }
}

/// Every mutant of `m` judged against `g`, on `threads` threads, in
/// [`Mutation::mutants`] order.
pub fn judge_all(g: &Ground, m: &Mutation, threads: usize) -> Vec<Judged> {
    judge_all_with(g, m, threads, &|| {})
}

/// [`judge_all`], calling `done` as each mutant is judged.
pub fn judge_all_with(
    g: &Ground,
    m: &Mutation,
    threads: usize,
    done: &(dyn Fn() + Sync),
) -> Vec<Judged> {
    // Each mutant is one independent job of very different cost (a loop
    // test may be unrolled again).
    par_for(m.mutants.len(), threads, |i| {
        let judged = judge(g, i, &m.mutants[i]);
        done();
        judged
    })
}

/// The tests of `tests` whose evidence kills mutant `i`.
fn evidence_kills(g: &Ground, i: usize, mutant: &Mutant, tests: &[usize]) -> Vec<EvidenceKill> {
    let row = &g.allowed[i + 1];
    let mut out = Vec::new();
    for &t in tests {
        if g.allowed[0][t].is_err() || g.seen[t].is_empty() {
            continue;
        }
        // The model's own failures kill nothing: they are the model's.
        let seen: Vec<Seen> = g.seen[t]
            .iter()
            .filter(|s| !g.base_failures[t].contains(&s.values))
            .cloned()
            .collect();
        let test = &g.subjects[t].test;
        let forbidden = forbidden_seen(test, &mutant.model, &row[t], &seen, g.options);
        if !forbidden.is_empty() {
            let shown: Vec<&Seen> = seen
                .iter()
                .filter(|s| forbidden.contains(&s.values))
                .collect();
            out.push(EvidenceKill {
                test: t,
                count: shown.iter().map(|s| s.count).sum(),
                outcomes: shown.iter().map(|s| s.text.clone()).collect(),
            });
        }
    }
    out
}

/// The summary's counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// Mutants judged.
    pub mutants: usize,
    /// Those equivalent to the model on the tests: no test can kill them.
    pub equivalent: usize,
    /// Killed by evidence.
    pub by_evidence: usize,
    /// Killed by a declared verdict (and not by evidence).
    pub by_verdicts: usize,
    /// Killed by nothing.
    pub survived: usize,
}

impl Score {
    /// The counts of `judged`.
    pub fn of(judged: &[Judged]) -> Score {
        let count = |f: &dyn Fn(&Judged) -> bool| judged.iter().filter(|j| f(j)).count();
        Score {
            mutants: judged.len(),
            equivalent: count(&|j| j.class.class == Class::Equivalent),
            by_evidence: count(&|j| matches!(j.kill, Kill::Evidence(_))),
            by_verdicts: count(&|j| matches!(j.kill, Kill::Verdict(_))),
            survived: count(&|j| matches!(j.kill, Kill::Survived)),
        }
    }

    /// killed / (mutants − equivalent), when some mutant is not
    /// equivalent.
    pub fn value(&self) -> Option<f64> {
        let judged = self.mutants - self.equivalent;
        (judged > 0).then(|| (self.by_evidence + self.by_verdicts) as f64 / judged as f64)
    }
}

/// The mutants worth a kill-test search: survivors that are stronger or
/// incomparable (a weaker survivor allows more, so no outcome the
/// hardware shows can kill it).
pub fn kill_wanted(judged: &[Judged]) -> Vec<usize> {
    (0..judged.len())
        .filter(|&i| {
            matches!(judged[i].kill, Kill::Survived)
                && matches!(judged[i].class.class, Class::Stronger | Class::Incomparable)
        })
        .collect()
}

/// The candidate tests that could kill one mutant.
#[derive(Clone, Debug)]
pub struct KillCandidates {
    /// The mutant's index in [`Mutation::mutants`].
    pub mutant: usize,
    /// The candidates on which the model allows an outcome the mutant
    /// forbids (`old` is the model, `new` the mutant), smallest first.
    pub differences: Vec<Difference>,
}

/// For every mutant of `wanted` (indices in [`Mutation::mutants`], see
/// [`kill_wanted`]), the tests of `tests` on which the model allows an
/// outcome the mutant forbids: run on a GPU, they can kill it. The model
/// and those mutants share one search per test, on `threads` threads.
///
/// ```
/// use litmus_evidence::mutation::kill_candidates;
/// use litmus_model::cat::mutate::mutate;
/// use litmus_model::Options;
///
/// let sb = litmus_core::text::parse(
///     "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// let src = "\"tiny\"\nacyclic po-loc | rf | co | fr as coherence\n";
/// let m = mutate("tiny.cat".as_ref(), src, &mut |_| Err("no includes".into())).unwrap();
/// let sc = m.mutants.iter().position(|x| x.description.contains("plain SC")).unwrap();
/// let found = kill_candidates(&m, &[sc], &[sb], &Options::default(), 1).unwrap();
/// // SB's weak outcome: the model allows it, plain SC does not.
/// assert_eq!(found[0].mutant, sc);
/// assert_eq!(found[0].differences.len(), 1);
/// ```
pub fn kill_candidates(
    m: &Mutation,
    wanted: &[usize],
    tests: &[Test],
    options: &Options,
    threads: usize,
) -> Result<Vec<KillCandidates>, MutationError> {
    kill_candidates_with(m, wanted, tests, options, threads, &|| {})
}

/// [`kill_candidates`], calling `done` as each test is checked.
pub fn kill_candidates_with(
    m: &Mutation,
    wanted: &[usize],
    tests: &[Test],
    options: &Options,
    threads: usize,
    done: &(dyn Fn() + Sync),
) -> Result<Vec<KillCandidates>, MutationError> {
    let mut batch = Batch::default();
    batch.add(&m.path, &m.base_source, &mut no_include)?;
    for &i in wanted {
        let x = &m.mutants[i];
        batch.add(Path::new(Model::name(&x.model)), &x.source, &mut no_include)?;
    }
    let v = batch.verdicts_with(tests, options, threads, done).allowed;
    Ok(wanted
        .iter()
        .enumerate()
        .map(|(row, &i)| KillCandidates {
            mutant: i,
            differences: diff_verdicts(tests, &v[0], &v[row + 1])
                .differences
                .into_iter()
                .filter(|d| !d.only_old.is_empty())
                .collect(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(class: Class, kill: Kill) -> Judged {
        Judged {
            class: Classification {
                class,
                differences: Vec::new(),
                errors: Vec::new(),
            },
            kill,
        }
    }

    #[test]
    fn the_score_leaves_the_equivalent_mutants_out() {
        let all = [
            judged(Class::Equivalent, Kill::Survived),
            judged(Class::Stronger, Kill::Evidence(Vec::new())),
            judged(Class::Weaker, Kill::Verdict(Vec::new())),
            judged(Class::Incomparable, Kill::Survived),
            judged(Class::Weaker, Kill::Survived),
        ];
        let s = Score::of(&all);
        assert_eq!(
            (
                s.mutants,
                s.equivalent,
                s.by_evidence,
                s.by_verdicts,
                s.survived
            ),
            (5, 1, 1, 1, 3)
        );
        assert_eq!(s.value(), Some(0.5));
        // A weaker survivor allows more: no hardware outcome can kill it.
        assert_eq!(kill_wanted(&all), vec![3]);
        assert_eq!(Score::of(&all[..1]).value(), None);
    }

    #[test]
    fn the_counted_calls_count_each_test_and_mutant_once() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        let sb = litmus_core::text::parse(
            "PTX SB\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | st.weak y, 1 ;\n ld.weak r0, y | ld.weak r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n",
        )
        .unwrap();
        let src = "\"tiny\"\nacyclic po-loc | rf | co | fr as coherence\n";
        let m = litmus_model::cat::mutate::mutate("tiny.cat".as_ref(), src, &mut |_| {
            Err("no includes".into())
        })
        .unwrap();
        let subjects = [Subject::new("a", sb.clone()), Subject::new("b", sb.clone())];
        let options = Options::default();
        let count = AtomicUsize::new(0);
        let done = || {
            count.fetch_add(1, Ordering::Relaxed);
        };
        let allowed = Ground::check_with(&m, &subjects, &options, 2, &done);
        assert_eq!(count.swap(0, Ordering::Relaxed), 2);
        assert_eq!(allowed, Ground::check(&m, &subjects, &options, 1));
        let evidence = Evidence::default();
        let g = Ground::judge_base(&m, &subjects, &evidence, allowed, &options).unwrap();
        judge_all_with(&g, &m, 2, &done);
        assert_eq!(count.swap(0, Ordering::Relaxed), m.mutants.len());
        kill_candidates_with(&m, &[0], &[sb.clone(), sb.clone(), sb], &options, 2, &done).unwrap();
        assert_eq!(count.load(Ordering::Relaxed), 3);
    }

    #[test]
    fn only_a_backward_branch_is_a_loop() {
        let parse = |body: &str| {
            litmus_core::text::parse(&format!(
                "PTX L\n{{ x=0; }}\n P0@cta 0,gpu 0 ;\n{body}exists (P0:r0 == 0)\n"
            ))
            .unwrap()
        };
        let back = parse(" LC00: ;\n ld.weak r0, x ;\n beq r0, 0, LC00 ;\n");
        let forward = parse(" ld.weak r0, x ;\n goto LC01 ;\n LC01: ;\n");
        assert!(has_loop(&back));
        assert!(!has_loop(&forward));
    }
}
