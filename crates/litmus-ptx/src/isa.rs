//! What a module needs of the GPU and of the compiler: the lowest PTX ISA
//! version and the lowest target (`sm_XX`) its instructions exist on, so
//! that one module serves every NVIDIA GPU since Volta and every driver
//! since CUDA 12.0. [`generate`](crate::generate) writes a module's header
//! from [`Needs::of`]; the GPU half retargets it to the device at run time
//! ([`retarget`]), and says in one line which instruction a device or a
//! driver lacks ([`Needs::fit`]).
//!
//! The table ([`FEATURES`]) is read off the generated text, not the IR:
//! the harness's own code (warp matching, the cluster barrier of the
//! set-up) needs things no test instruction names.
//!
//! ```
//! use litmus_ptx::isa::{retarget, Needs, PtxIsa, SmArch};
//! let module = ".version 8.6\n.target sm_90\n.address_size 64\n\n.entry k() { fence.sc.gpu; ret; }\n";
//! let needs = Needs::of(module);
//! assert_eq!((needs.isa, needs.sm), (PtxIsa::new(6, 0), SmArch::new(70)));
//! let ampere = retarget(module, SmArch::new(80)).unwrap();
//! assert!(ampere.starts_with(".version 7.0\n.target sm_80\n"));
//! ```

use std::fmt;

/// A PTX ISA version (`.version 7.8`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PtxIsa {
    /// The major version (7 of 7.8).
    pub major: u8,
    /// The minor version (8 of 7.8).
    pub minor: u8,
}

impl PtxIsa {
    /// `major.minor`.
    pub const fn new(major: u8, minor: u8) -> PtxIsa {
        PtxIsa { major, minor }
    }

    /// Reads `7.8`; `None` for anything else.
    pub fn parse(text: &str) -> Option<PtxIsa> {
        let (a, b) = text.trim().split_once('.')?;
        Some(PtxIsa::new(a.parse().ok()?, b.parse().ok()?))
    }

    /// The highest PTX ISA that the driver of a CUDA release JIT-compiles
    /// (and that its ptxas reads), from `cuDriverGetVersion`'s number
    /// (`12040` for 12.4). A release newer than the table knows gets the
    /// newest ISA the table has: a lower bound, so a module the newer
    /// driver could run may be refused, never the other way round.
    pub fn of_cuda(version: u32) -> PtxIsa {
        let (major, minor) = (version / 1000, (version % 1000) / 10);
        CUDA_PTX
            .iter()
            .rev()
            .find(|((ma, mi), _)| (major, minor) >= (*ma, *mi))
            .map(|(_, isa)| *isa)
            .unwrap_or(PtxIsa::new(6, 0))
    }
}

impl fmt::Display for PtxIsa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// CUDA release → the PTX ISA it introduced (the PTX ISA guide's release
/// notes). 12.6 added none; 12.7 is the 565 drivers' release, with PTX 8.6.
const CUDA_PTX: [((u32, u32), PtxIsa); 18] = [
    ((10, 0), PtxIsa::new(6, 3)),
    ((10, 1), PtxIsa::new(6, 4)),
    ((10, 2), PtxIsa::new(6, 5)),
    ((11, 0), PtxIsa::new(7, 0)),
    ((11, 1), PtxIsa::new(7, 1)),
    ((11, 4), PtxIsa::new(7, 4)),
    ((11, 5), PtxIsa::new(7, 5)),
    ((11, 8), PtxIsa::new(7, 8)),
    ((12, 0), PtxIsa::new(8, 0)),
    ((12, 1), PtxIsa::new(8, 1)),
    ((12, 2), PtxIsa::new(8, 2)),
    ((12, 3), PtxIsa::new(8, 3)),
    ((12, 4), PtxIsa::new(8, 4)),
    ((12, 5), PtxIsa::new(8, 5)),
    ((12, 7), PtxIsa::new(8, 6)),
    ((12, 8), PtxIsa::new(8, 7)),
    ((12, 9), PtxIsa::new(8, 8)),
    ((13, 0), PtxIsa::new(9, 0)),
];

/// A GPU architecture as PTX names it (`sm_86`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SmArch(u32);

/// Every architecture since Volta that a module may target, oldest first,
/// with the PTX ISA that introduced it (the `.version` a module for it
/// needs at least).
pub const ARCHES: [(SmArch, PtxIsa); 13] = [
    (SmArch(70), PtxIsa::new(6, 0)),
    (SmArch(72), PtxIsa::new(6, 1)),
    (SmArch(75), PtxIsa::new(6, 3)),
    (SmArch(80), PtxIsa::new(7, 0)),
    (SmArch(86), PtxIsa::new(7, 1)),
    (SmArch(87), PtxIsa::new(7, 4)),
    (SmArch(89), PtxIsa::new(7, 8)),
    (SmArch(90), PtxIsa::new(7, 8)),
    (SmArch(100), PtxIsa::new(8, 6)),
    (SmArch(103), PtxIsa::new(8, 8)),
    (SmArch(110), PtxIsa::new(9, 0)),
    (SmArch(120), PtxIsa::new(8, 7)),
    (SmArch(121), PtxIsa::new(8, 8)),
];

impl SmArch {
    /// `sm_{n}`: 70 for Volta, 90 for Hopper. Any number is accepted here;
    /// [`SmArch::parse`] takes only the known ones.
    pub const fn new(n: u32) -> SmArch {
        SmArch(n)
    }

    /// The architecture of a device of compute capability `major.minor`.
    pub fn of_capability(major: u32, minor: u32) -> SmArch {
        SmArch(major * 10 + minor)
    }

    /// The number (86 of `sm_86`).
    pub fn number(self) -> u32 {
        self.0
    }

    /// Reads `sm_86` (or `86`, `8.6`, `compute_86`); `None` for a name that is no
    /// architecture since Volta.
    pub fn parse(text: &str) -> Option<SmArch> {
        let t = text.trim();
        let digits = t
            .strip_prefix("sm_")
            .or_else(|| t.strip_prefix("compute_"))
            .unwrap_or(t);
        let n: u32 = match digits.split_once('.') {
            Some((a, b)) if b.len() == 1 => a.parse::<u32>().ok()? * 10 + b.parse::<u32>().ok()?,
            Some(_) => return None,
            None => digits.parse().ok()?,
        };
        ARCHES.iter().map(|(a, _)| *a).find(|a| a.0 == n)
    }

    /// The PTX ISA that introduced this target: a module for it says at
    /// least this `.version`. An architecture newer than the table knows
    /// gets the newest ISA the table has.
    pub fn min_isa(self) -> PtxIsa {
        ARCHES
            .iter()
            .find(|(a, _)| *a == self)
            .map(|(_, isa)| *isa)
            .unwrap_or_else(|| ARCHES.iter().map(|(_, i)| *i).max().expect("a table"))
    }

    /// The names every known architecture is written with, for messages.
    pub fn known() -> String {
        ARCHES
            .iter()
            .map(|(a, _)| a.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for SmArch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "sm_{}", self.0)
    }
}

/// One row of the table: a piece of PTX text, and the lowest ISA and
/// target it exists on.
#[derive(Clone, Copy, Debug)]
pub struct Feature {
    /// What the row matches: an instruction's opcode with its qualifiers
    /// up to this text (`fence.acquire`), a qualifier anywhere in one
    /// (`.cluster`), a special register (`%cluster_ctarank`) or a
    /// directive (`.reqnctapercluster`).
    pub text: &'static str,
    /// How it reads in a message (`fence.acquire`, `.cluster scope`).
    pub what: &'static str,
    /// The lowest PTX ISA version with it.
    pub isa: PtxIsa,
    /// The lowest target with it.
    pub sm: SmArch,
}

const fn feature(text: &'static str, what: &'static str, isa: (u8, u8), sm: u32) -> Feature {
    Feature {
        text,
        what,
        isa: PtxIsa::new(isa.0, isa.1),
        sm: SmArch(sm),
    }
}

/// What the generated modules may contain that not every ISA or target
/// has, from the PTX ISA guide's "PTX ISA Notes" and "Target ISA Notes"
/// of each instruction. Everything else they use exists since PTX 6.0 on
/// sm_70 (`docs/running-on-gpus.md` has the table as prose).
pub const FEATURES: &[Feature] = &[
    // The memory model's qualifiers (PTX 6.0, sm_70): a module's floor.
    feature(".relaxed", "relaxed accesses", (6, 0), 70),
    feature(".acquire", "acquire accesses", (6, 0), 70),
    feature(".release", "release accesses", (6, 0), 70),
    feature("fence.sc", "fence.sc", (6, 0), 70),
    feature("fence.acq_rel", "fence.acq_rel", (6, 0), 70),
    feature(
        "match.any",
        "match.any.sync (the harness's warp matching)",
        (6, 0),
        70,
    ),
    feature("bar.warp.sync", "bar.warp.sync", (6, 0), 70),
    feature("activemask", "activemask", (6, 2), 70),
    // The proxies of PTX 7.5.
    feature("fence.proxy.alias", "fence.proxy.alias", (7, 5), 70),
    // Clusters: Hopper.
    feature(
        ".shared::cluster",
        "distributed shared memory (.shared::cluster)",
        (7, 8),
        90,
    ),
    feature("mapa", "mapa (distributed shared memory)", (7, 8), 90),
    feature(
        "barrier.cluster.arrive.release",
        "barrier.cluster.arrive.release",
        (8, 0),
        90,
    ),
    feature(
        "barrier.cluster.wait.acquire",
        "barrier.cluster.wait.acquire",
        (8, 0),
        90,
    ),
    feature("barrier.cluster", "barrier.cluster", (7, 8), 90),
    feature(
        "griddepcontrol",
        "dependent launches (griddepcontrol)",
        (7, 8),
        90,
    ),
    feature("%cluster_ctarank", "%cluster_ctarank", (7, 8), 90),
    feature("%clusterid", "%clusterid", (7, 8), 90),
    feature(
        ".reqnctapercluster",
        "clusters (.reqnctapercluster)",
        (7, 8),
        90,
    ),
    // The async proxy (PTX 8.0, sm_90): bulk copies, their groups and
    // mbarrier completion, mbarriers with memory-model qualifiers, the
    // async proxy fences. Read off ptxas 12.4's and 13.0's messages on
    // modules one version or target below each row.
    // The one-way proxy fences are PTX 8.6 (ptxas 12.4 reads 8.4).
    feature(
        "fence.proxy.async::generic",
        "one-way proxy fences (fence.proxy.async::generic)",
        (8, 6),
        90,
    ),
    feature(
        "fence.proxy.async",
        "fence.proxy.async (the async proxy)",
        (8, 0),
        90,
    ),
    feature(
        "cp.async.bulk",
        "cp.async.bulk (bulk copies of the async proxy)",
        (8, 0),
        90,
    ),
    feature("fence.mbarrier_init", "fence.mbarrier_init", (8, 0), 90),
    // `.relaxed` on mbarriers is PTX 8.6 (ptxas 12.4 reads 8.4: "Modifier
    // '.relaxed' on 'mbarrier.arrive' requires PTX ISA .version 8.6").
    feature(
        "mbarrier.arrive.relaxed",
        "mbarrier.arrive.relaxed",
        (8, 6),
        90,
    ),
    feature(
        "mbarrier.arrive.expect_tx.relaxed",
        "mbarrier.arrive.expect_tx.relaxed",
        (8, 6),
        90,
    ),
    feature(
        "mbarrier.try_wait.parity.relaxed",
        "mbarrier.try_wait.relaxed",
        (8, 6),
        90,
    ),
    feature(
        "mbarrier.try_wait.relaxed",
        "mbarrier.try_wait.relaxed",
        (8, 6),
        90,
    ),
    feature(
        "mbarrier.arrive.expect_tx",
        "mbarrier.arrive.expect_tx",
        (8, 0),
        90,
    ),
    feature(
        "mbarrier.arrive.release",
        "mbarrier.arrive.release",
        (8, 0),
        80,
    ),
    feature(
        "mbarrier.try_wait.parity.acquire",
        "mbarrier.try_wait.acquire",
        (8, 0),
        90,
    ),
    feature(
        "mbarrier.try_wait.acquire",
        "mbarrier.try_wait.acquire",
        (8, 0),
        90,
    ),
    feature("mbarrier.try_wait", "mbarrier.try_wait", (7, 8), 90),
    feature(
        "mbarrier.test_wait.parity.acquire",
        "mbarrier.test_wait.acquire",
        (8, 0),
        90,
    ),
    feature("mbarrier.test_wait", "mbarrier.test_wait", (7, 0), 80),
    feature("mbarrier.init", "mbarrier.init", (7, 0), 80),
    feature(".shared::cta", ".shared::cta", (7, 8), 70),
    // After the instructions above, which name what needs it better.
    feature(".cluster", ".cluster scope", (7, 8), 90),
    // The one-sided fences of PTX 8.6. Toolchains disagree on the target:
    // ptxas 12.9 and the 580 driver's JIT compile them for sm_70 and sm_80
    // (at any `.version`), ptxas 13.5 refuses them below sm_90 ("Modifier
    // '.acquire' on 'fence' requires .target sm_90 or higher"). A module
    // must build under every toolchain, so the strictest one sets the row.
    feature("fence.acquire", "fence.acquire", (8, 6), 90),
    feature("fence.release", "fence.release", (8, 6), 90),
];

/// What a module needs: the lowest PTX ISA and target that have every
/// instruction of it, each with the instruction that sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// The lowest PTX ISA version with every instruction.
    pub isa: PtxIsa,
    /// The instruction that needs [`Needs::isa`] (`None` at the floor).
    pub isa_for: Option<&'static str>,
    /// The lowest target with every instruction.
    pub sm: SmArch,
    /// The instruction that needs [`Needs::sm`] (`None` at the floor).
    pub sm_for: Option<&'static str>,
}

/// Why a module cannot run on a target, or under a toolchain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unfit {
    /// The target lacks an instruction.
    #[error("{what} needs {needs} and the module targets {target}")]
    Target {
        /// The instruction.
        what: String,
        /// The target it needs.
        needs: SmArch,
        /// The target asked for.
        target: SmArch,
    },
    /// The toolchain reads a lower PTX ISA than the module needs.
    #[error("{what} needs PTX {needs} and {toolchain} {reads}")]
    Isa {
        /// The instruction (or the target) that sets the version.
        what: String,
        /// The version the module needs.
        needs: PtxIsa,
        /// The toolchain and its verb (`the driver JIT-compiles`, `ptxas
        /// 12.4 reads`).
        toolchain: String,
        /// The highest version it reads.
        reads: PtxIsa,
    },
}

/// The floor: what the harness needs on every test (the memory model's
/// qualifiers and warp matching, PTX 6.0 on sm_70).
const FLOOR: (PtxIsa, SmArch) = (PtxIsa::new(6, 0), SmArch(70));

impl Needs {
    /// Reads the needs off a module's text (its instructions, special
    /// registers and directives; comments and the header are skipped).
    pub fn of(module: &str) -> Needs {
        let mut needs = Needs {
            isa: FLOOR.0,
            isa_for: None,
            sm: FLOOR.1,
            sm_for: None,
        };
        for line in module.lines() {
            let code = line.split("//").next().unwrap_or("").trim();
            if code.is_empty() || code.starts_with(".version") || code.starts_with(".target") {
                continue;
            }
            for f in FEATURES.iter().filter(|f| mentions(code, f.text)) {
                if f.isa > needs.isa {
                    (needs.isa, needs.isa_for) = (f.isa, Some(f.what));
                }
                if f.sm > needs.sm {
                    (needs.sm, needs.sm_for) = (f.sm, Some(f.what));
                }
            }
        }
        needs
    }

    /// The `.version` of the module on `target`: the higher of what its
    /// instructions need and what introduced the target.
    pub fn version_on(&self, target: SmArch) -> PtxIsa {
        self.isa.max(target.min_isa())
    }

    /// Whether the module runs on `target` under a toolchain that reads
    /// PTX up to `reads` (`toolchain` names it in the message: `the
    /// driver JIT-compiles`, `ptxas 12.4 reads`).
    pub fn fit(&self, target: SmArch, toolchain: &str, reads: PtxIsa) -> Result<PtxIsa, Unfit> {
        self.exists_on(target)?;
        let version = self.version_on(target);
        if version > reads {
            let what = match (self.isa == version, self.isa_for) {
                (true, Some(what)) => what.to_string(),
                _ => format!(".target {target}"),
            };
            return Err(Unfit::Isa {
                what,
                needs: version,
                toolchain: toolchain.to_string(),
                reads,
            });
        }
        Ok(version)
    }

    /// [`Unfit::Target`] when `target` lacks an instruction of the module.
    fn exists_on(&self, target: SmArch) -> Result<(), Unfit> {
        if self.sm > target {
            return Err(Unfit::Target {
                what: self.sm_for.unwrap_or("the harness").to_string(),
                needs: self.sm,
                target,
            });
        }
        Ok(())
    }

    /// [`retarget`] for the module these needs were read off, without
    /// reading them again (a caller that checked [`Needs::fit`] has them).
    pub fn retarget(&self, module: &str, target: SmArch) -> Result<String, Unfit> {
        self.exists_on(target)?;
        let version = self.version_on(target);
        Ok(module
            .lines()
            .map(|l| match l.trim_start() {
                t if t.starts_with(".version") => format!(".version {version}"),
                t if t.starts_with(".target") => format!(".target {target}"),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n")
            + if module.ends_with('\n') { "\n" } else { "" })
    }
}

/// Whether `code` (one line, no comment) has `text` as an opcode prefix,
/// a qualifier, a register or a directive: an opcode must start a token,
/// and every match must end where a name does.
fn mentions(code: &str, text: &str) -> bool {
    let mut from = 0;
    while let Some(at) = code[from..].find(text) {
        let start = from + at;
        let end = start + text.len();
        let before = code[..start].chars().next_back();
        let after = code[end..].chars().next();
        let starts = text.starts_with('.')
            || before.is_none_or(|c| !(c.is_alphanumeric() || "_.%$".contains(c)));
        let ends = after.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        if starts && ends {
            return true;
        }
        from = end;
    }
    false
}

/// The header [`generate`](crate::generate) writes: the lowest version and
/// target the module's body needs.
pub fn header(needs: &Needs) -> String {
    format!(
        ".version {}\n.target {}\n.address_size 64\n",
        needs.version_on(needs.sm),
        needs.sm
    )
}

/// `module` with its `.version` and `.target` lines set for `target`;
/// [`Unfit::Target`] when an instruction of it does not exist there. The
/// rest of the text is unchanged.
pub fn retarget(module: &str, target: SmArch) -> Result<String, Unfit> {
    Needs::of(module).retarget(module, target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_found_as_tokens_not_inside_other_words() {
        assert!(mentions("fence.acquire.gpu;", "fence.acquire"));
        assert!(!mentions("fence.acq_rel.gpu;", "fence.acquire"));
        assert!(mentions(
            "ld.relaxed.cluster.global.u32 %r1, [%rd1];",
            ".cluster"
        ));
        assert!(!mentions(
            "ld.shared::cluster.cg.u32 %r1, [%r2];",
            ".cluster"
        ));
        assert!(mentions(
            "ld.shared::cluster.cg.u32 %r1, [%r2];",
            ".shared::cluster"
        ));
        assert!(mentions("mapa.shared::cluster.u32 %r1, %r2, %r3;", "mapa"));
        assert!(!mentions("mov.u32 %mapa1, 0;", "mapa"));
        assert!(mentions(
            "mov.u32 %r1, %cluster_ctarank;",
            "%cluster_ctarank"
        ));
        assert!(mentions(".reqnctapercluster 2, 1, 1", ".reqnctapercluster"));
        assert!(mentions(
            "barrier.cluster.arrive.release;",
            "barrier.cluster"
        ));
        assert!(!mentions("bar.sync 0;", "barrier.cluster"));
    }

    #[test]
    fn the_needs_name_the_instruction_that_sets_them() {
        let n = Needs::of("fence.sc.gpu;\nfence.release.gpu;\n");
        assert_eq!(
            (n.isa, n.isa_for),
            (PtxIsa::new(8, 6), Some("fence.release"))
        );
        assert_eq!((n.sm, n.sm_for), (SmArch(90), Some("fence.release")));
        let a = Needs::of("fence.acquire.gpu;\n");
        assert_eq!((a.isa, a.sm), (PtxIsa::new(8, 6), SmArch(90)));
        assert_eq!(
            retarget("fence.acquire.gpu;\n", SmArch(80))
                .unwrap_err()
                .to_string(),
            "fence.acquire needs sm_90 and the module targets sm_80"
        );
        let c = Needs::of("barrier.cluster.arrive;\n");
        assert_eq!((c.isa, c.sm), (PtxIsa::new(7, 8), SmArch(90)));
        assert_eq!(c.sm_for, Some("barrier.cluster"));
        let r = Needs::of("barrier.cluster.arrive.release;\n");
        assert_eq!(r.isa_for, Some("barrier.cluster.arrive.release"));
        assert_eq!(r.isa, PtxIsa::new(8, 0));
        let e = c.fit(SmArch(80), "the driver JIT-compiles", PtxIsa::new(9, 0));
        assert_eq!(
            e.unwrap_err().to_string(),
            "barrier.cluster needs sm_90 and the module targets sm_80"
        );
        let e = n.fit(SmArch(90), "the driver JIT-compiles", PtxIsa::new(8, 4));
        assert_eq!(
            e.unwrap_err().to_string(),
            "fence.release needs PTX 8.6 and the driver JIT-compiles 8.4"
        );
        // A target newer than the driver's ISA: the target is the reason.
        let plain = Needs::of("fence.sc.gpu;\n");
        let e = plain.fit(SmArch(100), "the driver JIT-compiles", PtxIsa::new(8, 4));
        assert_eq!(
            e.unwrap_err().to_string(),
            ".target sm_100 needs PTX 8.6 and the driver JIT-compiles 8.4"
        );
        assert_eq!(
            plain.fit(SmArch(86), "x", PtxIsa::new(8, 0)),
            Ok(PtxIsa::new(7, 1))
        );
    }

    #[test]
    fn retargeting_rewrites_the_header_alone() {
        let m = ".version 6.0\n.target sm_70\n.address_size 64\n// .target sm_70 in a comment\nfence.sc.gpu;\n";
        let r = retarget(m, SmArch(90)).unwrap();
        assert_eq!(r, ".version 7.8\n.target sm_90\n.address_size 64\n// .target sm_70 in a comment\nfence.sc.gpu;\n");
        assert!(retarget("barrier.cluster.wait;\n", SmArch(86)).is_err());
    }

    #[test]
    fn versions_of_releases_and_names_of_arches_read_back() {
        assert_eq!(PtxIsa::of_cuda(12000), PtxIsa::new(8, 0));
        assert_eq!(PtxIsa::of_cuda(12020), PtxIsa::new(8, 2));
        assert_eq!(PtxIsa::of_cuda(12060), PtxIsa::new(8, 5));
        assert_eq!(PtxIsa::of_cuda(12070), PtxIsa::new(8, 6));
        assert_eq!(PtxIsa::of_cuda(13000), PtxIsa::new(9, 0));
        assert_eq!(PtxIsa::of_cuda(14020), PtxIsa::new(9, 0));
        assert_eq!(PtxIsa::parse("8.6"), Some(PtxIsa::new(8, 6)));
        assert_eq!(PtxIsa::parse("8"), None);
        for (a, _) in ARCHES {
            assert_eq!(SmArch::parse(&a.to_string()), Some(a));
        }
        assert_eq!(SmArch::parse("8.6"), Some(SmArch(86)));
        assert_eq!(SmArch::parse("compute_75"), Some(SmArch(75)));
        assert_eq!(SmArch::parse("sm_61"), None);
        assert_eq!(SmArch::parse("sm_9x"), None);
        assert_eq!(SmArch::of_capability(9, 0), SmArch(90));
        assert_eq!(SmArch(75).min_isa(), PtxIsa::new(6, 3));
    }
}
