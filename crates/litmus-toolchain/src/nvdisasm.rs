//! nvdisasm, the SASS disassembler: what a cubin holds, with the PTX line
//! each instruction came from.

use std::path::Path;
use std::process::Command;

use crate::error::ToolError;
use crate::tool::{self, TempFile, Tool};

/// What `nvdisasm --version` says first.
const BANNER: &str = "CUDA disassembler";

/// An nvdisasm executable, checked to be one, with its release.
///
/// ```no_run
/// use litmus_toolchain::Nvdisasm;
/// let nvdisasm = Nvdisasm::find(None)?; // LITMUS_NVDISASM, else PATH
/// let listing = nvdisasm.disassemble(&std::fs::read("k.cubin").unwrap())?;
/// # Ok::<(), litmus_toolchain::ToolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nvdisasm(Tool);

impl Nvdisasm {
    /// The nvdisasm at `path`, refused (with the path) when it does not
    /// exist, is not executable, or its `--version` is not nvdisasm's.
    pub fn at(path: impl AsRef<Path>) -> Result<Nvdisasm, ToolError> {
        tool::check(path.as_ref(), "nvdisasm", BANNER).map(Nvdisasm)
    }

    /// `explicit` if given, else the variable `LITMUS_NVDISASM`, else
    /// `nvdisasm` on `PATH`.
    pub fn find(explicit: Option<&Path>) -> Result<Nvdisasm, ToolError> {
        tool::find(explicit, "LITMUS_NVDISASM", "nvdisasm", BANNER).map(Nvdisasm)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// Its full version (`13.5.37`).
    pub fn version(&self) -> &str {
        &self.0.version
    }

    /// `nvdisasm 13.5.37`.
    pub fn name(&self) -> String {
        format!("nvdisasm {}", self.0.version)
    }

    /// The SASS of `cubin` with line information (`nvdisasm -g -c`), the
    /// text [`crate::sass::Sass::parse`] reads.
    pub fn disassemble(&self, cubin: &[u8]) -> Result<String, ToolError> {
        let input = TempFile::new("cubin");
        std::fs::write(&input.0, cubin).map_err(|source| ToolError::Io {
            what: format!("writing {}", input.0.display()),
            source,
        })?;
        let mut cmd = Command::new(&self.0.path);
        cmd.args(["-g", "-c"]).arg(&input.0);
        let out = tool::run(&mut cmd, &self.0.path)?;
        let log = String::from_utf8_lossy(&out.stderr).trim().to_string();
        if !out.status.success() {
            if let Some(arch) = refused_arch(&log) {
                return Err(ToolError::NvdisasmArch {
                    nvdisasm: self.name(),
                    arch,
                });
            }
            let log = if log.is_empty() {
                format!("exited with {} and no message", out.status)
            } else {
                log
            };
            return Err(ToolError::Nvdisasm {
                nvdisasm: self.name(),
                log,
            });
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }
}

/// The architecture in nvdisasm 13's refusal, `CUDA architecture "SM70"
/// is deprecated`, as `sm_70`.
fn refused_arch(log: &str) -> Option<String> {
    let line = log
        .lines()
        .find(|l| l.contains("CUDA architecture") && l.contains("deprecated"))?;
    let at = line.find("SM")?;
    let digits: String = line[at + 2..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then(|| format!("sm_{digits}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refused_architecture_is_named() {
        let log = "nvdisasm fatal   : CUDA architecture \"SM70\" is deprecated. Please use CUDA toolkit 13.0 or earlier";
        assert_eq!(refused_arch(log), Some("sm_70".to_string()));
        assert_eq!(refused_arch("nvdisasm fatal   : bad ELF"), None);
        let e = ToolError::NvdisasmArch {
            nvdisasm: "nvdisasm 13.5.37".into(),
            arch: "sm_70".into(),
        };
        assert_eq!(
            e.to_string(),
            "nvdisasm 13.5.37 cannot read sm_70 images; CUDA 12's nvdisasm can"
        );
    }
}
