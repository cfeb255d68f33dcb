//! What the compiler did to a role that the test did not ask for: an
//! access or fence with no SASS (dropped), two of them in another order
//! than the program's (reordered), or a conditional branch on a loaded
//! value with no branch or predicate left (folded, as ptxas folds herd7's
//! LB+ctrls, whose branch goes to the very next instruction).
//!
//! The findings are warnings: a reordering of two relaxed loads of
//! different locations is within the PTX model, but it is not the program
//! the test means to run, and a folded dependency turns a forbidden
//! outcome into an allowed one.

use std::fmt;

use crate::listing::{Listing, RoleListing};

/// What happened to a PTX line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum What {
    /// No SASS memory, fence or barrier instruction came from it (a weak
    /// or relaxed load whose value nothing reads is not reported).
    Dropped,
    /// Its first SASS memory instruction lies before that of an earlier
    /// access, fence or barrier of the role.
    Reordered {
        /// The earlier PTX line.
        before: u32,
        /// This line's first SASS address.
        addr: u32,
        /// The earlier line's.
        before_addr: u32,
    },
    /// A conditional branch on a value loaded at `load` became no
    /// conditional branch, and no later access of the role is predicated.
    Folded {
        /// The load's PTX line.
        load: u32,
    },
}

impl fmt::Display for What {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            What::Dropped => write!(
                f,
                "dropped: no SASS memory, fence or barrier instruction comes from it"
            ),
            What::Reordered {
                before,
                addr,
                before_addr,
            } => write!(
                f,
                "reordered: its SASS (/*{addr:04x}*/) comes before that of line {before} (/*{before_addr:04x}*/)"
            ),
            What::Folded { load } => write!(
                f,
                "folded: this branch on the value loaded at line {load} left no conditional branch or predicate in the SASS, so the control dependency is gone"
            ),
        }
    }
}

/// One thing the compiler did to one PTX line of a role.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The role.
    pub role: usize,
    /// Its thread's name.
    pub thread: String,
    /// The PTX line.
    pub line: u32,
    /// The PTX instruction.
    pub ptx: String,
    /// The test instruction it belongs to (`t1.0: ld.relaxed.gpu r0, y`).
    pub instr: String,
    /// What happened.
    pub what: What,
}

impl fmt::Display for Finding {
    /// One line: `role 1 (P1), line 327 `ld...` (t1.0: ...): what`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "role {} ({}), line {} `{}` ({}): {}",
            self.role, self.thread, self.line, self.ptx, self.instr, self.what
        )
    }
}

/// The findings of every role of `listing`.
///
/// ```
/// # fn f(listing: &litmus_toolchain::Listing) {
/// for finding in litmus_toolchain::check(listing) {
///     eprintln!("warning: {finding}");
/// }
/// # }
/// ```
pub fn check(listing: &Listing) -> Vec<Finding> {
    listing.roles.iter().flat_map(check_role).collect()
}

/// The findings of one role, in program order of the kinds: dropped,
/// reordered, folded.
pub fn check_role(role: &RoleListing) -> Vec<Finding> {
    // Every line named here is one of the role's.
    let finding = |line: u32, what: What| {
        role.line(line).map(|(instr, l)| Finding {
            role: role.role,
            thread: role.thread.clone(),
            line,
            ptx: l.text.clone(),
            instr: format!("t{}.{}: {}", role.role, instr.index, instr.text),
            what,
        })
    };
    let mut found = Vec::new();
    let memory: Vec<_> = role
        .lines()
        .map(|(_, l)| l)
        .filter(|l| l.kind.is_memory())
        .collect();
    for l in &memory {
        // A load whose value nothing reads changes no outcome: dropping
        // it is the compiler's right, not a change to the test.
        if l.first_memory().is_none() && !l.unread {
            found.push(finding(l.line, What::Dropped));
        }
    }
    // The latest start so far: a line that starts before it was moved up
    // past it.
    let mut latest: Option<(u32, u32)> = None;
    for l in &memory {
        let Some(addr) = l.first_memory() else { continue };
        match latest {
            Some((before_addr, before)) if addr < before_addr => found.push(finding(
                l.line,
                What::Reordered {
                    before,
                    addr,
                    before_addr,
                },
            )),
            _ => latest = Some((addr, l.line)),
        }
    }
    for dep in &role.deps {
        let Some((instr, _)) = role.line(dep.branch) else { continue };
        // ptxas may put the branch on the comparison's or the jump's line:
        // any line of the test's branch instruction will do.
        let branch_kept = instr
            .lines
            .iter()
            .flat_map(|l| &l.sass)
            .any(|s| s.is_conditional_branch());
        let predicated = role
            .lines()
            .map(|(_, l)| l)
            .filter(|l| l.line > dep.branch && l.kind.is_memory())
            .flat_map(|l| &l.sass)
            .any(|s| s.is_memory() && s.guard().is_some_and(|g| g != "@PT"));
        if !branch_kept && !predicated {
            found.push(finding(dep.branch, What::Folded { load: dep.load }));
        }
    }
    found.into_iter().flatten().collect()
}
