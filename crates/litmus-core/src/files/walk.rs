//! One walker for folders of tests and of evidence.
//!
//! Folders come from other machines, shards and pull requests: a link may
//! loop (`ln -s . a`), lead out of the folder (to `/`, to another
//! repository's evidence) or to a device (`/dev/zero`), and a FIFO blocks
//! whoever opens it. The walk follows a link only while it stays inside
//! the folder, visits each folder once, keeps regular files only, and
//! says in one line what it refused and why.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};

/// A path the walk (or a read) refused: one line each, naming it.
#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    /// The path could not be read.
    #[error("{}: cannot read: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A symbolic link whose target lies outside the folder walked.
    #[error("{}: a symbolic link out of {}; refused", path.display(), root.display())]
    Outside {
        /// The link.
        path: PathBuf,
        /// The folder walked.
        root: PathBuf,
    },
    /// A folder reached a second time: a symbolic link loop.
    #[error("{}: a symbolic link loop (a folder reached twice); refused", path.display())]
    Loop {
        /// The link.
        path: PathBuf,
    },
    /// A FIFO, a device or a socket where a file was expected.
    #[error("{}: not a regular file (a FIFO, a device or a socket); refused", path.display())]
    NotRegular {
        /// The path.
        path: PathBuf,
    },
    /// A file larger than the reader takes.
    #[error("{}: {size} bytes, more than the {max} this reader takes; refused", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The bound.
        max: u64,
    },
}

/// What a walk found: the files, sorted, each once, and what it refused.
#[derive(Debug, Default)]
pub struct Walk {
    /// Regular files with the extension asked for (or the path itself, when
    /// it was a regular file), sorted, each once even when links lead to it
    /// twice.
    pub files: Vec<PathBuf>,
    /// Paths refused, in the order met.
    pub refused: Vec<WalkError>,
}

/// Every regular file ending in `.ext` under `root` (at any depth), or
/// `root` itself when it is a regular file, whatever its name.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("walk-doc-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("sub")).unwrap();
/// std::fs::write(dir.join("sub/a.litmus"), "").unwrap();
/// # #[cfg(unix)]
/// std::os::unix::fs::symlink(".", dir.join("sub/loop")).unwrap();
/// let found = litmus_core::files::walk(&dir, "litmus");
/// assert_eq!(found.files, [dir.join("sub/a.litmus")]);
/// # #[cfg(unix)]
/// assert_eq!(found.refused.len(), 1, "the loop, once");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn walk(root: &Path, ext: &str) -> Walk {
    walk_matching(root, |path| path.extension().is_some_and(|e| e == ext))
}

/// Every regular file under `root` (at any depth) whose path `wanted`
/// takes, or `root` itself when it is a regular file: [`walk`] for a
/// reader whose files go by more than one extension (evidence is `.jsonl`
/// or `.jsonl.gz`). Links, loops and what is not a file are refused as
/// [`walk`] refuses them.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("walk-matching-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir).unwrap();
/// for name in ["a.jsonl", "b.jsonl.gz", "c.gz"] {
///     std::fs::write(dir.join(name), "").unwrap();
/// }
/// let found = litmus_core::files::walk_matching(&dir, |p| {
///     let name = p.to_string_lossy();
///     name.ends_with(".jsonl") || name.ends_with(".jsonl.gz")
/// });
/// assert_eq!(found.files, [dir.join("a.jsonl"), dir.join("b.jsonl.gz")]);
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn walk_matching(root: &Path, wanted: impl Fn(&Path) -> bool) -> Walk {
    let mut found = Walk::default();
    let io = |source| WalkError::Io {
        path: root.to_path_buf(),
        source,
    };
    let meta = match std::fs::metadata(root) {
        Ok(m) => m,
        Err(e) => {
            found.refused.push(io(e));
            return found;
        }
    };
    if meta.is_file() {
        found.files.push(root.to_path_buf());
        return found;
    }
    if !meta.is_dir() {
        found.refused.push(WalkError::NotRegular {
            path: root.to_path_buf(),
        });
        return found;
    }
    let canon_root = match root.canonicalize() {
        Ok(c) => c,
        Err(e) => {
            found.refused.push(io(e));
            return found;
        }
    };
    let mut visited = BTreeSet::from([canon_root.clone()]);
    let mut seen_files = BTreeSet::new();
    // An explicit stack: a folder tree deeper than a thread's stack is no
    // reason to crash.
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = match std::fs::read_dir(&dir) {
            Ok(entries) => entries,
            Err(source) => {
                found.refused.push(WalkError::Io { path: dir, source });
                continue;
            }
        };
        let mut paths: Vec<PathBuf> = Vec::new();
        for entry in entries {
            match entry {
                Ok(e) => paths.push(e.path()),
                Err(source) => found.refused.push(WalkError::Io {
                    path: dir.clone(),
                    source,
                }),
            }
        }
        paths.sort();
        let mut subdirs = Vec::new();
        for path in paths {
            let asked = wanted(&path);
            let link = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
            let canon = match path.canonicalize() {
                Ok(c) => c,
                // A dangling link names nothing to read: only one that
                // looks like what is asked for is worth a line.
                Err(source) => {
                    if asked {
                        found.refused.push(WalkError::Io { path, source });
                    }
                    continue;
                }
            };
            let meta = match std::fs::metadata(&canon) {
                Ok(m) => m,
                Err(source) => {
                    found.refused.push(WalkError::Io { path, source });
                    continue;
                }
            };
            if link && !canon.starts_with(&canon_root) && (meta.is_dir() || asked) {
                found.refused.push(WalkError::Outside {
                    path,
                    root: root.to_path_buf(),
                });
            } else if meta.is_dir() {
                if visited.insert(canon) {
                    subdirs.push(path);
                } else {
                    found.refused.push(WalkError::Loop { path });
                }
            } else if !asked {
                continue;
            } else if !meta.is_file() {
                found.refused.push(WalkError::NotRegular { path });
            } else if seen_files.insert(canon) {
                found.files.push(path);
            }
        }
        // Popped in name order.
        stack.extend(subdirs.into_iter().rev());
    }
    found.files.sort();
    found
}

/// Refuses `path` unless it is a regular file (after links): a FIFO
/// would block the reader, a device feed it without end.
pub fn regular_file(path: &Path) -> Result<(), WalkError> {
    let meta = std::fs::metadata(path).map_err(|source| WalkError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    if meta.is_file() {
        Ok(())
    } else {
        Err(WalkError::NotRegular {
            path: path.to_path_buf(),
        })
    }
}

/// The bytes of the regular file `path`, refused when it is anything else
/// or larger than `max` bytes (checked on its size and again while
/// reading, for a file that grows).
pub fn read_regular(path: &Path, max: u64) -> Result<Vec<u8>, WalkError> {
    let io = |source| WalkError::Io {
        path: path.to_path_buf(),
        source,
    };
    regular_file(path)?;
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_err(io)?.len();
    let too_large = |size| WalkError::TooLarge {
        path: path.to_path_buf(),
        size,
        max,
    };
    if size > max {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(max + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}
