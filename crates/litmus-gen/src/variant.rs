//! A variant of a skeleton (placement, scope, access semantics, fences,
//! memory) and the IR test it makes.

use litmus_core::instr::{Access, BinOp, BranchCond, FenceSpelling, Instr, InstrKind, Scope, Sem};
use litmus_core::ir::{
    CmpOp, Condition, Expr, Imm, Location, Name, Operand, Origin, Placement as IrPlacement,
    Quantifier, Space, Term, Test, Thread, Value,
};

use crate::edge::{Dep, Dir};
use crate::placement::{Across, Placement};
use crate::skeleton::{location_name, Event, Skeleton, Step};

/// The semantics of a variant's accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SemChoice {
    /// Plain `ld`/`st` (`.weak`, no scope).
    Weak,
    /// `.relaxed` at the variant's scope.
    Relaxed,
    /// Stores `.release`, loads `.acquire`, at the variant's scope.
    RelAcq,
}

/// Fences a variant adds between every two consecutive accesses of some
/// threads, at the variant's scope.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FenceChoice {
    /// `Sc`, `AcqRel`, `Acquire` or `Release`.
    pub sem: Sem,
    /// The fences' scope; `None`: the variant's scope (that of the
    /// accesses).
    pub scope: Option<Scope>,
    /// The threads fenced, ascending.
    pub threads: Vec<usize>,
}

/// Which memory the locations live in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// Global memory.
    Global,
    /// The shared memory of the one CTA every thread runs in.
    Shared,
}

/// One member of a family.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// Which threads share a CTA or a GPU.
    pub placement: Placement,
    /// The scope of the accesses and of the added fences. A test with a
    /// `.cluster` scope (here or in a cycle's fence) has each GPU's CTAs in
    /// one cluster.
    pub scope: Scope,
    /// The accesses' semantics.
    pub sem: SemChoice,
    /// Added fences, if any.
    pub fence: Option<FenceChoice>,
    /// Where the locations live.
    pub memory: Memory,
}

impl Variant {
    /// The IR test of `skeleton` in this variant, named by
    /// [`Variant::name`], with no verdict (the model decides it).
    pub fn instantiate(&self, skeleton: &Skeleton) -> Test {
        let mut test = Test::new(self.name(skeleton));
        test.doc.0.push(format!(
            "{}: the diy7 cycle {}, made by gpu-litmus gen",
            skeleton.name, skeleton.cycle
        ));
        let space = match self.memory {
            Memory::Global => Space::Global,
            Memory::Shared => Space::Shared,
        };
        test.locations = (0..skeleton.locations)
            .map(|l| Location {
                name: name(location_name(l)),
                space,
                gpu: 0,
                init: imm(0),
                alias: None,
            })
            .collect();
        let mut asked = Vec::new();
        for (t, steps) in skeleton.threads.iter().enumerate() {
            let mut builder = ThreadBuilder::new(t, self);
            for step in steps {
                builder.step(step);
            }
            asked.extend(builder.asked.iter().map(|(reg, v)| {
                let thread = name(format!("P{t}"));
                (
                    Term::Reg {
                        thread,
                        reg: name(reg.clone()),
                    },
                    *v,
                )
            }));
            test.threads.push(Thread {
                name: name(format!("P{t}")),
                placement: self.ir_placement(t),
                init: Vec::new(),
                body: builder.body,
            });
        }
        // A `.cluster` scope needs threads placed in clusters: then each
        // GPU's CTAs form one cluster. Tests with no cluster-scoped
        // instruction (weak accesses, no fence) stay out of clusters, so
        // they are the same test as at another scope, and written once.
        if test
            .threads
            .iter()
            .any(|t| t.body.iter().any(cluster_scoped))
        {
            for t in test.threads.iter_mut() {
                t.placement.cluster = Some(0);
            }
        }
        asked.extend(
            skeleton
                .finals
                .iter()
                .map(|&(l, v)| (Term::Loc(name(location_name(l))), v)),
        );
        test.condition = Condition {
            quantifier: Quantifier::Exists,
            expr: conjunction(asked),
            origin: Origin::NONE,
        };
        test
    }

    fn ir_placement(&self, t: usize) -> IrPlacement {
        let group = self.placement.group[t] as u32;
        let (gpu, cta) = match self.placement.across {
            Across::Cta => (0, group),
            Across::Gpu => (group, t as u32),
        };
        IrPlacement {
            host: false,
            gpu,
            cluster: None,
            cta,
            warp: None,
        }
    }

    fn access(&self, dir: Dir) -> Access {
        match (self.sem, dir) {
            (SemChoice::Weak, _) => Access::WEAK,
            (SemChoice::Relaxed, _) => Access::new(Sem::Relaxed, self.scope),
            (SemChoice::RelAcq, Dir::W) => Access::new(Sem::Release, self.scope),
            (SemChoice::RelAcq, Dir::R) => Access::new(Sem::Acquire, self.scope),
        }
    }
}

/// Builds one thread's instructions, naming registers `r0`, `r1`, ... in
/// order of definition and labels `LC0`, `LC1`, ...
struct ThreadBuilder<'a> {
    variant: &'a Variant,
    /// The semantics and scope of the fences the variant adds to this
    /// thread.
    fence: Option<(Sem, Scope)>,
    body: Vec<Instr>,
    regs: usize,
    labels: usize,
    accesses: usize,
    last_read: Option<String>,
    /// Registers the condition asks about, with their values.
    asked: Vec<(String, Value)>,
}

impl<'a> ThreadBuilder<'a> {
    fn new(t: usize, variant: &'a Variant) -> ThreadBuilder<'a> {
        ThreadBuilder {
            variant,
            fence: variant
                .fence
                .as_ref()
                .filter(|f| f.threads.contains(&t))
                .map(|f| (f.sem, f.scope.unwrap_or(variant.scope))),
            body: Vec::new(),
            regs: 0,
            labels: 0,
            accesses: 0,
            last_read: None,
            asked: Vec::new(),
        }
    }

    fn push(&mut self, kind: InstrKind) {
        self.body.push(Instr::new(kind, Origin::NONE));
    }

    fn fresh_reg(&mut self) -> String {
        self.regs += 1;
        format!("r{}", self.regs - 1)
    }

    fn fence(&mut self, sem: Sem, scope: Scope) {
        self.push(InstrKind::Fence {
            sem,
            scope,
            spelling: FenceSpelling::Fence,
        });
    }

    fn step(&mut self, step: &Step) {
        match step {
            Step::Fence { sem, scope } => self.fence(*sem, *scope),
            Step::Access(event) => {
                if let (Some((sem, scope)), true) = (self.fence, self.accesses > 0) {
                    self.fence(sem, scope);
                }
                self.accesses += 1;
                self.access(event);
            }
        }
    }

    fn access(&mut self, event: &Event) {
        let access = self.variant.access(event.dir);
        let loc = name(location_name(event.loc));
        let source = self.last_read.clone();
        // A control dependency skips the access unless the read saw the
        // value of the cycle's outcome. diy7's branch to the very next
        // instruction (`bne r0, r0, L; L:`) changes nothing, so the GPU's
        // compiler (ptxas) deletes it and the dependency with it: the
        // H100 then shows LB+data+ctrl, which the model forbids.
        let skip = match (event.dep, &source) {
            (Some(Dep::Ctrl), Some(src)) => {
                let label = format!("LC{}", self.labels);
                self.labels += 1;
                self.push(InstrKind::Branch {
                    cond: Some((
                        BranchCond::Ne,
                        reg(src),
                        Operand::Imm(imm(self.expected(src))),
                    )),
                    target: name(label.clone()),
                });
                Some(label)
            }
            _ => None,
        };
        match event.dir {
            Dir::R => {
                let dst = self.fresh_reg();
                if let Some(v) = event.value {
                    self.asked.push((dst.clone(), v));
                }
                self.push(InstrKind::Load {
                    dst: name(dst.clone()),
                    loc,
                    access,
                    cache: None,
                });
                self.last_read = Some(dst);
            }
            Dir::W => {
                let written = event.value.unwrap_or(1);
                let value = match (event.dep, &source) {
                    (Some(Dep::Data), Some(src)) => self.data_dependent(src, written),
                    _ => Operand::Imm(imm(written)),
                };
                self.push(InstrKind::Store {
                    loc,
                    value,
                    access,
                    cache: None,
                });
            }
        }
        if let Some(label) = skip {
            self.push(InstrKind::Label(name(label)));
        }
    }

    /// The value the cycle's outcome asks register `src` to read (0, the
    /// initial value, for a read the condition does not name).
    fn expected(&self, src: &str) -> Value {
        self.asked
            .iter()
            .find(|(r, _)| r == src)
            .map_or(0, |(_, v)| *v)
    }

    /// `t = src add (value - expected)`: `value` when `src` read what the
    /// cycle's outcome asks, and computed from `src` whatever it read. diy7
    /// writes `t = src xor src; t = t add value`, which ptxas folds to a
    /// constant, deleting the dependency on the GPU.
    fn data_dependent(&mut self, src: &str, value: Value) -> Operand {
        let t = self.fresh_reg();
        self.push(InstrKind::BinOp {
            dst: name(t.clone()),
            op: BinOp::Add,
            a: reg(src),
            b: Operand::Imm(imm(value - self.expected(src))),
        });
        reg(&t)
    }
}

fn cluster_scoped(i: &Instr) -> bool {
    match &i.kind {
        InstrKind::Load { access, .. } | InstrKind::Store { access, .. } => {
            access.scope == Some(Scope::Cluster)
        }
        InstrKind::Fence { scope, .. } => *scope == Scope::Cluster,
        _ => false,
    }
}

fn conjunction(asked: Vec<(Term, Value)>) -> Expr {
    asked
        .into_iter()
        .map(|(lhs, v)| Expr::Cmp {
            lhs,
            op: CmpOp::Eq,
            rhs: Term::Imm(imm(v)),
        })
        .reduce(|a, b| Expr::And(Box::new(a), Box::new(b)))
        .unwrap_or(Expr::True)
}

fn name(text: impl Into<String>) -> Name {
    Name::new(text, Origin::NONE)
}

fn imm(v: Value) -> Imm {
    Imm::new(v, Origin::NONE)
}

fn reg(r: &str) -> Operand {
    Operand::Reg(name(r))
}
