//! What a GPU worker keeps between jobs ([`super`]): the modules it
//! loaded, by the text and toolchain they were built from, and the plans
//! that made them ready for its device. Each is kept while it is among the
//! most recent, so that a campaign's long run does not grow without end.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

use crate::driver::Context;
use crate::kernels::Kernels;
use crate::knobs::Knobs;
use crate::toolchain;
use crate::GpuError;

/// Modules kept loaded: enough for a family-wide search's tests under
/// each compiler of its pool, a campaign's prefetch window, and one
/// module asked for ahead by each thread of a test binary (see
/// `gpu::run`), small enough that a long campaign does not fill device
/// memory with modules. Why a search's tests matter: a wave goes round
/// every test still searching, so with fewer modules kept than that, each
/// turn found its test's modules evicted and loaded them again, each load
/// holding the context while the trial before it ran.
const CACHED_MODULES: usize = 256;

/// Plans kept, by module text and the knobs a plan reads. Why: planning
/// reads the module's needs and rewrites its header, which costs the host
/// about as much as generating the module, and a search plans each test's
/// modules at every trial (its run and the hint before it) and at every
/// prefetch ahead of a turn.
const CACHED_PLANS: usize = CACHED_MODULES;

/// A module, loaded or being loaded: whoever needs it first compiles it,
/// and the others wait for that (a run whose module a helper thread is
/// still compiling waits for it rather than compiling it again).
pub(super) type Slot = Arc<OnceLock<Result<Arc<Kernels>, GpuError>>>;

/// The worker's modules by PTX text, and their plans ([`CACHED_PLANS`]).
/// An evicted module stays alive while a run still holds it.
pub(crate) struct Cache {
    modules: Recent<Slot>,
    plans: Recent<Arc<toolchain::Plan>>,
}

impl Default for Cache {
    fn default() -> Self {
        Cache {
            modules: Recent::new(CACHED_MODULES),
            plans: Recent::new(CACHED_PLANS),
        }
    }
}

/// Values by key, the `most` made last kept: the oldest goes first.
struct Recent<V> {
    order: VecDeque<String>,
    by_key: HashMap<String, V>,
    most: usize,
}

impl<V: Clone> Recent<V> {
    fn new(most: usize) -> Self {
        Recent {
            order: VecDeque::new(),
            by_key: HashMap::new(),
            most,
        }
    }

    fn get(&self, key: &str) -> Option<V> {
        self.by_key.get(key).cloned()
    }

    /// `key`'s value, `make`'s when it has none yet, and whether it is
    /// new.
    fn get_or_insert_with(&mut self, key: &str, make: impl FnOnce() -> V) -> (V, bool) {
        if let Some(v) = self.get(key) {
            return (v, false);
        }
        if self.order.len() == self.most {
            if let Some(old) = self.order.pop_front() {
                self.by_key.remove(&old);
            }
        }
        let v = make();
        self.order.push_back(key.to_string());
        self.by_key.insert(key.to_string(), v.clone());
        (v, true)
    }
}

/// `ptx`'s plan under `knobs` on `ctx`'s device, planned once while it is
/// kept in `cache`. A plan that fails is not kept: the run that asks
/// again says why.
pub(super) fn planned(
    ctx: &Context,
    cache: &Mutex<Cache>,
    ptx: &str,
    knobs: &Knobs,
) -> Result<Arc<toolchain::Plan>, GpuError> {
    // What `toolchain::plan` reads of the knobs; the device is the
    // worker's own.
    let key = format!("{ptx}\n// {:?} {:?}", knobs.ptx_target, knobs.ptxas);
    let lock = || cache.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(plan) = lock().plans.get(&key) {
        return Ok(plan);
    }
    // Planned without the lock held: a plan another thread made meanwhile
    // is the one kept.
    let plan = Arc::new(toolchain::plan(ctx, ptx, knobs)?);
    Ok(lock().plans.get_or_insert_with(&key, || plan).0)
}

impl Cache {
    /// The slot of `ptx`, and whether it is new.
    pub(super) fn slot(&mut self, ptx: &str) -> (Slot, bool) {
        self.modules.get_or_insert_with(ptx, Slot::default)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module's plan is made once while the worker keeps it: asked for
    /// again under the same target and toolchain it is the first one, and
    /// another module's is its own. The plan is the device's, so this
    /// needs a GPU; without one it says it skipped (a failure under
    /// `LITMUS_REQUIRE_GPU=1`).
    #[test]
    fn a_module_is_planned_once_while_kept() {
        let ctx = match Context::open_on(0) {
            Ok(Some(ctx)) => ctx,
            other => {
                let why = match other {
                    Err(e) => e.to_string(),
                    _ => "no CUDA device".to_string(),
                };
                assert!(
                    !crate::gpu_required_var().unwrap_or(true),
                    "required by LITMUS_REQUIRE_GPU=1, but {why}"
                );
                eprintln!("hardware: skipped, {why}");
                return;
            }
        };
        let test = litmus_text::parse("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n").unwrap();
        let ptx = litmus_ptx::generate(&test).unwrap();
        let cache = Mutex::new(Cache::default());
        let knobs = Knobs::default();
        let first = planned(&ctx, &cache, &ptx, &knobs).unwrap();
        let again = planned(&ctx, &cache, &ptx, &knobs).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        let other = format!("{ptx}// another module\n");
        let another = planned(&ctx, &cache, &other, &knobs).unwrap();
        assert!(!Arc::ptr_eq(&first, &another));
        assert_eq!(cache.lock().unwrap().plans.order.len(), 2);
    }

    /// The worker's modules and plans are kept while among the most
    /// recent: the oldest goes first, and a value asked for again is the
    /// one kept, not made again.
    #[test]
    fn the_oldest_goes_first_and_a_kept_value_is_not_made_again() {
        let mut kept = Recent::new(2);
        assert_eq!(kept.get_or_insert_with("a", || 1), (1, true));
        assert_eq!(kept.get_or_insert_with("b", || 2), (2, true));
        assert_eq!(kept.get_or_insert_with("a", || 9), (1, false));
        assert_eq!(kept.get_or_insert_with("c", || 3), (3, true));
        assert_eq!(
            (kept.get("a"), kept.get("b"), kept.get("c")),
            (None, Some(2), Some(3))
        );
        let mut cache = Cache::default();
        let (first, new) = cache.slot("module");
        assert!(new);
        let (again, new) = cache.slot("module");
        assert!(!new && Arc::ptr_eq(&first, &again));
    }
}
