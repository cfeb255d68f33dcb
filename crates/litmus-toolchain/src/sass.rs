//! nvdisasm's listing (`nvdisasm -g -c`) read back: per kernel, each SASS
//! instruction with its address and the PTX line it came from.

/// One SASS instruction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SassInstr {
    /// Its offset in the kernel's code.
    pub addr: u32,
    /// The PTX line it came from (the `.loc` nvdisasm printed last), if
    /// any came before it.
    pub line: Option<u32>,
    /// The instruction as nvdisasm writes it, without the `;`
    /// (`@!P0 BRA 0x1a10`, `LDG.E.STRONG.GPU R11, [R10.64]`).
    pub text: String,
}

/// SASS opcodes that touch memory, order it, or wait at a barrier: what a
/// PTX access, fence or barrier must become at least one of.
const MEMORY_OPCODES: &[&str] = &[
    "LD",
    "LDG",
    "LDS",
    "LDL",
    "LDSM",
    "ST",
    "STG",
    "STS",
    "STL",
    "ATOM",
    "ATOMG",
    "ATOMS",
    "RED",
    "REDG",
    "MEMBAR",
    "FENCE",
    "ERRBAR",
    "CCTL",
    "CCTLL",
    "BAR",
    "WARPSYNC",
    "TEX",
    "TLD",
    "TLDS",
    "TLD4",
    "TXQ",
    "SULD",
    "SUST",
    "SUATOM",
    "SURED",
    "UCGABAR_ARV",
    "UCGABAR_WAIT",
    // The async proxy on sm_90: mbarrier arrives and waits (`SYNCS`), bulk
    // copies (`UBLKCP.S.G`, `UBLKCP.G.S`), a bulk group's commit
    // (`UTMACMDFLUSH`) and its wait on the copies' scoreboard (`DEPBAR`).
    "SYNCS",
    "UBLKCP",
    "UTMACMDFLUSH",
    "DEPBAR",
];

impl SassInstr {
    /// The guard, if the instruction has one (`@!P0`).
    pub fn guard(&self) -> Option<&str> {
        self.text
            .split_whitespace()
            .next()
            .filter(|t| t.starts_with('@'))
    }

    /// The opcode with its modifiers (`LDG.E.STRONG.GPU`).
    pub fn opcode(&self) -> &str {
        let mut words = self.text.split_whitespace();
        let first = words.next().unwrap_or("");
        if first.starts_with('@') {
            words.next().unwrap_or("")
        } else {
            first
        }
    }

    /// The opcode without modifiers (`LDG`).
    pub fn base(&self) -> &str {
        self.opcode().split('.').next().unwrap_or("")
    }

    /// Whether it touches memory, orders it or waits at a barrier.
    pub fn is_memory(&self) -> bool {
        MEMORY_OPCODES.contains(&self.base())
    }

    /// Whether it is a branch taken only under a predicate: `@P0 BRA`, or
    /// `BRA P1, target` (a branch with a predicate operand).
    pub fn is_conditional_branch(&self) -> bool {
        let branch = matches!(self.base(), "BRA" | "BRX" | "JMP" | "JMX");
        let guarded = self.guard().is_some_and(|g| g != "@PT");
        let operand = self
            .text
            .split_once(self.opcode())
            .map(|(_, rest)| rest.trim_start())
            .is_some_and(|rest| rest.starts_with('P') || rest.starts_with("!P"));
        branch && (guarded || operand)
    }
}

/// The code of one kernel (or of the functions in its section).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SassKernel {
    /// Its name (`litmus_test`).
    pub name: String,
    /// Its instructions, in address order.
    pub instrs: Vec<SassInstr>,
}

/// A whole listing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sass {
    /// The kernels, in the listing's order.
    pub kernels: Vec<SassKernel>,
}

impl Sass {
    /// Reads `nvdisasm -g -c`'s output. Lines it does not know are
    /// skipped: the listing is a report, not a format with a grammar.
    ///
    /// ```
    /// use litmus_toolchain::sass::Sass;
    /// let text = "\t.section\t.text.k,\"ax\",@progbits\nk:\n\t//## File \"litmus.ptx\", line 12\n        /*0010*/                   LDG.E.STRONG.GPU R11, [R10.64] ;\n";
    /// let sass = Sass::parse(text);
    /// let k = sass.kernel("k").unwrap();
    /// assert_eq!((k.instrs[0].addr, k.instrs[0].line), (0x10, Some(12)));
    /// assert_eq!(k.instrs[0].base(), "LDG");
    /// ```
    pub fn parse(text: &str) -> Sass {
        let mut sass = Sass::default();
        let mut line = None;
        for raw in text.lines() {
            let t = raw.trim();
            if let Some(rest) = t.strip_prefix(".section") {
                if let Some(name) = rest
                    .trim()
                    .split(',')
                    .next()
                    .and_then(|s| s.strip_prefix(".text."))
                {
                    sass.kernels.push(SassKernel {
                        name: name.to_string(),
                        instrs: Vec::new(),
                    });
                    line = None;
                }
            } else if let Some(rest) = t.strip_prefix("//## File ") {
                line = loc_line(rest);
            } else if let Some((addr, text)) = instruction(t) {
                if let Some(k) = sass.kernels.last_mut() {
                    k.instrs.push(SassInstr { addr, line, text });
                }
            }
        }
        sass
    }

    /// The kernel named `name`.
    pub fn kernel(&self, name: &str) -> Option<&SassKernel> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

/// The line of `"litmus.ptx", line 324` (an `, inlined at ...` tail is
/// the call site's; the line is the instruction's own).
fn loc_line(rest: &str) -> Option<u32> {
    let after = rest.split_once(", line ")?.1;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// `/*1a10*/  LDG.E.STRONG.GPU R11, [R10.64] ;` → (0x1a10, `LDG...`); a
/// dual-issue brace (`{`, `}`) around it is dropped.
fn instruction(t: &str) -> Option<(u32, String)> {
    let t = t.trim_start_matches('{').trim_start();
    let rest = t.strip_prefix("/*")?;
    let (addr, text) = rest.split_once("*/")?;
    let addr = u32::from_str_radix(addr.trim(), 16).ok()?;
    let text = text.trim().trim_end_matches('}').trim_end();
    let text = text.strip_suffix(';').unwrap_or(text).trim_end();
    (!text.is_empty() && !text.starts_with("/*")).then(|| (addr, text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cut from `nvdisasm -g -c` of a module ptxas 12.4 compiled for sm_80.
    const LISTING: &str = r#"	.headerflags	@"EF_CUDA_TEXMODE_UNIFIED EF_CUDA_64BIT_ADDRESS EF_CUDA_SM80 EF_CUDA_VIRTUAL_SM(EF_CUDA_SM80)"
//--------------------- .text.litmus_classify     --------------------------
	.section	.text.litmus_classify,"ax",@progbits
litmus_classify:
.text.litmus_classify:
	//## File "litmus.ptx", line 405
        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;
//--------------------- .text.litmus_test         --------------------------
	.section	.text.litmus_test,"ax",@progbits
	.sectioninfo	@"SHI_REGISTERS=32"
litmus_test:
.text.litmus_test:
        /*0000*/                   MOV R1, c[0x0][0x28] ;
	//## File "litmus.ptx", line 310
        /*1930*/              @!P1 BRA `(.L_x_46) ;
	//## File "litmus.ptx", line 315
        /*1980*/                   BSSY B0, `(.L_x_46) ;
.L_x_47:
	//## File "litmus.ptx", line 317
        /*19a0*/                   LDG.E.STRONG.GPU R4, [R2.64] ;
	//## File "litmus.ptx", line 322
        /*19f0*/              @!P0 BRA P1, `(.L_x_47) ;
        /*1a00*/                   BSYNC B0 ;
.L_x_46:
	//## File "litmus.ptx", line 324, inlined at "litmus.ptx", line 2
        { /*1a10*/                   LDG.E.STRONG.GPU R11, [R10.64] ; }
        /*1a20*/                   BRA P0, `(.L_x_46) ;
"#;

    #[test]
    fn kernels_addresses_and_lines_read_back() {
        let sass = Sass::parse(LISTING);
        let names: Vec<&str> = sass.kernels.iter().map(|k| k.name.as_str()).collect();
        assert_eq!(names, ["litmus_classify", "litmus_test"]);
        let t = sass.kernel("litmus_test").unwrap();
        let got: Vec<(u32, Option<u32>, &str)> = t
            .instrs
            .iter()
            .map(|i| (i.addr, i.line, i.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (0x0, None, "MOV R1, c[0x0][0x28]"),
                (0x1930, Some(310), "@!P1 BRA `(.L_x_46)"),
                (0x1980, Some(315), "BSSY B0, `(.L_x_46)"),
                (0x19a0, Some(317), "LDG.E.STRONG.GPU R4, [R2.64]"),
                (0x19f0, Some(322), "@!P0 BRA P1, `(.L_x_47)"),
                (0x1a00, Some(322), "BSYNC B0"),
                (0x1a10, Some(324), "LDG.E.STRONG.GPU R11, [R10.64]"),
                (0x1a20, Some(324), "BRA P0, `(.L_x_46)"),
            ]
        );
        let kinds: Vec<(bool, bool)> = t
            .instrs
            .iter()
            .map(|i| (i.is_memory(), i.is_conditional_branch()))
            .collect();
        assert_eq!(
            kinds,
            [
                (false, false),
                (false, true),
                (false, false),
                (true, false),
                (false, true),
                (false, false),
                (true, false),
                (false, true),
            ]
        );
        assert_eq!(t.instrs[1].guard(), Some("@!P1"));
        assert_eq!(t.instrs[3].opcode(), "LDG.E.STRONG.GPU");
    }

    #[test]
    fn noise_is_skipped() {
        assert_eq!(instruction("/* 0x000fe40000000f00 */"), None);
        assert_eq!(instruction(".L_x_46:"), None);
        assert_eq!(instruction("/*zz*/ NOP ;"), None);
        assert_eq!(Sass::parse("/*0000*/ NOP ;\n").kernels.len(), 0);
    }
}
