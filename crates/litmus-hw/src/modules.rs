//! The modules of one run of a test. A run's slots (the portfolio's
//! configurations), its prefetch and the compiler check after it all load
//! the module that the test, the knobs and the device call for; each such
//! module is generated once, when the run first asks for it, and kept for
//! the rest of the run. Before, each slot generated its module again, and
//! on a device with dependent launches generated the plain one a second
//! time only to compare it with the text it was handed. A search keeps one
//! value per test for all its trials and the prefetches ahead of them
//! ([`crate::prefetch_modules`]).
//!
//! What a caller hands over is said as a value rather than found out by
//! comparing texts: nothing ([`Modules::of`]: every module is generated),
//! the generator's module under the default codegen, made before the run
//! ([`Modules::with_default`]: `litmus!` embeds it at compile time), or a
//! module to run as it is, whatever the knobs ask of the generator
//! ([`Modules::as_is`]: a fault injected on purpose).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use litmus_core::ir::Test;
use litmus_ptx::isa::SmArch;
use litmus_ptx::{generate_with, Codegen, PtxError};

use crate::{codegen, GpuError, Knobs};

/// The modules of one run of a test (see the module's text).
///
/// ```
/// use litmus_hw::{Knobs, Modules};
/// use litmus_ptx::isa::SmArch;
/// let test = litmus_text::parse(
///     "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n",
/// )
/// .unwrap();
/// let modules = Modules::of(&test);
/// // Two slots of a run on a Hopper GPU: one module between them.
/// for ctas in [512, 256] {
///     let knobs = Knobs { ctas, ..Knobs::default() };
///     assert!(modules.for_device(&knobs, SmArch::new(90)).unwrap().contains("griddepcontrol.wait"));
/// }
/// assert_eq!(modules.generations(), 1);
/// ```
pub struct Modules<'a> {
    test: &'a Test,
    given: Given,
    /// The modules made so far, by the codegen they were made under.
    made: Mutex<Vec<(Codegen, Arc<str>)>>,
    generations: AtomicUsize,
}

/// What the caller handed over with the test.
enum Given {
    Nothing,
    /// The generator's module under `Codegen::default()`.
    Default(Arc<str>),
    /// A module that runs whatever the codegen.
    AsIs(Arc<str>),
}

impl<'a> Modules<'a> {
    /// No module yet: each is generated from `test` when first asked for.
    pub fn of(test: &'a Test) -> Modules<'a> {
        Modules::new(test, Given::Nothing)
    }

    /// `ptx` is what [`litmus_ptx::generate`] made of `test` before the
    /// run (the module `litmus!` embeds): the module under the default
    /// codegen costs no generation; the others are generated from `test`.
    pub fn with_default(test: &'a Test, ptx: &str) -> Modules<'a> {
        Modules::new(test, Given::Default(ptx.into()))
    }

    /// `ptx` is loaded as it is, whatever the knobs and the device ask of
    /// the generator: a module changed on purpose (a test's injected
    /// fault, a JIT error), which another codegen would silently undo.
    pub fn as_is(test: &'a Test, ptx: &str) -> Modules<'a> {
        Modules::new(test, Given::AsIs(ptx.into()))
    }

    fn new(test: &'a Test, given: Given) -> Modules<'a> {
        Modules {
            test,
            given,
            made: Mutex::new(Vec::new()),
            generations: AtomicUsize::new(0),
        }
    }

    /// The test whose modules these are.
    pub fn test(&self) -> &'a Test {
        self.test
    }

    /// How many modules this value has generated: what a run cost the
    /// generator, and what the tests of "one generation a run" count.
    pub fn generations(&self) -> usize {
        self.generations.load(Ordering::Relaxed)
    }

    /// The module under `codegen`: the given one where it is that module
    /// (or runs as it is), else the one made earlier in the run, else a
    /// new one.
    pub fn get(&self, codegen: Codegen) -> Result<Arc<str>, PtxError> {
        match &self.given {
            Given::AsIs(ptx) => return Ok(ptx.clone()),
            Given::Default(ptx) if codegen == Codegen::default() => return Ok(ptx.clone()),
            _ => {}
        }
        // The lock is held while generating, so that two threads asking
        // for the same module make it once.
        let mut made = self.made.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, m)) = made.iter().find(|(c, _)| *c == codegen) {
            return Ok(m.clone());
        }
        let module: Arc<str> = generate_with(self.test, codegen)?.into();
        self.generations.fetch_add(1, Ordering::Relaxed);
        made.push((codegen, module.clone()));
        Ok(module)
    }

    /// The module a run with `knobs` loads on a device of `arch`: the
    /// codegen the knobs ask for (generic addressing, a CTA spread by
    /// lane), with kernels that wait for the grid before them where the
    /// target has dependent launches (`codegen::on_device`).
    pub fn for_device(&self, knobs: &Knobs, arch: SmArch) -> Result<Arc<str>, GpuError> {
        if let Given::AsIs(ptx) = &self.given {
            return Ok(ptx.clone());
        }
        let codegen = codegen::on_device(self.test, knobs, arch)?;
        self.get(codegen).map_err(GpuError::Ptx)
    }

    /// The module a run with `knobs` loads where the device's architecture
    /// is not known: the knobs' codegen alone.
    pub(crate) fn for_knobs(&self, knobs: &Knobs) -> Result<Arc<str>, GpuError> {
        self.get(codegen::of_knobs(knobs)).map_err(GpuError::Ptx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CtaSpread;

    const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.relaxed.gpu r0, y ;\n st.relaxed.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    /// A run's slots differ in their launch shape and stress, not in what
    /// they ask of the generator: on a Hopper GPU, with or without the
    /// module `litmus!` embeds, they and the compiler check after them
    /// share one generated module, the one with dependent launches.
    #[test]
    fn a_run_generates_its_module_once() {
        let test = litmus_text::parse(MP).unwrap();
        let plain = litmus_ptx::generate(&test).unwrap();
        let hopper = SmArch::new(90);
        let slots = [
            Knobs::default(),
            Knobs {
                ctas: 256,
                threads: 8,
                ..Knobs::default()
            },
            Knobs {
                ctas_per_sm: 1,
                stride: 8,
                ..Knobs::default()
            },
        ];
        for modules in [Modules::of(&test), Modules::with_default(&test, &plain)] {
            let loaded: Vec<Arc<str>> = slots
                .iter()
                .map(|k| modules.for_device(k, hopper).unwrap())
                .collect();
            // The compiler check lists the code of the first slot's run.
            let checked = modules.for_device(&slots[0], hopper).unwrap();
            assert_eq!(modules.generations(), 1);
            assert!(loaded.iter().all(|m| *m == checked));
            assert_eq!(checked.matches("\tgriddepcontrol.wait;").count(), 2);
        }
    }

    /// A search keeps each test's modules for all its trials: the module
    /// a prefetch makes for the knobs is kept in the caller's value, and
    /// the run after it loads that one without generating it again.
    /// Without a GPU the prefetch fails after making it (no worker), and
    /// the run's module is the knobs' codegen alone; with one, both are
    /// the device's.
    #[test]
    fn a_prefetch_makes_the_module_its_run_loads() {
        let test = litmus_text::parse(MP).unwrap();
        let plain = litmus_ptx::generate(&test).unwrap();
        let modules = Modules::with_default(&test, &plain);
        let by_lane = Knobs {
            cta_spread: CtaSpread::ByLane,
            ..Knobs::default()
        };
        let _ = crate::prefetch_modules(Some(0), &[&modules], &by_lane);
        assert_eq!(modules.generations(), 1);
        let loaded = crate::module_on(0, &modules, &by_lane).unwrap();
        assert_eq!(modules.generations(), 1);
        assert_ne!(&*loaded, plain);
    }

    /// The embedded module is the plain one: a device without dependent
    /// launches, or knobs that turn them off, load it and generate
    /// nothing; without it, the run generates it once.
    #[test]
    fn the_embedded_module_is_loaded_where_the_default_codegen_is_asked_for() {
        let test = litmus_text::parse(MP).unwrap();
        let plain = litmus_ptx::generate(&test).unwrap();
        let off = Knobs {
            dependent_launch: false,
            ..Knobs::default()
        };
        let embedded = Modules::with_default(&test, &plain);
        assert_eq!(
            &*embedded
                .for_device(&Knobs::default(), SmArch::new(80))
                .unwrap(),
            plain
        );
        assert_eq!(&*embedded.for_device(&off, SmArch::new(90)).unwrap(), plain);
        assert_eq!(embedded.generations(), 0);
        let fresh = Modules::of(&test);
        assert_eq!(
            &*fresh
                .for_device(&Knobs::default(), SmArch::new(80))
                .unwrap(),
            plain
        );
        assert_eq!(&*fresh.for_knobs(&off).unwrap(), plain);
        assert_eq!(fresh.generations(), 1);
    }

    /// Another codegen is another module, made once for the run however
    /// often its slots ask; a module given as it is runs under every
    /// codegen and generates nothing.
    #[test]
    fn each_codegen_is_made_once_and_a_module_as_is_never() {
        let test = litmus_text::parse(MP).unwrap();
        let plain = litmus_ptx::generate(&test).unwrap();
        let spread = Knobs {
            cta_spread: CtaSpread::ByLane,
            ..Knobs::default()
        };
        let modules = Modules::with_default(&test, &plain);
        let a = modules.for_knobs(&spread).unwrap();
        let b = modules.for_knobs(&spread).unwrap();
        assert_eq!((a != plain.as_str().into(), a == b), (true, true));
        let hopper = modules.for_device(&spread, SmArch::new(90)).unwrap();
        assert!(hopper.contains("griddepcontrol.wait") && !a.contains("griddepcontrol"));
        assert_eq!(modules.generations(), 2);
        let injected = plain.replace("ret;", "ret;\n");
        let as_is = Modules::as_is(&test, &injected);
        for k in [Knobs::default(), spread] {
            assert_eq!(&*as_is.for_device(&k, SmArch::new(90)).unwrap(), injected);
            assert_eq!(&*as_is.for_knobs(&k).unwrap(), injected);
        }
        assert_eq!(as_is.generations(), 0);
    }
}
