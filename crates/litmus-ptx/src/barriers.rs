//! Role-per-warp mode: how a test with CTA barriers is laid out, one role
//! per warp, and each of its barriers planned as a hardware barrier (see
//! [`Mode::RolePerWarp`]).

use std::collections::BTreeMap;

use litmus_core::instr::{BarrierKind, InstrKind};
use litmus_core::ir::{Imm, Operand, Test, Thread};

use crate::plan::{Mode, Role, HARNESS_BARRIER};
use crate::PtxError;

/// One barrier a role takes: its instruction index, hardware barrier id
/// and kind.
type Step = (usize, u32, BarrierKind);

/// `(role, instruction index)` → (hardware barrier, thread count).
type Plan = BTreeMap<(usize, usize), (u32, u32)>;

/// Chooses the mode: role per warp when the test has CTA barriers, and
/// then plans every barrier as a hardware barrier, refusing what would
/// hang or mean something else on the hardware.
pub(super) fn mode(test: &Test, roles: &[Role]) -> Result<Mode, PtxError> {
    let has_barrier = |k: usize| {
        test.threads[k]
            .body
            .iter()
            .any(|i| matches!(i.kind, InstrKind::Barrier { .. }))
    };
    if !(0..test.threads.len()).any(has_barrier) {
        return Ok(Mode::EveryRole);
    }
    let ctas = roles.iter().map(|r| r.cta_offset).max().unwrap_or(0) + 1;
    let roles_of = roles_per_cta(test, roles, ctas)?;
    let sequences = test
        .threads
        .iter()
        .map(barrier_sequence)
        .collect::<Result<Vec<_>, _>>()?;
    let barriers = plan_barriers(test, &roles_of, &sequences)?;
    Ok(Mode::RolePerWarp {
        ctas,
        warps: roles_of.iter().map(Vec::len).max().unwrap_or(1) as u32,
        roles_of,
        barriers,
    })
}

/// A refusal: the harness cannot run the test as written.
fn unsupported<T>(why: String) -> Result<T, PtxError> {
    Err(PtxError::Unsupported(why))
}

/// Groups the roles by declared CTA, refusing two roles of one declared
/// warp.
fn roles_per_cta(test: &Test, roles: &[Role], ctas: u32) -> Result<Vec<Vec<usize>>, PtxError> {
    let mut roles_of: Vec<Vec<usize>> = vec![Vec::new(); ctas as usize];
    for (k, role) in roles.iter().enumerate() {
        let group = &roles_of[role.cta_offset as usize];
        if let Some(&other) = group
            .iter()
            .find(|&&o| role.warp.is_some() && roles[o].warp == role.warp)
        {
            return unsupported(format!(
                "threads `{}` and `{}` share a warp in a test with CTA barriers: each role needs a warp of its own",
                test.threads[other].name, test.threads[k].name
            ));
        }
        roles_of[role.cta_offset as usize].push(k);
    }
    Ok(roles_of)
}

/// One role's barriers in program order, as hardware barrier ids,
/// refusing barriers beside branches.
fn barrier_sequence(thread: &Thread) -> Result<Vec<Step>, PtxError> {
    let mut sequence = Vec::new();
    for (i, ins) in thread.body.iter().enumerate() {
        let InstrKind::Barrier {
            kind,
            instance,
            id,
            quorum,
        } = &ins.kind
        else {
            continue;
        };
        let resource = hardware_barrier(thread, instance, id, quorum)?;
        sequence.push((i, resource, *kind));
    }
    let branches = thread
        .body
        .iter()
        .any(|i| matches!(i.kind, InstrKind::Branch { .. }));
    if branches && !sequence.is_empty() {
        return unsupported(format!(
            "thread `{}` has branches and CTA barriers: a barrier some thread may skip would hang the GPU",
            thread.name
        ));
    }
    Ok(sequence)
}

/// The hardware barrier one barrier instruction names, refusing register
/// ids and thread counts and the barrier the harness keeps.
fn hardware_barrier(
    thread: &Thread,
    instance: &Imm,
    id: &Option<Operand>,
    quorum: &Option<Operand>,
) -> Result<u32, PtxError> {
    let resource = match id {
        None => instance.value,
        Some(Operand::Imm(v)) => v.value,
        Some(Operand::Reg(r)) => {
            return unsupported(format!(
                "thread `{}` names its barrier with register `{r}`: the harness needs constant barrier ids",
                thread.name
            ))
        }
    };
    if !(0..i64::from(HARNESS_BARRIER)).contains(&resource) {
        return unsupported(format!(
            "barrier {resource} of thread `{}`: hardware barriers are 0 to 15, and the harness keeps 15",
            thread.name
        ));
    }
    if let Some(Operand::Reg(r)) = quorum {
        return unsupported(format!(
            "thread `{}` gives its barrier's thread count in register `{r}`: the harness needs constants",
            thread.name
        ));
    }
    Ok(resource as u32)
}

/// `(role, instruction index)` → (hardware barrier, thread count) for
/// every barrier, refusing roles of one CTA that would deadlock or be
/// released early.
fn plan_barriers(
    test: &Test,
    roles_of: &[Vec<usize>],
    sequences: &[Vec<Step>],
) -> Result<Plan, PtxError> {
    // Within a declared CTA, every role that takes part in barriers must
    // take the same barriers in the same order, or the hardware deadlocks.
    let mut barriers = BTreeMap::new();
    for group in roles_of {
        let parts: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&k| !sequences[k].is_empty())
            .collect();
        let Some(&first) = parts.first() else {
            continue;
        };
        let ids = |k: usize| {
            sequences[k]
                .iter()
                .map(|(_, id, _)| *id)
                .collect::<Vec<_>>()
        };
        if let Some(&other) = parts.iter().find(|&&k| ids(k) != ids(first)) {
            return unsupported(format!(
                "threads `{}` and `{}` of one CTA take different barriers (or in another order): the hardware would deadlock",
                test.threads[first].name, test.threads[other].name
            ));
        }
        let count = 32 * parts.len() as u32;
        for &k in &parts {
            for (i, id, _) in &sequences[k] {
                if let InstrKind::Barrier {
                    quorum: Some(Operand::Imm(q)),
                    ..
                } = &test.threads[k].body[*i].kind
                {
                    if q.value != parts.len() as i64 {
                        return unsupported(format!(
                            "barrier {id} of thread `{}` waits for {} threads but {} reach it: the hardware would wait forever or release early",
                            test.threads[k].name,
                            q.value,
                            parts.len()
                        ));
                    }
                }
                barriers.insert((k, *i), (*id, count));
            }
        }
    }
    Ok(barriers)
}
