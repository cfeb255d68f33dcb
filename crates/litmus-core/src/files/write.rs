//! Writing a file so that a kill leaves the old file or the new one,
//! whole, and never writes through a link to whatever it points at.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A fresh temporary name beside `path`, in the same folder (so that a
/// rename onto `path` is atomic), hidden and with an extension no reader
/// of the workspace takes (`.tmp`), so that a killed writer's leftover is
/// never read as a test or as evidence.
pub fn temporary_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map_or_else(|| "out".into(), |n| n.to_string_lossy().into_owned());
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    path.with_file_name(format!(".{name}.{}-{n}.tmp", std::process::id()))
}

/// Writes `contents` to `path` through a temporary file in the same folder,
/// flushed to disk, then renamed onto `path`: a kill at any moment leaves
/// `path` as it was or whole, and a link at `path` is replaced, not
/// followed to truncate its target.
///
/// ```
/// let path = std::env::temp_dir().join(format!("atomic-doc-{}.txt", std::process::id()));
/// litmus_core::files::write_atomic(&path, b"whole\n").unwrap();
/// assert_eq!(std::fs::read(&path).unwrap(), b"whole\n");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let tmp = temporary_beside(path);
    let written = (|| {
        // create_new: never opens an existing file, nor follows a link.
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}
