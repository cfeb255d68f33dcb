//! The toolchains a run can compile a module with, by name: the driver's
//! JIT (`jit`), and the ptxas releases installed in the toolchain folder
//! (`ptxas-12.4.131`, or a prefix of the release, `ptxas-12.4`, `12`).
//!
//! Names, not paths, because what the hardware shows depends on the
//! compiler (on Hopper only CUDA 12's ptxas makes `fence.acq_rel.cta` the
//! bare `MEMBAR.ALL.CTA` that lets other CTAs see the reordering), so a
//! tuning entry records which compiler its configuration needs, and a
//! name means the same compiler on every machine where it is installed
//! (`scripts/install-toolchain.sh VERSION`, from PyPI's wheels: no CUDA
//! toolkit needed). A path still names a ptxas anywhere.
//!
//! ```
//! use litmus_toolchain::installed::Spec;
//! assert_eq!(Spec::parse("jit").unwrap(), Spec::Jit);
//! assert_eq!(Spec::parse("ptxas-12.4").unwrap(), Spec::Release("12.4".into()));
//! assert_eq!(Spec::parse("12.4.131").unwrap(), Spec::Release("12.4.131".into()));
//! assert!(Spec::parse("ptxas-twelve").is_err());
//! ```

use std::path::{Path, PathBuf};

use crate::error::ToolError;
use crate::ptxas::Ptxas;

/// The variable naming a run's toolchain.
pub const TOOLCHAIN_ENV: &str = "LITMUS_TOOLCHAIN";

/// The variable naming the toolchain folder.
pub const TOOLCHAINS_ENV: &str = "LITMUS_TOOLCHAINS";

/// The releases the project's figures were measured with, offered when a
/// name gives only part of a release (`ptxas-12`, the default portfolio's):
/// ptxas 12.4.131 is the CUDA 12 compiler of `docs/tuning-and-campaigns.md`'s
/// "Defaults chosen for breadth".
const MEASURED: &[&str] = &["12.4.131"];

/// How a toolchain is named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    /// The driver's JIT.
    Jit,
    /// An installed ptxas whose release starts with these numbers
    /// (`12.4` matches `12.4.131`; the newest match wins).
    Release(String),
    /// A ptxas at a path.
    Path(PathBuf),
}

impl Spec {
    /// Reads `jit`, `ptxas-X[.Y[.Z]]`, `X[.Y[.Z]]`, or a path (anything
    /// with a `/`, or a file that exists).
    pub fn parse(text: &str) -> Result<Spec, ToolError> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("jit") {
            return Ok(Spec::Jit);
        }
        if text.contains('/') || text.contains(std::path::MAIN_SEPARATOR) {
            return Ok(Spec::Path(PathBuf::from(text)));
        }
        let release = text.strip_prefix("ptxas-").unwrap_or(text);
        let numbers: Vec<&str> = release.split('.').collect();
        let well_formed = !release.is_empty()
            && numbers.len() <= 3
            && numbers
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) && n.len() <= 6);
        if well_formed {
            return Ok(Spec::Release(release.to_string()));
        }
        if Path::new(text).is_file() {
            return Ok(Spec::Path(PathBuf::from(text)));
        }
        Err(ToolError::Env {
            var: TOOLCHAIN_ENV,
            value: text.to_string(),
            why: "not a toolchain: give `jit`, an installed release (`ptxas-12.4.131`, `ptxas-12.4`) or a ptxas's path".into(),
        })
    }
}

/// The toolchain folder: `LITMUS_TOOLCHAINS`, else
/// `$XDG_CACHE_HOME/gpu-litmus/toolchains`, else
/// `~/.cache/gpu-litmus/toolchains` (`%LOCALAPPDATA%` on Windows); `None`
/// when none of those variables is set.
pub fn folder(var: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    if let Some(dir) = set(TOOLCHAINS_ENV) {
        return Some(PathBuf::from(dir));
    }
    let cache = set("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|h| Path::new(&h).join(".cache")))
        .or_else(|| set("LOCALAPPDATA").map(PathBuf::from))?;
    Some(cache.join("gpu-litmus").join("toolchains"))
}

/// One installed ptxas: its folder's release and the tool.
#[derive(Debug)]
pub struct Installed {
    /// `ptxas-12.4.131`.
    pub name: String,
    /// The release numbers, for ordering.
    pub release: Vec<u32>,
    /// The tool, checked to run and to be that release.
    pub ptxas: Result<Ptxas, ToolError>,
}

/// The ptxas releases in `folder` (`ptxas-VERSION/ptxas`), oldest first;
/// each checked by running it, so that a damaged install is listed with
/// what is wrong instead of failing a run later.
pub fn list(folder: &Path) -> Vec<Installed> {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return Vec::new();
    };
    let mut out: Vec<Installed> = entries
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_str()?.to_string();
            let release = parse_release(name.strip_prefix("ptxas-")?)?;
            let tool = e.path().join("ptxas");
            let ptxas = Ptxas::at(&tool).and_then(|p| {
                let expected = name.trim_start_matches("ptxas-");
                if p.version() == expected {
                    Ok(p)
                } else {
                    Err(ToolError::WrongRelease {
                        path: tool.clone(),
                        says: p.version().to_string(),
                        expected: expected.to_string(),
                    })
                }
            });
            Some(Installed {
                name,
                release,
                ptxas,
            })
        })
        .collect();
    out.sort_by(|a, b| a.release.cmp(&b.release));
    out
}

fn parse_release(text: &str) -> Option<Vec<u32>> {
    text.split('.').map(|n| n.parse().ok()).collect()
}

/// The ptxas a spec names; `None` for the JIT. A release is the newest
/// installed one that it prefixes (by whole numbers: `12.4` is not
/// `12.40`).
pub fn resolve(spec: &Spec, folder: Option<&Path>) -> Result<Option<Ptxas>, ToolError> {
    match spec {
        Spec::Jit => Ok(None),
        Spec::Path(path) => Ptxas::at(path).map(Some),
        Spec::Release(release) => {
            let wanted = parse_release(release).unwrap_or_default();
            let not_installed = |folder: PathBuf| ToolError::NotInstalled {
                name: format!("ptxas-{release}"),
                folder,
                install: match wanted.len() {
                    3 => release.clone(),
                    _ => MEASURED
                        .iter()
                        .find(|m| parse_release(m).is_some_and(|m| m.starts_with(&wanted)))
                        .map_or_else(|| format!("{release}.X"), |m| m.to_string()),
                },
            };
            let Some(folder) = folder else {
                return Err(not_installed(PathBuf::from(format!(
                    "the toolchain folder (set {TOOLCHAINS_ENV} or HOME)"
                ))));
            };
            let best = list(folder)
                .into_iter()
                .rev()
                .find(|i| i.release.starts_with(&wanted));
            match best {
                Some(Installed { ptxas: Ok(p), .. }) => Ok(Some(p)),
                Some(Installed {
                    ptxas: Err(why),
                    name,
                    ..
                }) => Err(ToolError::NotTool {
                    path: folder.join(name).join("ptxas"),
                    tool: "ptxas",
                    why: why.to_string(),
                }),
                None => Err(not_installed(folder.to_path_buf())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_as_releases_paths_or_the_jit() {
        assert_eq!(Spec::parse(" JIT ").unwrap(), Spec::Jit);
        assert_eq!(Spec::parse("ptxas-12").unwrap(), Spec::Release("12".into()));
        assert_eq!(
            Spec::parse("/opt/cuda/bin/ptxas").unwrap(),
            Spec::Path("/opt/cuda/bin/ptxas".into())
        );
        for bad in ["ptxas-", "ptxas-12..4", "12.4.1.7", "ptxas-x", ""] {
            let e = Spec::parse(bad).unwrap_err().to_string();
            assert!(e.contains("not a toolchain"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_folder_follows_its_variable_then_the_cache() {
        let vars = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            folder(vars(&[(TOOLCHAINS_ENV, "/t"), ("HOME", "/h")])),
            Some(PathBuf::from("/t"))
        );
        assert_eq!(
            folder(vars(&[("XDG_CACHE_HOME", "/c"), ("HOME", "/h")])),
            Some(PathBuf::from("/c/gpu-litmus/toolchains"))
        );
        assert_eq!(
            folder(vars(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.cache/gpu-litmus/toolchains"))
        );
        assert_eq!(folder(vars(&[])), None);
    }

    #[test]
    fn a_release_not_installed_says_how_to_install_it() {
        let dir = std::env::temp_dir().join(format!("litmus-tc-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("ptxas-12.4.131")).unwrap();
        // A folder whose ptxas is missing is listed with why, and a
        // release it would match is refused naming the file.
        let listed = list(&dir);
        assert_eq!(listed.len(), 1);
        assert!(listed[0].ptxas.is_err());
        let e = resolve(&Spec::Release("12.4".into()), Some(&dir)).unwrap_err();
        assert!(
            e.to_string().contains("ptxas-12.4.131/ptxas: not ptxas"),
            "{e}"
        );
        let e = resolve(&Spec::Release("12.8.93".into()), Some(&dir)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "toolchain ptxas-12.8.93 is not installed in {}; install it with `bash scripts/install-toolchain.sh 12.8.93` (or name a ptxas by path)",
                dir.display()
            )
        );
        // A part of a release offers the one the figures were measured with,
        // else says where the rest goes.
        let e = resolve(&Spec::Release("12".into()), Some(&dir.join("none"))).unwrap_err();
        assert!(
            e.to_string().contains("install-toolchain.sh 12.4.131`"),
            "{e}"
        );
        let e = resolve(&Spec::Release("13.1".into()), Some(&dir.join("none"))).unwrap_err();
        assert!(
            e.to_string().contains("install-toolchain.sh 13.1.X`"),
            "{e}"
        );
        assert!(resolve(&Spec::Jit, None).unwrap().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
