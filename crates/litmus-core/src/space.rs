//! Which memory a location lives in. Its own file so that the async
//! proxy's instructions ([`crate::async_proxy`]), which a test
//! ([`crate::ir`]) holds through its threads, name the spaces their
//! fences cover without an import back from `ir`.

/// Which memory a location lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Space {
    /// Global memory: every thread of every CTA (and GPU) can reach it.
    #[default]
    Global,
    /// The shared memory of one CTA: only that CTA's threads can reach it.
    Shared,
    /// Distributed shared memory of a cluster (`shared::cluster`, sm_90): the
    /// shared memory of one CTA, reachable from every CTA of its cluster.
    SharedCluster,
    /// Page-locked host memory (`host x = 0`): reachable by every GPU
    /// thread and every host thread. The model treats it as global memory;
    /// only the harness would have to place it differently.
    Host,
}

impl Space {
    /// Whether every thread of the test can reach the location (global
    /// and host memory), as opposed to one CTA's or one cluster's shared
    /// memory.
    pub fn is_global_like(self) -> bool {
        matches!(self, Space::Global | Space::Host)
    }
}
