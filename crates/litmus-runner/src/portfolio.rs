//! A test's budget split over a few configurations and compilers: the
//! default of a run without a tuning entry.
//!
//! Why: what one configuration shows depends on the compiler and the
//! environment, and no single one shows a family's breadth: CUDA 12's
//! ptxas makes `fence.acq_rel.cta` the bare `MEMBAR.ALL.CTA` and shows what
//! it allows between CTAs on Hopper, the driver's JIT does not, and small
//! CTAs under store stress show what the defaults' shape hides. A few
//! configurations at a share of the budget each see far more of a family
//! than one at all of it (the figures: `docs/tuning-and-campaigns.md`,
//! "Defaults chosen for breadth").
//!
//! `LITMUS_PORTFOLIO` names the slots: `off` (one configuration, the whole
//! budget), `breadth` (the default), or slots separated by `;`, each a
//! comma-separated list of knob assignments (`-` for the knobs as they
//! are):
//!
//! ```
//! use litmus_runner::portfolio::Portfolio;
//! let p = Portfolio::parse("-;LITMUS_TOOLCHAIN=ptxas-12,LITMUS_CTAS_PER_SM=1").unwrap();
//! assert_eq!(p.slots().len(), 2);
//! assert!(Portfolio::parse("LITMUS_CTAS").is_err());
//! ```

use std::collections::BTreeMap;

use litmus_hw::{GpuError, HwResult, Knobs, Modules, TOOLCHAIN_ENV};

/// The variable that names the portfolio.
pub const PORTFOLIO_ENV: &str = "LITMUS_PORTFOLIO";

/// The default's slots, each a third of the budget:
///
/// 1. the knobs as they are (the driver's JIT, unless the user named a
///    compiler);
/// 2. small CTAs (256 of 8 threads) on aligned lanes with store-store
///    stress and pre-stress: the configuration that won 20 of the 39
///    CTA-fence variants a search over both compilers saw, under the JIT;
/// 3. one CTA an SM, interleaved slots, grid spin barrier and heavy stress,
///    under the newest CUDA 12 ptxas installed: the one that won 11 more,
///    each under ptxas 12.4 (left out where no CUDA 12 ptxas is installed).
///
/// Measured against other portfolios on an H200 in
/// `docs/tuning-and-campaigns.md` ("Defaults chosen for breadth").
const BREADTH: &str = concat!(
    "-;",
    "LITMUS_CTAS=256,LITMUS_THREADS=8,LITMUS_LANES=aligned,LITMUS_PERM=fixed,",
    "LITMUS_STRESS=16:576,LITMUS_STRESS_PATTERN=st-st,LITMUS_STRESS_LINES=14,",
    "LITMUS_STRESS_PCT=58,LITMUS_STRESS_ASSIGN=chunk,LITMUS_PRE_STRESS=46:st-st,",
    "LITMUS_PRE_STRESS_PCT=23,LITMUS_SPIN_PCT=84;",
    "LITMUS_TOOLCHAIN=ptxas-12,LITMUS_CTAS=512,LITMUS_THREADS=128,LITMUS_STRIDE=8,",
    "LITMUS_CTAS_PER_SM=1,LITMUS_LANES=permuted,LITMUS_LOC_LAYOUT=interleaved,",
    "LITMUS_PERM=random,LITMUS_SPIN=59,LITMUS_SPIN_PCT=97,LITMUS_SPIN_SCOPE=grid,",
    "LITMUS_STRESS_PCT=93,LITMUS_STRESS_ASSIGN=chunk,LITMUS_STRESS_LINES=10,",
    "LITMUS_STRESS_LINE_WORDS=16,LITMUS_PRE_STRESS=108:st-st,LITMUS_PRE_STRESS_PCT=64",
);

/// One slot: knob assignments over the run's knobs.
pub type Slot = BTreeMap<String, String>;

/// How a run spends a test's budget (see the module's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Portfolio {
    slots: Vec<Slot>,
    /// The text it was read from, for messages.
    text: String,
}

impl Portfolio {
    /// One slot, the whole budget: the run as before portfolios.
    pub fn off() -> Portfolio {
        Portfolio {
            slots: vec![Slot::new()],
            text: "off".into(),
        }
    }

    /// The default: the knobs as they are, small CTAs under store stress
    /// (JIT), and one CTA an SM under CUDA 12's ptxas (see the module).
    pub fn breadth() -> Portfolio {
        let mut p = Portfolio::parse(BREADTH).expect("the default portfolio reads");
        p.text = "breadth".into();
        p
    }

    /// `LITMUS_PORTFOLIO`'s value: unset or empty is [`Portfolio::breadth`].
    pub fn from_var(value: Option<&str>) -> Result<Portfolio, GpuError> {
        match value.map(str::trim).filter(|v| !v.is_empty()) {
            None => Ok(Portfolio::breadth()),
            Some(v) => Portfolio::parse(v),
        }
    }

    /// Reads `off`, `breadth`, or `;`-separated slots of `VAR=VALUE`
    /// assignments joined by `,` (`-`: no assignment). Each variable must
    /// be a `LITMUS_` knob; its value is checked when the slot is applied.
    pub fn parse(text: &str) -> Result<Portfolio, GpuError> {
        let text = text.trim();
        match text {
            "off" => return Ok(Portfolio::off()),
            "breadth" => return Ok(Portfolio::breadth()),
            _ => {}
        }
        let bad = |why: String| GpuError::knob(PORTFOLIO_ENV, text, &why);
        let mut slots = Vec::new();
        for (i, slot) in text.split(';').map(str::trim).enumerate() {
            let mut assigned = Slot::new();
            if slot != "-" {
                for a in slot.split(',').map(str::trim) {
                    let Some((var, value)) = a.split_once('=') else {
                        return Err(bad(format!(
                            "`off`, `breadth`, or slots of VAR=VALUE (slot {}: `{a}` has no `=`)",
                            i + 1
                        )));
                    };
                    let var = var.trim();
                    if !var.starts_with("LITMUS_") || var == PORTFOLIO_ENV {
                        return Err(bad(format!(
                            "knob assignments (slot {}: `{var}` is no knob)",
                            i + 1
                        )));
                    }
                    assigned.insert(var.to_string(), value.trim().to_string());
                }
            }
            slots.push(assigned);
        }
        Ok(Portfolio {
            slots,
            text: text.to_string(),
        })
    }

    /// The slots, in order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Whether it runs one configuration.
    pub fn is_off(&self) -> bool {
        self.slots.len() <= 1
    }

    /// The knobs of each slot over `base`, each with its share of the
    /// budget. A slot's assignment gives way to a knob the user set (it
    /// differs from its default in `base`), a slot whose compiler is not
    /// installed here is left out (`left_out` says which and why), and a
    /// slot that comes out the same as an earlier one is run once. A run
    /// with a tuning entry, a fixed number of launches, or one slot gets
    /// `base` alone.
    pub fn knobs(&self, base: &Knobs) -> Result<(Vec<Knobs>, Vec<String>), GpuError> {
        if self.is_off() || base.tuning.is_some() || base.launches.is_some() {
            return Ok((vec![base.clone()], Vec::new()));
        }
        let set: BTreeMap<&str, String> = base.env_assignments().into_iter().collect();
        let user_compiler = base.ptxas.is_some();
        let mut out: Vec<Knobs> = Vec::new();
        let mut left_out = Vec::new();
        for slot in &self.slots {
            if let Some(t) = slot.get(TOOLCHAIN_ENV).filter(|_| !user_compiler) {
                if !t.eq_ignore_ascii_case("jit") {
                    if let Err(why) = litmus_hw::check_ptxas(t) {
                        left_out.push(format!("{TOOLCHAIN_ENV}={t}: {why}"));
                        continue;
                    }
                }
            }
            let k = Knobs::from_vars(|var| {
                if let Some(v) = set.get(var) {
                    return Some(v.clone());
                }
                if var == TOOLCHAIN_ENV && user_compiler {
                    return None;
                }
                slot.get(var).cloned()
            })
            .map_err(|e| GpuError::knob(PORTFOLIO_ENV, &self.text, &e.to_string()))?;
            let k = Knobs {
                seed: base.seed,
                launches: None,
                gpu_map: base.gpu_map.clone(),
                tuning: None,
                ..k
            };
            if !out.contains(&k) {
                out.push(k);
            }
        }
        if out.is_empty() {
            out.push(base.clone());
        }
        let share = (base.budget_ms / out.len() as u64).max(1);
        for k in &mut out {
            k.budget_ms = share;
        }
        Ok((out, left_out))
    }
}

/// Runs `modules`' test under each slot of `portfolio` over `knobs` on
/// the devices of `claim`, and returns the runs joined ([`join`]) with
/// each run, for evidence: a record names one configuration. A slot the
/// device or its compiler cannot run is left out (said once a process)
/// while another ran; with none left, the first slot's error stands. The
/// slots load `modules`' module: the generator makes it once for them
/// all, where their knobs ask the same of it.
pub fn run(
    claim: &[u32],
    modules: &Modules,
    knobs: &Knobs,
    portfolio: &Portfolio,
) -> Result<(HwResult, Vec<HwResult>), GpuError> {
    run_slots(modules.test(), knobs, portfolio, |k| {
        litmus_hw::run_on(claim, modules, k)
    })
}

/// [`run`], each slot's run by `run_slot`.
fn run_slots(
    test: &litmus_core::ir::Test,
    knobs: &Knobs,
    portfolio: &Portfolio,
    mut run_slot: impl FnMut(&Knobs) -> Result<HwResult, GpuError>,
) -> Result<(HwResult, Vec<HwResult>), GpuError> {
    let (slots, left_out) = match on_one_gpu(test) {
        true => portfolio.knobs(knobs)?,
        // Tests across GPUs, with host threads or with clusters run the
        // profile measured for them (`litmus_hw::Knobs::resolve_for_gpus`,
        // permuted lanes for clusters); the slots were measured on one
        // GPU.
        false => (vec![knobs.clone()], Vec::new()),
    };
    for why in left_out {
        litmus_hw::say_once(&format!(
            "gpu-litmus: {PORTFOLIO_ENV}={}: a slot is left out, {why}",
            portfolio.text
        ));
    }
    let mut parts = Vec::new();
    let mut first_error = None;
    for k in &slots {
        match run_slot(k) {
            Ok(r) => parts.push(r),
            Err(e @ (GpuError::Unfaithful(_) | GpuError::Toolchain(_))) if slots.len() > 1 => {
                litmus_hw::say_once(&format!(
                    "gpu-litmus: {PORTFOLIO_ENV}: a slot ({k}) is left out: {e}"
                ));
                first_error.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    match join(&parts) {
        Some(joined) => Ok((joined, parts)),
        None => Err(first_error.unwrap_or_else(|| GpuError::Unfaithful("no slot ran".into()))),
    }
}

/// Whether every thread of `test` runs on GPU 0, outside clusters: the
/// tests the slots were measured on.
pub fn on_one_gpu(test: &litmus_core::ir::Test) -> bool {
    test.threads
        .iter()
        .all(|t| !t.placement.host && t.placement.gpu == 0 && t.placement.cluster.is_none())
}

/// The runs of one test under several slots as one result: histograms,
/// instances, launches and time added up; the first run's knobs with the
/// whole budget, and a build that names every toolchain that ran.
pub fn join(parts: &[HwResult]) -> Option<HwResult> {
    let (first, rest) = parts.split_first()?;
    if rest.is_empty() {
        return Some(first.clone());
    }
    let mut counts: BTreeMap<Vec<u32>, u64> = BTreeMap::new();
    let mut joined = first.clone();
    for p in parts {
        for (values, n) in &p.histogram {
            *counts.entry(values.clone()).or_default() += n;
        }
    }
    for p in rest {
        joined.unfinished += p.unfinished;
        joined.launches += p.launches;
        joined.instances += p.instances;
        joined.wall += p.wall;
        joined.knobs.budget_ms += p.knobs.budget_ms;
        if !joined.build.toolchain.contains(&p.build.toolchain) {
            joined.build.toolchain = format!("{} + {}", joined.build.toolchain, p.build.toolchain);
        }
    }
    let mut histogram: Vec<(Vec<u32>, u64)> = counts.into_iter().collect();
    histogram.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    joined.histogram = histogram;
    Some(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_reads_and_leaves_out_a_compiler_not_installed() {
        let p = Portfolio::breadth();
        assert_eq!(p.slots().len(), 3);
        assert_eq!(p.slots()[2].get(TOOLCHAIN_ENV).unwrap(), "ptxas-12");
        let base = Knobs {
            budget_ms: 250,
            ..Knobs::default()
        };
        // Every slot's knobs read; with no CUDA 12 ptxas in a folder that
        // does not exist, the third is left out and the two others share.
        std::env::set_var(
            litmus_toolchain::installed::TOOLCHAINS_ENV,
            "/nonexistent/tc",
        );
        let (ks, left) = p.knobs(&base).unwrap();
        assert_eq!(ks.len(), 2, "{ks:?}");
        assert_eq!((ks[1].ctas, ks[1].threads), (256, 8));
        assert!(ks.iter().all(|k| k.budget_ms == 125));
        assert!(
            left[0].contains("install-toolchain.sh 12.4.131"),
            "{left:?}"
        );
    }

    #[test]
    fn slots_read_and_bad_ones_say_which() {
        let p = Portfolio::parse("-; LITMUS_CTAS_PER_SM=1 ,LITMUS_LANES=aligned").unwrap();
        assert_eq!(p.slots()[0], Slot::new());
        assert_eq!(p.slots()[1].get("LITMUS_LANES").unwrap(), "aligned");
        assert!(Portfolio::parse("off").unwrap().is_off());
        assert_eq!(Portfolio::from_var(None).unwrap(), Portfolio::breadth());
        let e = Portfolio::parse("-;CTAS=4").unwrap_err().to_string();
        assert!(e.contains("slot 2: `CTAS` is no knob"), "{e}");
        let e = Portfolio::parse("-;LITMUS_CTAS").unwrap_err().to_string();
        assert!(e.contains("slot 2: `LITMUS_CTAS` has no `=`"), "{e}");
    }

    #[test]
    fn each_slot_gets_its_share_and_the_users_knobs_win() {
        let base = Knobs {
            budget_ms: 300,
            seed: 5,
            ctas: 1024,
            ..Knobs::default()
        };
        let p = Portfolio::parse("-;LITMUS_CTAS=512,LITMUS_CTAS_PER_SM=1;LITMUS_LANES=aligned")
            .unwrap();
        let (ks, left) = p.knobs(&base).unwrap();
        assert!(left.is_empty());
        assert_eq!(ks.len(), 3);
        assert!(ks.iter().all(|k| k.budget_ms == 100 && k.seed == 5));
        // The user's 1024 CTAs stand against the slot's 512.
        assert!(ks.iter().all(|k| k.ctas == 1024));
        assert_eq!(ks[1].ctas_per_sm, 1);
        assert_eq!(ks[0].ctas_per_sm, 0);
        // A fixed launch count, or a tuning entry, runs its knobs alone.
        let fixed = Knobs {
            launches: Some(9),
            ..base.clone()
        };
        assert_eq!(p.knobs(&fixed).unwrap().0, vec![fixed]);
    }

    /// What a hardware run costs the generator: each slot of the default
    /// portfolio runs through `run_on`, whose first step with a GPU is the
    /// module for the device (`Modules::for_device`); on a Hopper GPU the
    /// slots, two or three as the compilers installed allow, share one
    /// generated module, with or without the one `litmus!` embeds.
    #[test]
    fn a_run_of_the_portfolio_generates_its_module_once() {
        let test = litmus_text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
        let plain = litmus_ptx::generate(&test).unwrap();
        let hopper = litmus_ptx::isa::SmArch::new(90);
        let base = Knobs {
            budget_ms: 300,
            ..Knobs::default()
        };
        for modules in [Modules::of(&test), Modules::with_default(&test, &plain)] {
            let mut loaded = Vec::new();
            let (joined, parts) = run_slots(&test, &base, &Portfolio::breadth(), |k| {
                loaded.push(modules.for_device(k, hopper)?);
                Ok(HwResult {
                    histogram: vec![(vec![0, 0], 1)],
                    unfinished: 0,
                    launches: 1,
                    instances: 1,
                    wall: std::time::Duration::from_millis(1),
                    device: "NVIDIA H200".into(),
                    build: litmus_hw::Build::default(),
                    knobs: k.clone(),
                    host_threads: 0,
                })
            })
            .unwrap();
            assert!(parts.len() >= 2, "{} slots ran", parts.len());
            assert_eq!(joined.instances, parts.len() as u64);
            assert_eq!(modules.generations(), 1);
            assert!(loaded
                .iter()
                .all(|m| *m == loaded[0] && m.contains("griddepcontrol.wait")));
        }
    }

    #[test]
    fn a_slot_under_a_compiler_not_installed_is_left_out_with_why() {
        let base = Knobs {
            budget_ms: 200,
            ..Knobs::default()
        };
        let p = Portfolio::parse("-;LITMUS_TOOLCHAIN=ptxas-1.2.3").unwrap();
        let (ks, left) = p.knobs(&base).unwrap();
        assert_eq!(ks.len(), 1);
        assert_eq!(ks[0].budget_ms, 200);
        assert_eq!(left.len(), 1);
        assert!(
            left[0].contains("ptxas-1.2.3 is not installed"),
            "{}",
            left[0]
        );
        assert!(
            left[0].contains("install-toolchain.sh 1.2.3"),
            "{}",
            left[0]
        );
    }
}
