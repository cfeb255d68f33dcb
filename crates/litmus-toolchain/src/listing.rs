//! Each role of the test kernel, its PTX accesses, fences, barriers and
//! branches each beside the SASS the compiler made of its line.
//!
//! The roles are found by the comments the generator writes: `// role K:
//! thread NAME` opens a role's body, `// tK.I: INSTR` precedes the PTX of
//! its test instruction `I`, `// role K end` closes it.

use std::collections::BTreeMap;
use std::fmt;

use litmus_ptx::layout::TEST_KERNEL;

use crate::error::ToolError;
use crate::lineinfo::is_instruction;
use crate::sass::{Sass, SassInstr};

/// What a PTX line of a role does, as far as the check cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtxKind {
    /// A load, store, atomic, reduction or texture fetch.
    Access,
    /// `fence` or `membar`.
    Fence,
    /// `bar` or `barrier`.
    Barrier,
    /// `bra`; conditional when guarded by a predicate.
    Branch {
        /// Whether a predicate guards it.
        conditional: bool,
    },
    /// Arithmetic, moves, comparisons.
    Other,
}

impl PtxKind {
    /// Of an instruction line's code (no comment, trimmed). The async
    /// proxy's instructions count as what they do to memory: a bulk copy
    /// (`cp.async.bulk` with operands) and an mbarrier's arrive or wait
    /// are accesses; a bulk group's commit and wait order the thread's
    /// copies, as fences do.
    pub fn of(code: &str) -> PtxKind {
        let (guard, op) = split_guard(code);
        let opcode = op.split([' ', '\t']).next().unwrap_or("");
        if opcode.starts_with("cp.async.bulk.commit_group")
            || opcode.starts_with("cp.async.bulk.wait_group")
        {
            return PtxKind::Fence;
        }
        match op.split(['.', ' ', '\t']).next().unwrap_or("") {
            "ld" | "st" | "atom" | "red" | "tex" | "cp" | "mbarrier" => PtxKind::Access,
            "fence" | "membar" => PtxKind::Fence,
            "bar" | "barrier" => PtxKind::Barrier,
            "bra" => PtxKind::Branch {
                conditional: guard.is_some(),
            },
            _ => PtxKind::Other,
        }
    }

    /// Whether the SASS of it must hold a memory, fence or barrier
    /// instruction.
    pub fn is_memory(self) -> bool {
        matches!(self, PtxKind::Access | PtxKind::Fence | PtxKind::Barrier)
    }
}

/// (`@%p1`, `bra $L`) of `@%p1 bra $L;`.
fn split_guard(code: &str) -> (Option<&str>, &str) {
    match code.strip_prefix('@') {
        Some(rest) => {
            let (g, op) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            (Some(g.trim_start_matches('!')), op.trim_start())
        }
        None => (None, code),
    }
}

/// One PTX instruction line of a role, with its SASS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PtxLine {
    /// Its line in the module (1-based).
    pub line: u32,
    /// The instruction, trimmed, with its `;`.
    pub text: String,
    /// What it does.
    pub kind: PtxKind,
    /// The SASS instructions attributed to its line, in address order.
    pub sass: Vec<SassInstr>,
    /// A weak or relaxed load whose value no instruction of the test
    /// kernel reads (a register of the role no outcome looks at): the
    /// compiler may drop it, and nothing can tell.
    pub unread: bool,
}

impl PtxLine {
    /// The lowest address of a SASS memory, fence or barrier instruction
    /// of this line: where the access starts.
    pub fn first_memory(&self) -> Option<u32> {
        self.sass
            .iter()
            .filter(|s| s.is_memory())
            .map(|s| s.addr)
            .min()
    }
}

/// One test instruction of a role and the PTX lines it became.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestInstr {
    /// Its index in the thread's body.
    pub index: usize,
    /// The instruction as the test writes it (`ld.relaxed.gpu r0, y`).
    pub text: String,
    /// Its PTX instruction lines, every kind.
    pub lines: Vec<PtxLine>,
}

/// A conditional branch on a value a load of the same role read, with an
/// access after it: the compiler must keep it (or predicate the access).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlDep {
    /// The load's PTX line.
    pub load: u32,
    /// The branch's PTX line.
    pub branch: u32,
}

/// One role of the test kernel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoleListing {
    /// Its index (the thread's, in the test).
    pub role: usize,
    /// The thread's name (`P1`).
    pub thread: String,
    /// Its test instructions, in program order.
    pub instrs: Vec<TestInstr>,
    /// Its control dependencies on loaded values.
    pub deps: Vec<ControlDep>,
}

impl RoleListing {
    /// Every PTX line of the role, in program order, with the test
    /// instruction it belongs to.
    pub fn lines(&self) -> impl Iterator<Item = (&TestInstr, &PtxLine)> {
        self.instrs
            .iter()
            .flat_map(|i| i.lines.iter().map(move |l| (i, l)))
    }

    /// The line `line` and its test instruction.
    pub fn line(&self, line: u32) -> Option<(&TestInstr, &PtxLine)> {
        self.lines().find(|(_, l)| l.line == line)
    }
}

/// The listing of a module's test kernel: its roles, each PTX access,
/// fence, barrier and branch with its SASS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The roles the kernel plays, in the module's order.
    pub roles: Vec<RoleListing>,
}

impl Listing {
    /// The listing of `cubin`, the annotated `module` compiled with line
    /// information (by ptxas or a driver): disassembled by `nvdisasm` and
    /// lined up with `module` as [`Listing::new`] does. The one way from
    /// an image to a listing, for `sass`, the portability test and a
    /// failure story alike.
    pub fn of_cubin(
        module: &str,
        cubin: &[u8],
        nvdisasm: &crate::Nvdisasm,
    ) -> Result<Listing, ToolError> {
        Listing::new(module, &Sass::parse(&nvdisasm.disassemble(cubin)?))
    }

    /// The listing of `module` (as generated) compiled by `ptxas` for
    /// `arch` with line information: the image is `cache`'s when it holds
    /// a good one, else compiled and stored there. Trouble with the cache
    /// costs only its copy: it is said to `warn`, one message each
    /// (`module cache: ...; compiling again`), and the module compiled.
    pub fn compiled(
        module: &str,
        arch: litmus_ptx::isa::SmArch,
        ptxas: &crate::Ptxas,
        nvdisasm: &crate::Nvdisasm,
        cache: Option<&crate::ModuleCache>,
        warn: &mut dyn FnMut(String),
    ) -> Result<Listing, ToolError> {
        let annotated = crate::lineinfo::annotate(module);
        let (toolchain, device) = (ptxas.name(), arch.to_string());
        let key = crate::CacheKey {
            module: &annotated,
            toolchain: &toolchain,
            device: &device,
        };
        let cached = match cache.map(|c| c.get(&key)) {
            Some(Ok(crate::Lookup::Hit(image))) => Some(image),
            Some(Ok(crate::Lookup::Corrupt(why))) => {
                warn(format!("module cache: {why}; compiling again"));
                None
            }
            Some(Err(e)) => {
                warn(e.to_string());
                None
            }
            Some(Ok(crate::Lookup::Miss)) | None => None,
        };
        let cubin = match cached {
            Some(image) => image,
            None => {
                let image = ptxas.compile(&annotated, arch, true)?;
                if let Some(Err(e)) = cache.map(|c| c.put(&key, &image)) {
                    warn(e.to_string());
                }
                image
            }
        };
        Listing::of_cubin(module, &cubin, nvdisasm)
    }

    /// Lines up `module` (as generated, before [`crate::lineinfo::annotate`])
    /// with `sass`, nvdisasm's listing of the annotated module compiled
    /// with line information. An error when the module has no role
    /// markers or the listing no test kernel or no line information.
    pub fn new(module: &str, sass: &Sass) -> Result<Listing, ToolError> {
        let kernel = sass.kernel(TEST_KERNEL).ok_or_else(|| ToolError::Listing {
            why: format!("the SASS has no kernel `{TEST_KERNEL}`"),
        })?;
        if kernel.instrs.iter().all(|i| i.line.is_none()) {
            return Err(ToolError::Listing {
                why: "the SASS has no line information (compile with -lineinfo)".into(),
            });
        }
        let mut by_line: BTreeMap<u32, Vec<SassInstr>> = BTreeMap::new();
        for i in &kernel.instrs {
            if let Some(l) = i.line {
                by_line.entry(l).or_default().push(i.clone());
            }
        }
        let mut roles = read_roles(module)?;
        for role in &mut roles {
            for instr in &mut role.instrs {
                for line in &mut instr.lines {
                    line.sass = by_line.get(&line.line).cloned().unwrap_or_default();
                }
            }
            role.deps = control_deps(role);
        }
        Ok(Listing { roles })
    }
}

/// The roles of the test kernel of `module`, without SASS.
fn read_roles(module: &str) -> Result<Vec<RoleListing>, ToolError> {
    let mut roles: Vec<RoleListing> = Vec::new();
    let mut in_test = false;
    let mut open = false;
    for (n, raw) in module.lines().enumerate() {
        let t = raw.trim();
        if t.contains(".entry") {
            in_test = t.contains(&format!(".entry {TEST_KERNEL}("));
            continue;
        }
        if !in_test {
            continue;
        }
        if let Some(c) = t.strip_prefix("// role ") {
            if let Some((k, thread)) = c.split_once(": thread ") {
                if let Ok(role) = k.trim().parse() {
                    roles.push(RoleListing {
                        role,
                        thread: thread.trim().to_string(),
                        instrs: Vec::new(),
                        deps: Vec::new(),
                    });
                    open = true;
                }
            } else if c.ends_with(" end") {
                open = false;
            }
            continue;
        }
        let Some(role) = roles.last_mut().filter(|_| open) else {
            continue;
        };
        if let Some(c) = t.strip_prefix(&format!("// t{}.", role.role)) {
            if let Some((i, text)) = c.split_once(": ") {
                if let Ok(index) = i.parse() {
                    role.instrs.push(TestInstr {
                        index,
                        text: text.to_string(),
                        lines: Vec::new(),
                    });
                }
            }
            continue;
        }
        if let (Some(instr), true) = (role.instrs.last_mut(), is_instruction(raw)) {
            let code = t.split("//").next().unwrap_or("").trim();
            instr.lines.push(PtxLine {
                line: n as u32 + 1,
                text: code.to_string(),
                kind: PtxKind::of(code),
                sass: Vec::new(),
                unread: false,
            });
        }
    }
    let reads = kernel_reads(module);
    for line in roles
        .iter_mut()
        .flat_map(|r| r.instrs.iter_mut())
        .flat_map(|i| i.lines.iter_mut())
    {
        let plain = line.text.starts_with("ld")
            && !line.text.contains(".acquire")
            && !line.text.contains(".volatile");
        line.unread = plain && operands(&line.text).0.is_some_and(|d| !reads.contains(&d));
    }
    if roles.is_empty() {
        return Err(ToolError::Listing {
            why: format!("the module's `{TEST_KERNEL}` has no `// role K: thread NAME` markers"),
        });
    }
    Ok(roles)
}

/// Every register some instruction of the test kernel reads.
fn kernel_reads(module: &str) -> std::collections::BTreeSet<String> {
    let mut in_test = false;
    let mut reads = std::collections::BTreeSet::new();
    for raw in module.lines() {
        let t = raw.trim();
        if t.contains(".entry") {
            in_test = t.contains(&format!(".entry {TEST_KERNEL}("));
        } else if in_test && is_instruction(raw) {
            reads.extend(operands(t.split("//").next().unwrap_or("").trim()).1);
        }
    }
    reads
}

/// The registers of an instruction: (its destination, its sources). The
/// destination is the first operand of anything but a store, reduction,
/// branch, fence or barrier; `{a, b}` vectors count each register.
fn operands(code: &str) -> (Option<String>, Vec<String>) {
    let (guard, op) = split_guard(code);
    let (opcode, args) = op.split_once(char::is_whitespace).unwrap_or((op, ""));
    let base = opcode.split('.').next().unwrap_or("");
    let regs = |s: &str| -> Vec<String> {
        s.split(|c: char| !(c.is_alphanumeric() || "%_$".contains(c)))
            .filter(|w| w.starts_with('%'))
            .map(str::to_string)
            .collect()
    };
    let args = args.trim_end_matches(';');
    let mut srcs: Vec<String> = guard.map(|g| vec![g.to_string()]).unwrap_or_default();
    // A bulk copy's first operand is the address it writes, no register.
    let writes = !matches!(
        base,
        "st" | "red" | "bra" | "fence" | "membar" | "bar" | "barrier" | "ret" | "cp"
    );
    if !writes {
        srcs.extend(regs(args));
        return (None, srcs);
    }
    // The first operand, or the first vector `{...}`.
    let (first, rest) = if args.trim_start().starts_with('{') {
        args.split_once('}').unwrap_or((args, ""))
    } else {
        args.split_once(',').unwrap_or((args, ""))
    };
    srcs.extend(regs(rest));
    (regs(first).into_iter().next(), srcs)
}

/// Where a conditional branch of the role tests a value a load of the
/// role read (through any arithmetic), and an access follows the branch.
fn control_deps(role: &RoleListing) -> Vec<ControlDep> {
    let lines: Vec<&PtxLine> = role.lines().map(|(_, l)| l).collect();
    // Register → the load line its value came from.
    let mut from_load: BTreeMap<String, u32> = BTreeMap::new();
    let mut deps = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let (dst, srcs) = operands(&l.text);
        let tainted = srcs.iter().find_map(|s| from_load.get(s).copied());
        match l.kind {
            PtxKind::Branch { conditional: true } => {
                let access_after = lines[i + 1..].iter().any(|m| m.kind.is_memory());
                if let (Some(load), true) = (tainted, access_after) {
                    deps.push(ControlDep {
                        load,
                        branch: l.line,
                    });
                }
            }
            // An mbarrier wait reads the barrier: a branch on its result
            // depends on that read.
            PtxKind::Access
                if l.text.starts_with("ld")
                    || l.text.starts_with("atom")
                    || l.text.starts_with("tex")
                    || l.text.starts_with("mbarrier.try_wait")
                    || l.text.starts_with("mbarrier.test_wait") =>
            {
                if let Some(d) = dst {
                    from_load.insert(d, l.line);
                }
            }
            _ => match (dst, tainted) {
                (Some(d), Some(load)) => {
                    from_load.insert(d, load);
                }
                (Some(d), None) => {
                    from_load.remove(&d);
                }
                _ => {}
            },
        }
    }
    deps
}

impl fmt::Display for RoleListing {
    /// The role's test instructions, each with its accesses, fences,
    /// barriers and branches, each followed by its SASS, indented.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "role {} ({})", self.role, self.thread)?;
        for instr in &self.instrs {
            writeln!(f, "  t{}.{}: {}", self.role, instr.index, instr.text)?;
            for l in instr.lines.iter().filter(|l| l.kind != PtxKind::Other) {
                writeln!(f, "    {:>5}  {}", l.line, l.text)?;
                match (l.sass.is_empty(), l.unread) {
                    (true, true) => writeln!(
                        f,
                        "             (no SASS: nothing reads the value, so ptxas may drop it)"
                    )?,
                    (true, false) => writeln!(f, "             (no SASS)")?,
                    _ => {}
                }
                for s in &l.sass {
                    writeln!(f, "             /*{:04x}*/ {}", s.addr, s.text)?;
                }
            }
        }
        Ok(())
    }
}

impl fmt::Display for Listing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in &self.roles {
            write!(f, "{r}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_and_operands_of_ptx_lines() {
        assert_eq!(
            PtxKind::of("ld.relaxed.gpu.global.u32 %t1r0, [%rd23];"),
            PtxKind::Access
        );
        assert_eq!(PtxKind::of("fence.sc.gpu;"), PtxKind::Fence);
        assert_eq!(PtxKind::of("membar.gl;"), PtxKind::Fence);
        assert_eq!(PtxKind::of("bar.sync 1, 64;"), PtxKind::Barrier);
        assert_eq!(
            PtxKind::of("@!%p3 bra $L_x;"),
            PtxKind::Branch { conditional: true }
        );
        assert_eq!(
            PtxKind::of("bra.uni $t0_3;"),
            PtxKind::Branch { conditional: false }
        );
        assert_eq!(PtxKind::of("setp.ne.u32 %p3, %t0r0, %r9;"), PtxKind::Other);
        assert_eq!(
            PtxKind::of("cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%r7], 16;"),
            PtxKind::Access
        );
        assert_eq!(PtxKind::of("cp.async.bulk.commit_group;"), PtxKind::Fence);
        assert_eq!(
            PtxKind::of("cp.async.bulk.wait_group.read 0;"),
            PtxKind::Fence
        );
        assert_eq!(
            PtxKind::of("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r9];"),
            PtxKind::Access
        );
        assert_eq!(
            PtxKind::of("fence.proxy.async.shared::cta;"),
            PtxKind::Fence
        );
        assert_eq!(
            operands("cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%r7], 16;"),
            (None, vec!["%rd3".into(), "%r7".into()])
        );
        assert_eq!(
            operands("mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p5, [%r9], 0;"),
            (Some("%p5".into()), vec!["%r9".into()])
        );
        assert_eq!(
            operands("setp.ne.u32 %p3, %t0r0, %r9;"),
            (Some("%p3".into()), vec!["%t0r0".into(), "%r9".into()])
        );
        assert_eq!(
            operands("st.relaxed.gpu.global.u32 [%rd4], %r7;"),
            (None, vec!["%rd4".into(), "%r7".into()])
        );
        assert_eq!(
            operands("@%p3 bra $L_fallthrough_5;"),
            (None, vec!["%p3".into()])
        );
        assert_eq!(
            operands("tex.1d.v4.u32.s32 {%t0r0, %r1, %r2, %r3}, [%rd1, {%r4}];"),
            (Some("%t0r0".into()), vec!["%rd1".into(), "%r4".into()])
        );
    }
}
