//! What ptxas and nvdisasm share: finding the executable, checking that it
//! is the tool it is named for, and the temporary files they read and
//! write.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::ToolError;

/// A CUDA tool at a path, with its release.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Tool {
    pub path: PathBuf,
    /// The full version (`12.4.131`).
    pub version: String,
    /// The CUDA release (12, 4).
    pub release: (u32, u32),
}

/// Checks that `path` is an executable file whose `--version` says it is
/// `tool` (its banner holds `banner`) and reads its release.
pub(crate) fn check(path: &Path, tool: &'static str, banner: &str) -> Result<Tool, ToolError> {
    let not = |why: String| ToolError::NotTool {
        path: path.to_path_buf(),
        tool,
        why,
    };
    let meta = std::fs::metadata(path).map_err(|e| not(format!("cannot read it: {e}")))?;
    if !meta.is_file() {
        return Err(not("not a file".into()));
    }
    if !executable(&meta) {
        return Err(not("not executable".into()));
    }
    let out = Command::new(path)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| not(format!("cannot run it: {e}")))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !text.contains(banner) {
        return Err(not(format!("its --version does not say `{banner}`")));
    }
    let (version, release) = parse_release(&text).ok_or_else(|| {
        not("its --version has no `Cuda compilation tools, release X.Y, VX.Y.Z` line".into())
    })?;
    Ok(Tool {
        path: path.to_path_buf(),
        version,
        release,
    })
}

#[cfg(unix)]
fn executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn executable(_: &std::fs::Metadata) -> bool {
    true
}

/// Reads `Cuda compilation tools, release 12.4, V12.4.131` into
/// (`12.4.131`, (12, 4)).
fn parse_release(text: &str) -> Option<(String, (u32, u32))> {
    let line = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Cuda compilation tools, release "))?;
    let (release, full) = line.split_once(", V")?;
    let (major, minor) = release.trim().split_once('.')?;
    let full = full.trim();
    let parts: Vec<&str> = full.split('.').collect();
    if parts.len() < 2 || parts.iter().any(|p| p.parse::<u32>().is_err()) {
        return None;
    }
    Some((full.to_string(), (major.parse().ok()?, minor.parse().ok()?)))
}

/// The tool to use: `explicit`, else the variable `var`, else `name` on
/// `PATH`; checked with [`check`].
pub(crate) fn find(
    explicit: Option<&Path>,
    var: &'static str,
    name: &'static str,
    banner: &str,
) -> Result<Tool, ToolError> {
    if let Some(path) = explicit {
        return check(path, name, banner);
    }
    if let Some(path) = crate::process_env::lookup_os(var).filter(|v| !v.is_empty()) {
        return check(Path::new(&path), name, banner);
    }
    let on_path = crate::process_env::lookup_os("PATH")
        .map(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(name))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .find(|c| std::fs::metadata(c).is_ok_and(|m| m.is_file() && executable(&m)));
    match on_path {
        Some(path) => check(&path, name, banner),
        None => Err(ToolError::NotFound {
            tool: name,
            how: format!("none on PATH; give its path with {var}=PATH (or the command's option)"),
        }),
    }
}

/// A file under the temporary folder that no other call (of this process
/// or another) names, removed when dropped.
pub(crate) struct TempFile(pub PathBuf);

impl TempFile {
    /// A fresh name ending in `.{ext}` (the file is not created).
    pub fn new(ext: &str) -> TempFile {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        TempFile(std::env::temp_dir().join(format!(
            "gpu-litmus-{}-{n}-{nanos}.{ext}",
            std::process::id()
        )))
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `cmd`, naming `what` in the error if it cannot start.
pub(crate) fn run(cmd: &mut Command, what: &Path) -> Result<std::process::Output, ToolError> {
    cmd.stdin(Stdio::null())
        .output()
        .map_err(|source| ToolError::Io {
            what: format!("running {}", what.display()),
            source,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_read_back() {
        let banner = "ptxas: NVIDIA (R) Ptx optimizing assembler\nCopyright (c) 2005-2024 NVIDIA Corporation\nBuilt on Thu_Mar_28_02:14:54_PDT_2024\nCuda compilation tools, release 12.4, V12.4.131\nBuild cuda_12.4.r12.4/compiler.34097967_0\n";
        assert_eq!(
            parse_release(banner),
            Some(("12.4.131".to_string(), (12, 4)))
        );
        assert_eq!(parse_release("Cuda compilation tools, release 12.4"), None);
        assert_eq!(
            parse_release("Cuda compilation tools, release x.4, V12.4.1"),
            None
        );
        assert_eq!(parse_release("hello"), None);
    }

    #[test]
    fn a_missing_or_plain_file_is_refused_with_its_path() {
        let missing = Path::new("/nonexistent/ptxas");
        let e = check(missing, "ptxas", "Ptx optimizing assembler").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("/nonexistent/ptxas: not ptxas: cannot read it"),
            "{e}"
        );
        let plain = TempFile::new("txt");
        std::fs::write(&plain.0, "not a program").unwrap();
        let e = check(&plain.0, "ptxas", "Ptx optimizing assembler").unwrap_err();
        #[cfg(unix)]
        assert!(e.to_string().ends_with("not ptxas: not executable"), "{e}");
        let _ = e;
    }
}
