//! Symbolic execution: the control paths of one thread, with the loop
//! bound.
//!
//! Each thread is run symbolically: a read's value is not known until the
//! enumeration picks the write it reads from, so registers hold [`Sym`]
//! expressions over read events. A conditional branch on such a value forks
//! the thread into two control paths, each remembering the branch outcome as
//! a [`Constraint`] that the read values must satisfy. A candidate execution
//! then picks one path per thread and checks the constraints once the values
//! are known.
//!
//! Loops are bounded: a backward jump may be taken `loop_bound - 1` times
//! per branch instruction (bound 1, the corpus default, discards any path
//! that takes a backward jump). Cut paths are dropped and reported, so the
//! result can say it is bounded.

use std::collections::HashMap;

use litmus_core::instr::{BranchCond, Instr, InstrKind};
use litmus_core::ir::{Name, Operand, Test, Thread};

use super::instr::run_instruction;
use super::state::State;
use super::{sym_reads, Event, EventId, Sym, SymId};

/// A branch outcome a path depends on: `a cond b` must evaluate to `holds`.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// The left operand.
    pub a: SymId,
    /// The right operand.
    pub b: SymId,
    /// The comparison the branch made.
    pub cond: BranchCond,
    /// Whether the comparison held on this path.
    pub holds: bool,
}

/// One control path of one thread, with thread-local event and symbol ids.
#[derive(Clone, Debug, Default)]
pub struct ThreadPath {
    /// The events, in program order.
    pub events: Vec<Event>,
    /// The symbolic values its events and registers refer to.
    pub syms: Vec<Sym>,
    /// The branch outcomes the path assumes.
    pub constraints: Vec<Constraint>,
    /// Final register values, sorted by register name.
    pub regs: Vec<(String, SymId)>,
    /// For each event, the reads (local ids) that a branch before it tested.
    pub ctrl: Vec<Vec<EventId>>,
}

/// The control paths of a thread, and whether the loop bound cut any.
#[derive(Clone, Debug)]
pub struct Paths {
    /// The paths within the loop bound.
    pub paths: Vec<ThreadPath>,
    /// Whether the loop bound cut some path.
    pub cut: bool,
}

/// Why paths could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PathError {
    /// A thread with more paths than the budget's `max_paths`.
    #[error("thread `{thread}` has more than {limit} control paths within the loop bound")]
    TooManyPaths {
        /// The thread.
        thread: String,
        /// The bound on paths per thread.
        limit: usize,
    },
    /// A branch to a label the thread does not define.
    #[error("thread `{thread}` branches to a missing label `{label}`")]
    MissingLabel {
        /// The thread.
        thread: String,
        /// The label.
        label: String,
    },
    /// An access to an undeclared location.
    #[error("unknown location `{0}`")]
    UnknownLocation(String),
    /// A test with PTX 7.5 proxies or aliases, checked with a model that
    /// has none: reading an alias as memory of its own would be unsound.
    #[error("{what}: model `{model}` has no PTX 7.5 proxies or aliases (model `ptx-7.5` has)")]
    Proxies {
        /// What the test uses, in words.
        what: String,
        /// The model asked.
        model: String,
    },
    /// A test with async-proxy instructions, checked with a model that
    /// has no async proxy.
    #[error("{what}: model `{model}` has no async proxy (model `ptx-async` has)")]
    Async {
        /// What the test uses, in words.
        what: String,
        /// The model asked.
        model: String,
    },
    /// More bulk copies on one path of one thread than the checker tracks.
    #[error("thread `{thread}` issues more than {limit} bulk copies on one path")]
    TooManyCopies {
        /// The thread.
        thread: String,
        /// The bound.
        limit: usize,
    },
    /// A condition on the final value of an alias, which has no memory of
    /// its own.
    #[error("the condition reads alias `{0}`: name the location it aliases instead")]
    AliasInCondition(String),
}

/// Enumerates the control paths of thread `t` of `test`.
///
/// ```
/// let test = litmus_text::parse(
///     "PTX spin\n{ f=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.relaxed.gpu r0, f ;\n beq r0, 0, L ;\nexists (P0:r0 == 1)",
/// ).unwrap();
/// // Bound 1: only the path that leaves the loop at once survives.
/// let p = litmus_model::events::thread_paths(&test, 0, 1, 100).unwrap();
/// assert_eq!((p.paths.len(), p.cut), (1, true));
/// // Bound 3: leave after one, two or three reads.
/// let p = litmus_model::events::thread_paths(&test, 0, 3, 100).unwrap();
/// assert_eq!(p.paths.len(), 3);
/// assert_eq!(p.paths.iter().map(|p| p.events.len()).max(), Some(3));
/// ```
pub fn thread_paths(
    test: &Test,
    t: usize,
    loop_bound: u32,
    max_paths: usize,
) -> Result<Paths, PathError> {
    let thread = &test.threads[t];
    let mut walk = Walk {
        test,
        t,
        labels: label_positions(&thread.body),
        loop_bound,
        max_paths,
        stack: vec![initial_state(thread)],
        done: Vec::new(),
        cut: false,
    };
    while let Some(st) = walk.stack.pop() {
        walk.run(st)?;
    }
    Ok(Paths {
        paths: walk.done,
        cut: walk.cut,
    })
}

/// Where each label of a thread's body is.
fn label_positions(body: &[Instr]) -> HashMap<&str, usize> {
    let mut labels = HashMap::new();
    for (i, instr) in body.iter().enumerate() {
        if let InstrKind::Label(l) = &instr.kind {
            labels.insert(l.text.as_str(), i);
        }
    }
    labels
}

/// The state a thread starts in: its first instruction, its initialised
/// registers.
fn initial_state(thread: &Thread) -> State {
    let mut init = State {
        pc: 0,
        regs: HashMap::new(),
        path: ThreadPath::default(),
        ctrl_reads: Vec::new(),
        back_taken: HashMap::new(),
        bulk: Default::default(),
    };
    for ri in &thread.init {
        let s = init.sym(Sym::Const(ri.value.value as u32));
        init.regs.insert(ri.reg.text.clone(), s);
    }
    init
}

/// The walk over one thread's control paths, depth first: the states
/// still to run, the paths finished, and whether the loop bound cut any.
struct Walk<'a> {
    test: &'a Test,
    t: usize,
    labels: HashMap<&'a str, usize>,
    loop_bound: u32,
    max_paths: usize,
    stack: Vec<State>,
    done: Vec<ThreadPath>,
    cut: bool,
}

impl Walk<'_> {
    /// Runs `st` until its path ends or a branch hands it to the stack.
    fn run(&mut self, mut st: State) -> Result<(), PathError> {
        let body = &self.test.threads[self.t].body;
        loop {
            let Some(instr) = body.get(st.pc) else {
                return self.finish(st);
            };
            let pc = st.pc;
            st.pc += 1;
            match self.step(st, pc, instr)? {
                Some(next) => st = next,
                None => return Ok(()),
            }
        }
    }

    /// Records the path of `st`, which ran off the end of the body.
    fn finish(&mut self, mut st: State) -> Result<(), PathError> {
        let mut regs: Vec<_> = st.regs.iter().map(|(k, v)| (k.clone(), *v)).collect();
        regs.sort();
        st.path.regs = regs;
        self.done.push(st.path);
        if self.done.len() > self.max_paths {
            return Err(PathError::TooManyPaths {
                thread: self.test.threads[self.t].name.text.clone(),
                limit: self.max_paths,
            });
        }
        Ok(())
    }

    /// Runs instruction `pc` on `st`: its events and register values. The
    /// state to go on with, or `None` when a branch handed it to the stack.
    fn step(
        &mut self,
        mut st: State,
        pc: usize,
        instr: &Instr,
    ) -> Result<Option<State>, PathError> {
        if let InstrKind::Branch { cond, target } = &instr.kind {
            return self.branch(st, pc, cond, target);
        }
        run_instruction(self.test, self.t, pc, &mut st, instr)?;
        Ok(Some(st))
    }

    /// A branch at `pc`: jumps, falls through, or, on values not known yet,
    /// forks (the taken side goes on the stack; each side remembers the
    /// outcome as a constraint). The state to go on with, if any.
    fn branch(
        &mut self,
        mut st: State,
        pc: usize,
        cond: &Option<(BranchCond, Operand, Operand)>,
        target: &Name,
    ) -> Result<Option<State>, PathError> {
        let Some(&dest) = self.labels.get(target.text.as_str()) else {
            return Err(PathError::MissingLabel {
                thread: self.test.threads[self.t].name.text.clone(),
                label: target.text.clone(),
            });
        };
        match cond {
            None => {
                self.jump(st, pc, dest);
                return Ok(None);
            }
            Some((c, a, b)) => {
                let (a, b) = (st.operand(a), st.operand(b));
                if let (Sym::Const(x), Sym::Const(y)) = (&st.path.syms[a], &st.path.syms[b]) {
                    if (x == y) == (*c == BranchCond::Eq) {
                        self.jump(st, pc, dest);
                        return Ok(None);
                    }
                    return Ok(Some(st));
                }
                let mut deps = Vec::new();
                sym_reads(&st.path.syms, a, &mut deps);
                sym_reads(&st.path.syms, b, &mut deps);
                for d in deps {
                    if !st.ctrl_reads.contains(&d) {
                        st.ctrl_reads.push(d);
                    }
                }
                let mut taken = st.clone();
                taken.path.constraints.push(Constraint {
                    a,
                    b,
                    cond: *c,
                    holds: true,
                });
                st.path.constraints.push(Constraint {
                    a,
                    b,
                    cond: *c,
                    holds: false,
                });
                self.jump(taken, pc, dest);
            }
        }
        Ok(Some(st))
    }

    /// Sends `s` from the branch at `pc` to `dest`, unless that takes a
    /// backward jump more often than the loop bound allows: then the path
    /// is cut.
    fn jump(&mut self, mut s: State, pc: usize, dest: usize) {
        if dest <= pc {
            let n = s.back_taken.entry(pc).or_insert(0);
            if *n + 1 >= self.loop_bound {
                self.cut = true;
                return;
            }
            *n += 1;
            // A new iteration of this loop starts the loops
            // nested in it afresh, as unrolling would.
            s.back_taken.retain(|&b, _| b <= dest || b >= pc);
        }
        s.pc = dest;
        self.stack.push(s);
    }
}
