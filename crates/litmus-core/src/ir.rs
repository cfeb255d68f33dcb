//! The litmus-test IR: the one representation that the `litmus!` macro, the
//! `.litmus` text format, the PTX generator and the model checker all speak.
//!
//! The IR holds a test as it was written, so that it can be printed back and
//! so that validation can reject what PTX does not allow (`ld.release`, say)
//! with the position of the mistake: nothing here is checked on
//! construction. Call [`crate::validate()`] before giving a test to a back end.
//!
//! Every node that a user can get wrong carries an [`Origin`]. Origins never
//! take part in equality, so the same test written with `litmus!` and as a
//! `.litmus` file compares equal.

use crate::instr::{Instr, InstrKind};
pub use crate::operand::{Imm, Name, Operand, Origin, Value, VALUE_RANGE};
pub use crate::space::Space;

/// One litmus test.
///
/// ```
/// use litmus_core::ir::*;
/// let t = Test::new("empty");
/// assert!(t.threads.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    /// The test's name: the `.litmus` header or the `litmus!` name.
    pub name: Name,
    /// Free text: the quoted strings of a `.litmus` file, the doc comment of
    /// a `litmus!` call. Not part of the test's meaning, so not compared.
    pub doc: Doc,
    /// The memory locations, in declaration order.
    pub locations: Vec<Location>,
    /// The threads, in declaration order.
    pub threads: Vec<Thread>,
    /// What the test asks about the final state.
    pub condition: Condition,
    /// The verdict the author declares for the condition under the model.
    pub verdict: Option<DeclaredVerdict>,
    /// Whether the author says every execution terminates.
    pub termination: Option<DeclaredTermination>,
}

impl Test {
    /// An empty test with the given name and the condition `exists (true)`.
    pub fn new(name: impl Into<String>) -> Test {
        Test {
            name: Name::new(name, Origin::NONE),
            doc: Doc::default(),
            locations: Vec::new(),
            threads: Vec::new(),
            condition: Condition {
                quantifier: Quantifier::Exists,
                expr: Expr::True,
                origin: Origin::NONE,
            },
            verdict: None,
            termination: None,
        }
    }

    /// The location called `name`, if the test declares one.
    pub fn location(&self, name: &str) -> Option<&Location> {
        self.locations.iter().find(|l| l.name.text == name)
    }

    /// The thread called `name`, if the test has one.
    pub fn thread(&self, name: &str) -> Option<&Thread> {
        self.threads.iter().find(|t| t.name.text == name)
    }

    /// The first thing in `test` that needs PTX 7.5's proxies, in words
    /// (`` location `y` is a generic alias of `x` ``, `` `tld` in thread `P1` ``),
    /// or `None` for a proxy-free test: a proxy instruction, or an access to
    /// (or a condition on) an alias. An alias declared and never used changes
    /// nothing. Back ends that know nothing of proxies refuse a test with this
    /// reason rather than read its aliases as separate memory.
    pub fn first_proxy_use(&self) -> Option<String> {
        let test = self;
        let alias = |name: &Name| {
            let a = test.location(&name.text)?.alias.as_ref()?;
            Some(format!(
                "location `{name}` is a {} alias of `{}`",
                a.proxy.as_str(),
                a.target
            ))
        };
        let in_threads = test.threads.iter().find_map(|t| {
            t.body.iter().find_map(|i| {
                let word = match &i.kind {
                    InstrKind::ProxyLoad { proxy, .. } => proxy.load_word().to_string(),
                    InstrKind::ProxyStore { proxy, .. } => {
                        proxy.store_word().unwrap_or("a proxy store").to_string()
                    }
                    InstrKind::ProxyFence(k) => format!("fence.proxy.{}", k.as_str()),
                    other => return other.loc().and_then(alias),
                };
                Some(format!("`{word}` in thread `{}`", t.name))
            })
        });
        in_threads.or_else(|| {
            test.condition
                .expr
                .terms()
                .into_iter()
                .find_map(|t| match t {
                    Term::Loc(l) => alias(l),
                    _ => None,
                })
        })
    }
}

impl Test {
    /// The first async-proxy instruction of `test`, in words
    /// (`` `cp.async.bulk.commit_group` in thread `P0` ``), or `None`. Back
    /// ends that know nothing of the async proxy refuse a test with this
    /// reason.
    pub fn first_async_use(&self) -> Option<String> {
        self.threads.iter().find_map(|t| {
            t.body.iter().find_map(|i| match &i.kind {
                InstrKind::Async(op) => Some(format!("`{}` in thread `{}`", op.head(), t.name)),
                _ => None,
            })
        })
    }
}

/// Documentation lines. Compare equal whatever they hold.
#[derive(Clone, Debug, Default, Eq)]
pub struct Doc(pub Vec<String>);

impl PartialEq for Doc {
    fn eq(&self, _: &Doc) -> bool {
        true
    }
}

/// A memory location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The location's name.
    pub name: Name,
    /// Which memory it lives in.
    pub space: Space,
    /// The logical GPU whose global memory holds the location (`gpu 1 x = 0`
    /// in `litmus!`, `gpu 1 x=0;` in `.litmus`); 0 unless written. Threads
    /// on other GPUs reach it through peer access. Only global memory has
    /// a home GPU: validation refuses anything but 0 on shared, cluster
    /// or host memory and on an alias (whose memory is its target's). The
    /// model ignores it: where memory lives changes no PTX semantics.
    pub gpu: u32,
    /// Its value before any thread runs (unused for an alias, whose
    /// memory is its target's).
    pub init: Imm,
    /// `Some` when the location is a PTX 7.5 alias of another
    /// (`y @ generic aliases x`): a second address of the same memory.
    pub alias: Option<crate::proxy::Alias>,
}

/// Where a thread runs. Two threads share a scope instance when every
/// coordinate down to that scope is equal.
///
/// A host thread (`host: true`) runs on the CPU: it is in no CTA, cluster
/// or GPU of any other thread, so it shares only the `.sys` scope with
/// every other thread, host or GPU. Its `gpu`, `cta`, `cluster` and `warp`
/// mean nothing; validation requires them left at their defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Placement {
    /// Whether the thread runs on the host CPU rather than on a GPU.
    pub host: bool,
    /// The GPU (device index) the thread runs on.
    pub gpu: u32,
    /// The cluster (sm_90 thread-block clusters) within the GPU. `None`:
    /// the test does not place threads in clusters, and each CTA is a
    /// cluster of its own.
    pub cluster: Option<u32>,
    /// The CTA within the GPU.
    pub cta: u32,
    /// The warp within the CTA, when the test cares (same-warp and
    /// cross-warp threads behave differently on hardware; the model does
    /// not distinguish them).
    pub warp: Option<u32>,
}

impl Placement {
    /// A placement on GPU 0, CTA `cta`, with no cluster and no warp given.
    pub fn cta(cta: u32) -> Placement {
        Placement {
            cta,
            ..Placement::default()
        }
    }

    /// A thread on the host CPU.
    pub fn host() -> Placement {
        Placement {
            host: true,
            ..Placement::default()
        }
    }
}

/// An initial register value (`P1:r1=0` in a `.litmus` init block).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegInit {
    /// The register initialised.
    pub reg: Name,
    /// Its initial value.
    pub value: Imm,
}

/// One thread of a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thread {
    /// The thread's name (`P0`, `t1`, ...).
    pub name: Name,
    /// Where the thread runs.
    pub placement: Placement,
    /// Registers start at 0 unless given here.
    pub init: Vec<RegInit>,
    /// The instructions, in program order.
    pub body: Vec<Instr>,
}

impl Thread {
    /// Whether the thread writes location `loc`: a store to it, or a
    /// read-modify-write of it.
    pub fn writes(&self, loc: &str) -> bool {
        self.body.iter().any(|i| {
            matches!(i.kind, InstrKind::Store { .. } | InstrKind::Atom { .. })
                && i.kind.loc().is_some_and(|l| l.text == loc)
        })
    }
}

/// How the condition is quantified over the consistent executions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Quantifier {
    /// Some execution satisfies the expression.
    Exists,
    /// No execution satisfies it (`~exists`).
    NotExists,
    /// Every execution satisfies it.
    Forall,
}

impl Quantifier {
    /// The quantifier in words, as reports and JSON write it: `exists`,
    /// `not exists`, `forall`. (The `.litmus` dialect spells the second
    /// `~exists`.)
    pub fn as_str(self) -> &'static str {
        match self {
            Quantifier::Exists => "exists",
            Quantifier::NotExists => "not exists",
            Quantifier::Forall => "forall",
        }
    }
}

/// The final condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// How the expression is quantified.
    pub quantifier: Quantifier,
    /// The expression over the final state.
    pub expr: Expr,
    /// Where the condition was written.
    pub origin: Origin,
}

/// A boolean expression over final register and memory values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    /// Always true: the condition of a test that asks nothing.
    True,
    /// `lhs op rhs`.
    Cmp {
        /// The left-hand side.
        lhs: Term,
        /// The comparison.
        op: CmpOp,
        /// The right-hand side.
        rhs: Term,
    },
    /// Negation.
    Not(Box<Expr>),
    /// Conjunction.
    And(Box<Expr>, Box<Expr>),
    /// Disjunction.
    Or(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Every term of the expression, left to right.
    pub fn terms(&self) -> Vec<&Term> {
        let mut out = Vec::new();
        self.collect_terms(&mut out);
        out
    }

    /// Every term of the expression, left to right, to change in place
    /// (a reader renaming the threads its file spells otherwise).
    pub fn terms_mut(&mut self) -> Vec<&mut Term> {
        let mut out = Vec::new();
        // An explicit stack: the condition parsers bound the depth, but a
        // loop costs nothing.
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                Expr::True => {}
                Expr::Cmp { lhs, rhs, .. } => {
                    out.push(lhs);
                    out.push(rhs);
                }
                Expr::Not(a) => stack.push(a),
                Expr::And(a, b) | Expr::Or(a, b) => {
                    stack.push(b);
                    stack.push(a);
                }
            }
        }
        out
    }

    fn collect_terms<'e>(&'e self, out: &mut Vec<&'e Term>) {
        match self {
            Expr::True => {}
            Expr::Cmp { lhs, rhs, .. } => {
                out.push(lhs);
                out.push(rhs);
            }
            Expr::Not(e) => e.collect_terms(out),
            Expr::And(a, b) | Expr::Or(a, b) => {
                a.collect_terms(out);
                b.collect_terms(out);
            }
        }
    }
}

/// A comparison operator of a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
}

/// A value in a condition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// The final value of a thread's register (`P1:r0`, `t1.r0`).
    Reg {
        /// The thread whose register it is.
        thread: Name,
        /// The register.
        reg: Name,
    },
    /// The final value of a location.
    Loc(Name),
    /// A literal.
    Imm(Imm),
}

/// What the author says the model decides about the outcome the condition
/// describes: for `exists` and `~exists` the outcomes that satisfy the
/// expression, for `forall` the outcomes that break it (its
/// counterexamples). `exists (r0 == 1 && r1 == 0) => forbidden` and
/// `~exists (r0 == 1 && r1 == 0) => forbidden` say the same thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Some consistent execution produces such an outcome.
    Allowed,
    /// No consistent execution does.
    Forbidden,
}

impl Verdict {
    /// `allowed` or `forbidden`, as the dialect, the reports and JSON
    /// write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allowed => "allowed",
            Verdict::Forbidden => "forbidden",
        }
    }
}

/// A declared termination (`=> terminates` or `=> may hang`), with where
/// it was written: whether every consistent execution ends, no thread
/// spinning forever and no barrier waiting forever.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeclaredTermination {
    /// `true` for `terminates`, `false` for `may hang`.
    pub terminates: bool,
    /// Where it was written.
    pub origin: Origin,
}

impl DeclaredTermination {
    /// `terminates` or `may hang`, as the dialect writes it.
    pub fn as_str(self) -> &'static str {
        if self.terminates {
            "terminates"
        } else {
            "may hang"
        }
    }
}

/// A declared verdict, with where it was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DeclaredVerdict {
    /// The declared verdict.
    pub verdict: Verdict,
    /// Where it was written.
    pub origin: Origin,
}
