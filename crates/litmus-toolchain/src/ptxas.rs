//! ptxas, the offline PTX assembler: the same compiler (of some release)
//! as the driver's JIT, run where there is no GPU.

use std::path::Path;
use std::process::Command;

use litmus_ptx::isa::{PtxIsa, SmArch};

use crate::error::ToolError;
use crate::tool::{self, TempFile, Tool};

/// What `ptxas --version` says first.
const BANNER: &str = "Ptx optimizing assembler";

/// A ptxas executable, checked to be one, with its release.
///
/// ```no_run
/// use litmus_ptx::isa::SmArch;
/// use litmus_toolchain::Ptxas;
/// let ptxas = Ptxas::find(None)?; // LITMUS_PTXAS, else PATH
/// println!("{} reads PTX up to {}", ptxas.name(), ptxas.max_isa());
/// let module = ".version 7.0\n.target sm_80\n.address_size 64\n.entry k() { ret; }\n";
/// let cubin = ptxas.compile(module, SmArch::new(80), false)?;
/// assert!(!cubin.is_empty());
/// # Ok::<(), litmus_toolchain::ToolError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ptxas(Tool);

impl Ptxas {
    /// The ptxas at `path`, refused (with the path) when it does not
    /// exist, is not executable, or its `--version` is not ptxas's.
    pub fn at(path: impl AsRef<Path>) -> Result<Ptxas, ToolError> {
        tool::check(path.as_ref(), "ptxas", BANNER).map(Ptxas)
    }

    /// `explicit` if given, else the variable `LITMUS_PTXAS`, else `ptxas`
    /// on `PATH`.
    pub fn find(explicit: Option<&Path>) -> Result<Ptxas, ToolError> {
        tool::find(explicit, "LITMUS_PTXAS", "ptxas", BANNER).map(Ptxas)
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.0.path
    }

    /// Its full version (`12.4.131`).
    pub fn version(&self) -> &str {
        &self.0.version
    }

    /// `ptxas 12.4.131`: how messages and cache keys name it.
    pub fn name(&self) -> String {
        format!("ptxas {}", self.0.version)
    }

    /// The highest PTX ISA it reads: its release's (12.4 reads 8.4).
    pub fn max_isa(&self) -> PtxIsa {
        let (major, minor) = self.0.release;
        PtxIsa::of_cuda(major * 1000 + minor * 10)
    }

    /// Compiles `ptx` for `arch` (with `-lineinfo` when asked, for
    /// [`crate::sass`]) and returns the image (a cubin).
    pub fn compile(&self, ptx: &str, arch: SmArch, lineinfo: bool) -> Result<Vec<u8>, ToolError> {
        let input = TempFile::new("ptx");
        let output = TempFile::new("cubin");
        std::fs::write(&input.0, ptx).map_err(|source| ToolError::Io {
            what: format!("writing {}", input.0.display()),
            source,
        })?;
        let mut cmd = Command::new(&self.0.path);
        cmd.arg(format!("-arch={arch}"));
        if lineinfo {
            cmd.arg("-lineinfo");
        }
        cmd.arg("-o").arg(&output.0).arg(&input.0);
        let out = tool::run(&mut cmd, &self.0.path)?;
        let failed = |log: String| ToolError::Ptxas {
            ptxas: self.name(),
            arch,
            log,
        };
        if !out.status.success() {
            let log = String::from_utf8_lossy(&out.stderr).trim().to_string();
            let log = if log.is_empty() {
                format!("exited with {} and no message", out.status)
            } else {
                log
            };
            return Err(failed(log));
        }
        match std::fs::read(&output.0) {
            Ok(image) if !image.is_empty() => Ok(image),
            Ok(_) => Err(failed("wrote an empty image".into())),
            Err(e) => Err(failed(format!("wrote no image: {e}"))),
        }
    }
}
