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
        let Some(addr) = l.first_memory() else {
            continue;
        };
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
        let Some((instr, _)) = role.line(dep.branch) else {
            continue;
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sass;

    /// A test kernel of two roles as the generator writes it (cut down):
    /// role 0 loads x, branches on it, stores y; role 1 stores, fences,
    /// loads a value nothing reads.
    const MODULE: &str = "\
.version 7.0
.target sm_80
.address_size 64
.visible .entry litmus_test(
)
{
\t// role 0: thread P0
\t// t0.0: ld.relaxed.gpu r0, x
\tld.relaxed.gpu.global.u32 %t0r0, [%rd1];
\t// t0.1: beq r0, 1, L0
\tmov.u32 %r9, 1;
\tsetp.ne.u32 %p3, %t0r0, %r9;
\t@%p3 bra $L_fallthrough_5;
\tbra.uni $t0_2;
$L_fallthrough_5:
\t// t0.2: L0:
$t0_2:
\t// t0.3: st.relaxed.gpu y, 1
\tmov.u32 %r10, 1;
\tst.relaxed.gpu.global.u32 [%rd2], %r10;
\t// role 0 end
\tbra.uni $L_end0;
\t// role 1: thread P1
\t// t1.0: st.relaxed.gpu x, 1
\tst.relaxed.gpu.global.u32 [%rd3], %r11;
\t// t1.1: fence.sc.gpu
\tfence.sc.gpu;
\t// t1.2: ld.relaxed.gpu r1, y
\tld.relaxed.gpu.global.u32 %t1r1, [%rd4];
\t// role 1 end
\tst.global.u32 [%rd5], %t0r0;
\tret;
}
";

    fn sass(body: &str) -> Sass {
        Sass::parse(&format!(
            "\t.section\t.text.litmus_test,\"ax\",@progbits\nlitmus_test:\n{body}"
        ))
    }

    fn at(line: u32, addr: u32, text: &str) -> String {
        format!("\t//## File \"litmus.ptx\", line {line}\n        /*{addr:04x}*/ {text} ;\n")
    }

    #[test]
    fn roles_instructions_and_dependencies_are_read_off_the_module() {
        let body = at(9, 0x10, "LDG.E.STRONG.GPU R2, [R4.64]")
            + &at(12, 0x20, "ISETP.NE.AND P0, PT, R2, 0x1, PT")
            + &at(13, 0x30, "@P0 BRA `(.L_x_1)")
            + &at(20, 0x40, "STG.E.STRONG.GPU [R6.64], R7")
            + &at(25, 0x50, "STG.E.STRONG.GPU [R8.64], R7")
            + &at(27, 0x60, "MEMBAR.SC.GPU");
        let l = Listing::new(MODULE, &sass(&body)).unwrap();
        let shape: Vec<(usize, &str, usize)> = l
            .roles
            .iter()
            .map(|r| (r.role, r.thread.as_str(), r.instrs.len()))
            .collect();
        assert_eq!(shape, [(0, "P0", 4), (1, "P1", 3)]);
        assert_eq!(
            l.roles[0].deps,
            [crate::listing::ControlDep {
                load: 9,
                branch: 13
            }]
        );
        assert!(l.roles[1].deps.is_empty());
        // P1's load: nothing reads %t1r1 (P0's register is stored).
        let unread: Vec<u32> = l
            .roles
            .iter()
            .flat_map(|r| r.lines())
            .filter(|(_, p)| p.unread)
            .map(|(_, p)| p.line)
            .collect();
        assert_eq!(unread, [29]);
        assert_eq!(check(&l), []);
        let shown = l.to_string();
        assert!(shown.contains("role 0 (P0)\n  t0.0: ld.relaxed.gpu r0, x\n        9  ld.relaxed.gpu.global.u32 %t0r0, [%rd1];\n             /*0010*/ LDG.E.STRONG.GPU R2, [R4.64]\n"), "{shown}");
        assert!(
            shown.contains("(no SASS: nothing reads the value"),
            "{shown}"
        );
    }

    #[test]
    fn dropped_reordered_and_folded_are_found() {
        // The branch folded, P1's fence before its store, P0's store
        // gone.
        let body = at(9, 0x10, "LDG.E.STRONG.GPU R2, [R4.64]")
            + &at(27, 0x20, "MEMBAR.SC.GPU")
            + &at(25, 0x30, "STG.E.STRONG.GPU [R8.64], R7");
        let l = Listing::new(MODULE, &sass(&body)).unwrap();
        let found: Vec<String> = check(&l).iter().map(ToString::to_string).collect();
        assert_eq!(
            found,
            [
                "role 0 (P0), line 20 `st.relaxed.gpu.global.u32 [%rd2], %r10;` (t0.3: st.relaxed.gpu y, 1): dropped: no SASS memory, fence or barrier instruction comes from it",
                "role 0 (P0), line 13 `@%p3 bra $L_fallthrough_5;` (t0.1: beq r0, 1, L0): folded: this branch on the value loaded at line 9 left no conditional branch or predicate in the SASS, so the control dependency is gone",
                "role 1 (P1), line 27 `fence.sc.gpu;` (t1.1: fence.sc.gpu): reordered: its SASS (/*0020*/) comes before that of line 25 (/*0030*/)",
            ]
        );
    }

    #[test]
    fn a_predicated_access_keeps_the_dependency() {
        let body = at(9, 0x10, "LDG.E.STRONG.GPU R2, [R4.64]")
            + &at(12, 0x20, "ISETP.NE.AND P0, PT, R2, 0x1, PT")
            + &at(20, 0x40, "@!P0 STG.E.STRONG.GPU [R6.64], R7")
            + &at(25, 0x50, "STG.E.STRONG.GPU [R8.64], R7")
            + &at(27, 0x60, "MEMBAR.SC.GPU");
        let l = Listing::new(MODULE, &sass(&body)).unwrap();
        assert_eq!(check(&l), []);
    }

    #[test]
    fn a_listing_without_lines_or_markers_is_an_error() {
        let e = Listing::new(MODULE, &sass("        /*0010*/ NOP ;\n")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot list the SASS: the SASS has no line information (compile with -lineinfo)"
        );
        let e = Listing::new(MODULE, &Sass::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot list the SASS: the SASS has no kernel `litmus_test`"
        );
        let plain = MODULE.replace("// role", "// part");
        let e = Listing::new(&plain, &sass(&at(9, 0x10, "NOP"))).unwrap_err();
        assert!(
            e.to_string()
                .contains("no `// role K: thread NAME` markers"),
            "{e}"
        );
    }
}
