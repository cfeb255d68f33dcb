//! A location's home GPU (`gpu 1 x = 0`): the logical GPU whose global
//! memory holds it. Only global memory belongs to a GPU: shared memory
//! belongs to a CTA (or cluster), host memory to the host, and an alias
//! is memory of its target, so a home other than GPU 0 on any of those
//! says something the harness could not do and is refused, naming the
//! location.

use crate::ir::Space;

use super::{Validator, K};

impl Validator<'_> {
    /// Checks every location's home GPU.
    pub(super) fn homes(&mut self) {
        for loc in &self.test.locations {
            if loc.gpu == 0 {
                continue;
            }
            if let Some(alias) = &loc.alias {
                self.push(
                    K::HomeOnAlias {
                        loc: loc.name.text.clone(),
                        target: alias.target.text.clone(),
                        gpu: loc.gpu,
                    },
                    loc.name.origin,
                );
                continue;
            }
            let memory = match loc.space {
                Space::Global => continue,
                Space::Shared => "shared memory",
                Space::SharedCluster => "cluster-shared memory",
                Space::Host => "host memory",
            };
            self.push(
                K::HomeNotGlobal {
                    loc: loc.name.text.clone(),
                    memory,
                    gpu: loc.gpu,
                },
                loc.name.origin,
            );
        }
    }
}
