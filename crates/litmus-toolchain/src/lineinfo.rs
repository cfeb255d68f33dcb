//! Marks a module's lines for ptxas's line table: with `-lineinfo`, ptxas
//! records the `.loc` before each instruction, and `nvdisasm -g` prints it
//! above the SASS the instruction became.

/// The file name the line table gives the module.
pub const FILE_NAME: &str = "litmus.ptx";

/// `module` with `.file 1 "litmus.ptx"` after its header and `.loc 1 N 0`
/// before each instruction line `N` (1-based, counted in `module` as
/// given), so that the line numbers nvdisasm prints are those of the
/// module as generated and printed.
///
/// ```
/// let m = ".version 7.0\n.target sm_80\n.address_size 64\n.entry k()\n{\n\tret;\n}\n";
/// let a = litmus_toolchain::lineinfo::annotate(m);
/// assert!(a.contains(".address_size 64\n.file 1 \"litmus.ptx\"\n"));
/// assert!(a.contains(".loc 1 6 0\n\tret;\n"));
/// ```
pub fn annotate(module: &str) -> String {
    let mut out = String::with_capacity(module.len() * 3 / 2);
    // ptxas takes `.file` only after the header's three directives.
    let header_end = module
        .lines()
        .position(|l| l.trim_start().starts_with(".address_size"))
        .or_else(|| {
            module
                .lines()
                .position(|l| l.trim_start().starts_with(".target"))
        });
    if header_end.is_none() {
        out.push_str(&format!(".file 1 \"{FILE_NAME}\"\n"));
    }
    for (i, line) in module.lines().enumerate() {
        if is_instruction(line) {
            out.push_str(&format!(".loc 1 {} 0\n", i + 1));
        }
        out.push_str(line);
        out.push('\n');
        if Some(i) == header_end {
            out.push_str(&format!(".file 1 \"{FILE_NAME}\"\n"));
        }
    }
    out
}

/// Whether a line is an instruction (`\tld.global.u32 %r1, [%rd1];`,
/// `@%p1 bra $L;`), not a directive, label, comment or brace.
pub fn is_instruction(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or("").trim();
    code.ends_with(';')
        && code
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '@')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instructions_get_their_own_line_numbers() {
        let m = "// c\n.version 7.0\n.target sm_80\n.address_size 64\n\n.visible .entry k(\n\t.param .u64 p\n)\n{\n\t.reg .b32 %r<2>;\n\t// a comment;\n$L_1:\n\t@%p1 bra $L_1;\n\tld.global.u32 %r1, [%rd1];\n\tret;\n}\n";
        let a = annotate(m);
        let locs: Vec<&str> = a.lines().filter(|l| l.starts_with(".loc")).collect();
        assert_eq!(locs, [".loc 1 13 0", ".loc 1 14 0", ".loc 1 15 0"]);
        assert_eq!(a.lines().nth(4), Some(".file 1 \"litmus.ptx\""), "{a}");
        // Take the marks away and the module is as it was.
        let back: Vec<&str> = a
            .lines()
            .filter(|l| !l.starts_with(".loc") && !l.starts_with(".file"))
            .collect();
        assert_eq!(back.join("\n") + "\n", m);
    }
}
