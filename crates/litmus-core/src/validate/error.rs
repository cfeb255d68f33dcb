//! What validation reports: a mistake ([`ValidationError`]) and what is
//! wrong ([`ValidationErrorKind`], whose `Display` is the message every
//! front end shows). Apart from the checks in `validate.rs` for its
//! length: one variant a mistake.

use crate::ir::Origin;

/// One mistake in a test.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ValidationError {
    /// What is wrong; its `Display` is the message.
    pub kind: ValidationErrorKind,
    /// Where the mistake is (front-end defined, see [`Origin`]).
    pub origin: Origin,
}

/// What is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ValidationErrorKind {
    /// A test needs at least one thread.
    #[error("the test has no threads")]
    NoThreads,
    /// Two threads share a name.
    #[error("duplicate thread name `{0}`")]
    DuplicateThread(String),
    /// Two locations share a name.
    #[error("duplicate location `{0}`")]
    DuplicateLocation(String),
    /// A register given two initial values.
    #[error("register `{reg}` of thread `{thread}` is initialised twice")]
    DuplicateRegInit {
        /// The thread.
        thread: String,
        /// The register.
        reg: String,
    },
    /// An access to, or a condition on, an undeclared location.
    #[error("unknown location `{0}`: declare it with the other locations")]
    UnknownLocation(String),
    /// A condition naming a thread the test does not have.
    #[error("unknown thread `{0}`")]
    UnknownThread(String),
    /// A register read that no initial value or earlier write defines.
    #[error("register `{reg}` is read before any write in thread `{thread}` (initialise it or write it first)")]
    RegisterReadBeforeWrite {
        /// The thread.
        thread: String,
        /// The register.
        reg: String,
    },
    /// A condition on a register that the thread never writes (a typo, most likely).
    #[error("the condition names register `{reg}`, which thread `{thread}` never writes")]
    UnknownConditionRegister {
        /// The thread named in the condition.
        thread: String,
        /// The register.
        reg: String,
    },
    /// A branch whose target label the thread does not define.
    #[error("branch to missing label `{0}`")]
    MissingLabel(String),
    /// A label defined twice in one thread.
    #[error("label `{0}` is defined twice in one thread")]
    DuplicateLabel(String),
    /// A literal outside [`crate::ir::VALUE_RANGE`].
    #[error("value {0} does not fit 32 bits (expected -2147483648 ..= 4294967295)")]
    ValueOutOfRange(i64),
    /// A `.shared` location used from two CTAs.
    #[error("shared location `{loc}` is used by threads in different CTAs (`{first}` and `{second}`): shared memory belongs to one CTA")]
    SharedAcrossCtas {
        /// The location.
        loc: String,
        /// A thread using it.
        first: String,
        /// A thread in another CTA using it.
        second: String,
    },
    /// A `.shared::cluster` location used from two clusters.
    #[error("cluster-shared location `{loc}` is used by threads in different clusters (`{first}` and `{second}`)")]
    SharedClusterAcrossClusters {
        /// The location.
        loc: String,
        /// A thread using it.
        first: String,
        /// A thread in another cluster using it.
        second: String,
    },
    /// Semantics the instruction does not take (`ld.release`, say).
    #[error("`{instr}` does not take `.{sem}` semantics; {expected}")]
    BadSemantics {
        /// The instruction word.
        instr: &'static str,
        /// The semantics, without the dot.
        sem: &'static str,
        /// What the instruction takes, in words.
        expected: &'static str,
    },
    /// Strong semantics written without a scope.
    #[error("`{instr}.{sem}` needs a scope (.cta, .cluster, .gpu or .sys)")]
    MissingScope {
        /// The instruction word.
        instr: &'static str,
        /// The semantics, without the dot.
        sem: &'static str,
    },
    /// A scope on an access that takes none (weak or volatile).
    #[error("`{instr}.{sem}` takes no scope, found `.{scope}`")]
    UnexpectedScope {
        /// The instruction word.
        instr: &'static str,
        /// The semantics, without the dot.
        sem: &'static str,
        /// The scope, without the dot.
        scope: &'static str,
    },
    /// `membar.cluster`, which PTX does not have.
    #[error("`membar` has no `.cluster` level (use `fence.sc.cluster`)")]
    MembarCluster,
    /// A cache operator the instruction does not take.
    #[error("cache operator `.{op}` is not allowed on {instr}; {expected}")]
    BadCacheOp {
        /// The cache operator, without the dot.
        op: &'static str,
        /// The instruction, in words.
        instr: &'static str,
        /// The operators it takes, in words.
        expected: &'static str,
    },
    /// A cache operator on a strong access; holds the semantics.
    #[error("cache operator on a `.{0}` access: only weak loads and stores take one")]
    CacheOpOnStrong(&'static str),
    /// A `cas` without its new value.
    #[error("`cas` needs a compare value and a new value")]
    CasNeedsNew,
    /// A second value on an RMW other than `cas`; holds the operation.
    #[error("only `cas` takes a second value, `{0}` does not")]
    UnexpectedNewValue(&'static str),
    /// A `.cluster` scope in a test that places no thread in a cluster.
    #[error("the scope `.cluster` needs threads placed in clusters")]
    ClusterScopeWithoutClusters,
    /// An alias declared of a location the test does not declare.
    #[error("`{alias}` aliases unknown location `{target}`: declare `{target}` with the other locations")]
    UnknownAliasTarget {
        /// The alias.
        alias: String,
        /// The location it names.
        target: String,
    },
    /// A chain of aliases that comes back to where it started.
    #[error("alias cycle: following the aliases of `{0}` leads back to it (an alias needs memory of its own at the end of the chain)")]
    AliasCycle(String),
    /// An alias of a `.shared` location: proxies and aliases reach global memory.
    #[error("`{0}` is shared memory: only global locations can be aliased")]
    AliasOfShared(String),
    /// A generic access (`ld`, `st`, `atom`) to a surface, texture or constant alias.
    #[error("`{instr}` is a generic access, but `{loc}` is declared a {proxy} alias: reach it with `{use_instr}`")]
    ProxyLocationNeedsProxy {
        /// The instruction word.
        instr: &'static str,
        /// The location.
        loc: String,
        /// The proxy the location is declared in.
        proxy: &'static str,
        /// The instruction that reads through that proxy.
        use_instr: &'static str,
    },
    /// A surface, texture or constant access to a location not declared in that proxy.
    #[error(
        "`{instr}` goes through the {proxy} proxy, but `{loc}` is not declared a {proxy} alias"
    )]
    ProxyInstrNeedsAlias {
        /// The instruction word.
        instr: &'static str,
        /// The location.
        loc: String,
        /// The instruction's proxy.
        proxy: &'static str,
    },
    /// A store through the texture or constant proxy, or to a location declared in one.
    #[error("`{instr}` writes `{loc}`, but {proxy} memory is read-only")]
    ReadOnlyProxy {
        /// The instruction word.
        instr: &'static str,
        /// The location.
        loc: String,
        /// The read-only proxy.
        proxy: &'static str,
    },
    /// A proxy load or store built with the generic proxy (`ld`/`st` are those).
    #[error("a proxy load or store through the generic proxy: write `ld` or `st`")]
    GenericProxyInstr,
    /// A GPU coordinate (CTA, GPU, cluster or warp) on a host thread.
    #[error("thread `{thread}` runs on the host, which has no {what}: place a host thread `@host` alone")]
    HostPlacement {
        /// The thread.
        thread: String,
        /// The coordinate given (`cta`, `gpu`, `cluster`, `warp`).
        what: &'static str,
    },
    /// A scope narrower than `.sys` on a host thread's instruction.
    #[error("thread `{thread}` runs on the host: scope `.{scope}` is GPU-only (a host thread's accesses and fences are `.sys`; no scope written means `.sys`)")]
    HostScope {
        /// The thread.
        thread: String,
        /// The scope, without the dot.
        scope: &'static str,
    },
    /// Semantics with no C++ counterpart on a host thread.
    #[error("thread `{thread}` runs on the host: `{instr}.{sem}` has no C++ counterpart (host loads take .weak, .relaxed or .acquire, stores .weak, .relaxed or .release, fences .sc or .acq_rel)")]
    HostSemantics {
        /// The thread.
        thread: String,
        /// The instruction word.
        instr: &'static str,
        /// The semantics, without the dot.
        sem: &'static str,
    },
    /// A GPU-only instruction or qualifier on a host thread.
    #[error("thread `{thread}` runs on the host: {what} is GPU-only")]
    HostGpuOnly {
        /// The thread.
        thread: String,
        /// What it used, in words.
        what: &'static str,
    },
    /// A host thread's access to shared or cluster-shared memory.
    #[error("thread `{thread}` runs on the host: `{loc}` is shared memory, which only GPU threads of its CTA (or cluster) reach")]
    HostSharedMemory {
        /// The thread.
        thread: String,
        /// The location.
        loc: String,
    },
    /// A home GPU other than 0 on shared, cluster-shared or host memory,
    /// which belongs to a CTA, a cluster or the host, never to a GPU's
    /// global memory.
    #[error("`{loc}` is {memory}, which is in no GPU's global memory: only a global location takes `gpu {gpu}`")]
    HomeNotGlobal {
        /// The location.
        loc: String,
        /// Its memory, in words.
        memory: &'static str,
        /// The GPU written.
        gpu: u32,
    },
    /// A home GPU other than 0 on an alias, whose memory is its target's.
    #[error("`{loc}` is an alias of `{target}` and lives where `{target}` does: write `gpu {gpu}` on `{target}` instead")]
    HomeOnAlias {
        /// The alias.
        loc: String,
        /// The location it aliases.
        target: String,
        /// The GPU written.
        gpu: u32,
    },
    /// A scope an mbarrier instruction does not take.
    #[error("`{instr}` takes the scope `.cta` or `.cluster`, found `.{scope}`")]
    BadScope {
        /// The instruction word.
        instr: &'static str,
        /// The scope, without the dot.
        scope: &'static str,
    },
    /// A bulk copy whose size is not a positive multiple of 16 bytes.
    #[error("a bulk copy's size must be a positive multiple of 16 bytes, found {0}")]
    BulkSize(i64),
    /// A bulk copy whose source or destination is in the wrong memory.
    #[error("the {role} of `{instr}` must be in {expected}, but `{loc}` is not")]
    BulkSpace {
        /// The instruction's head.
        instr: String,
        /// `source` or `destination`.
        role: &'static str,
        /// The location.
        loc: String,
        /// The memory it must be in, in words.
        expected: &'static str,
    },
    /// An mbarrier outside shared memory.
    #[error("`{0}` is used as an mbarrier, but mbarriers live in shared memory: declare it `shared` or `cluster_shared`")]
    MbarrierNotShared(String),
    /// A location used both as an mbarrier and as data.
    #[error("`{0}` is an mbarrier: it is reached only through `mbarrier` instructions and the bulk copies that signal it")]
    MbarrierAsData(String),
    /// An mbarrier not initialised exactly once.
    #[error("mbarrier `{mbar}` is initialised {found} times: give it exactly one `mbarrier.init`")]
    MbarrierInitCount {
        /// The mbarrier.
        mbar: String,
        /// How many `mbarrier.init`s name it.
        found: usize,
    },
    /// A wait on an mbarrier that no arrive and no bulk copy signals.
    #[error("`mbarrier.try_wait` on `{0}`, which nothing arrives at (no `mbarrier.arrive` and no bulk copy names it): the wait could never succeed")]
    WaitWithoutArrive(String),
    /// The bytes `expect_tx` announces differ from the bytes copied.
    #[error("mbarrier `{mbar}` expects {expected} bytes (`.expect_tx`), but the bulk copies that signal it bring {copied}")]
    TxMismatch {
        /// The mbarrier.
        mbar: String,
        /// The bytes announced by `.expect_tx`.
        expected: i64,
        /// The bytes of the bulk copies that complete on it.
        copied: i64,
    },
    /// `.parity` other than 0: the model follows an mbarrier's first phase.
    #[error(
        "`.parity {0}`: the model follows the first phase of each mbarrier, whose parity is 0"
    )]
    ParityPhase(i64),
    /// A negative count of pending bulk groups or of mbarrier arrivals.
    #[error("`{instr}` takes a count of at least {min}, found {found}")]
    CountOutOfRange {
        /// The instruction's head.
        instr: String,
        /// The least count allowed.
        min: i64,
        /// The count written.
        found: i64,
    },
    /// A warp index past 31.
    #[error(
        "thread `{thread}` is placed in warp {warp}, but a CTA holds at most 32 warps (0 to 31)"
    )]
    WarpOutOfRange {
        /// The thread.
        thread: String,
        /// The warp it is placed in.
        warp: u32,
    },
}
