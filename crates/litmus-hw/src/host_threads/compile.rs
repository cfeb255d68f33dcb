//! Translates a host role's instructions into a program ([`HostRole`]),
//! once per run: registers, slots and labels resolved to indices.

use std::sync::atomic::Ordering;

use litmus_core::instr::{InstrKind, Sem};
use litmus_core::ir::{Operand, Test, Thread};
use litmus_ptx::Layout;

use super::{host_error, HostRole, Op, Val};
use crate::GpuError;

/// Translates host role `k` into a program.
pub(super) fn compile(test: &Test, layout: &Layout, k: usize) -> Result<HostRole, GpuError> {
    let thread = &test.threads[k];
    let names = register_names(thread);
    let mut role = Translation {
        test,
        layout,
        thread,
        names: &names,
        slots: Vec::new(),
    };
    let mut ops = Vec::with_capacity(thread.body.len());
    for (i, ins) in thread.body.iter().enumerate() {
        ops.push(role.op(i, &ins.kind)?);
    }
    let init = initial_values(thread, &names);
    let stored = stored_registers(layout, k, &names);
    Ok(HostRole {
        k,
        ops,
        init,
        slots: role.slots,
        stored,
    })
}

/// The role's registers, each once, in order of first mention: its
/// initial values first, then its instructions'.
fn register_names(thread: &Thread) -> Vec<&str> {
    let mut reg_names: Vec<&str> = thread.init.iter().map(|i| i.reg.text.as_str()).collect();
    for ins in &thread.body {
        reg_names.extend(ins.kind.dst().map(|d| d.text.as_str()));
        reg_names.extend(ins.kind.srcs().iter().map(|s| s.text.as_str()));
    }
    let mut names: Vec<&str> = Vec::new();
    for name in reg_names {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Each register's initial value, in register order.
fn initial_values(thread: &Thread, names: &[&str]) -> Vec<u32> {
    names
        .iter()
        .map(|n| {
            thread
                .init
                .iter()
                .find(|i| i.reg.text == *n)
                .map_or(0, |i| i.value.value as u32)
        })
        .collect()
}

/// `(register, index in Layout::stored_regs)` of role `k`'s registers the
/// classifier reads.
fn stored_registers(layout: &Layout, k: usize, names: &[&str]) -> Vec<(usize, usize)> {
    layout
        .stored_regs
        .iter()
        .enumerate()
        .filter(|(_, (t, _))| *t == k)
        .filter_map(|(idx, (_, name))| names.iter().position(|n| n == name).map(|r| (r, idx)))
        .collect()
}

/// One role's translation under way: what resolves its names, and the
/// slots it has touched so far.
struct Translation<'a> {
    test: &'a Test,
    layout: &'a Layout,
    thread: &'a Thread,
    names: &'a [&'a str],
    /// See [`HostRole::slots`].
    slots: Vec<(usize, usize)>,
}

impl Translation<'_> {
    /// A register's index.
    fn reg(&self, name: &str) -> Result<usize, GpuError> {
        self.names.iter().position(|n| *n == name).ok_or_else(|| {
            host_error(format!(
                "thread `{}`: unknown register `{name}`",
                self.thread.name
            ))
        })
    }

    /// An operand as a register index or an immediate.
    fn value(&self, op: &Operand) -> Result<Val, GpuError> {
        Ok(match op {
            Operand::Reg(r) => Val::Reg(self.reg(&r.text)?),
            Operand::Imm(i) => Val::Imm(i.value as u32),
        })
    }

    /// A location's index among the role's slots, added on first use;
    /// refuses a location outside host memory.
    fn slot(&mut self, loc: &str) -> Result<usize, GpuError> {
        let idx = self
            .test
            .locations
            .iter()
            .position(|l| l.name.text == loc)
            .ok_or_else(|| host_error(format!("unknown location `{loc}`")))?;
        let j = self
            .layout
            .slot_of
            .get(idx)
            .copied()
            .flatten()
            .filter(|j| self.layout.in_host_memory(*j))
            .ok_or_else(|| {
                host_error(format!(
                    "thread `{}` reaches `{loc}`, which is not in host memory",
                    self.thread.name
                ))
            })?;
        Ok(match self.slots.iter().position(|s| s.0 == j) {
            Some(p) => p,
            None => {
                self.slots.push((j, self.layout.loc_knob(j)));
                self.slots.len() - 1
            }
        })
    }

    /// A label's instruction index.
    fn label(&self, name: &str) -> Result<usize, GpuError> {
        self.thread
            .body
            .iter()
            .position(|i| matches!(&i.kind, InstrKind::Label(l) if l.text == name))
            .ok_or_else(|| {
                host_error(format!(
                    "thread `{}`: missing label `{name}`",
                    self.thread.name
                ))
            })
    }

    /// Instruction `i` as an [`Op`].
    fn op(&mut self, i: usize, kind: &InstrKind) -> Result<Op, GpuError> {
        Ok(match kind {
            InstrKind::Load {
                dst, loc, access, ..
            } => Op::Load {
                dst: self.reg(&dst.text)?,
                slot: self.slot(&loc.text)?,
                sem: access.sem,
            },
            InstrKind::Store {
                loc,
                value: v,
                access,
                ..
            } => Op::Store {
                slot: self.slot(&loc.text)?,
                value: self.value(v)?,
                sem: access.sem,
            },
            InstrKind::Fence { sem, .. } => Op::Fence(match sem {
                Sem::AcqRel => Ordering::AcqRel,
                Sem::Acquire => Ordering::Acquire,
                Sem::Release => Ordering::Release,
                // `fence.sc`, and `membar`, which PTX defines as one.
                _ => Ordering::SeqCst,
            }),
            InstrKind::Atom {
                dst,
                op,
                loc,
                access,
                operand,
                new,
            } => Op::Rmw {
                dst: dst.as_ref().map(|d| self.reg(&d.text)).transpose()?,
                op: *op,
                slot: self.slot(&loc.text)?,
                operand: self.value(operand)?,
                new: new.as_ref().map(|n| self.value(n)).transpose()?,
                order: rmw_order(access.sem),
            },
            InstrKind::Mov { dst, src } => Op::Mov {
                dst: self.reg(&dst.text)?,
                src: self.value(src)?,
            },
            InstrKind::BinOp { dst, op, a, b } => Op::Bin {
                dst: self.reg(&dst.text)?,
                op: *op,
                a: self.value(a)?,
                b: self.value(b)?,
            },
            InstrKind::Label(_) => Op::Nop,
            InstrKind::Branch { cond, target } => {
                let to = self.label(&target.text)?;
                Op::Branch {
                    cond: match cond {
                        Some((c, a, b)) => Some((*c, self.value(a)?, self.value(b)?)),
                        None => None,
                    },
                    target: to,
                    backward: to <= i,
                }
            }
            other => {
                // Validation refuses everything else on a host thread.
                return Err(host_error(format!(
                    "thread `{}`: {other:?} has no host counterpart",
                    self.thread.name
                )));
            }
        })
    }
}

/// An RMW's ordering (an `atom` with no semantics written is relaxed).
fn rmw_order(sem: Sem) -> Ordering {
    match sem {
        Sem::Acquire => Ordering::Acquire,
        Sem::Release => Ordering::Release,
        Sem::AcqRel => Ordering::AcqRel,
        Sem::Sc => Ordering::SeqCst,
        _ => Ordering::Relaxed,
    }
}
