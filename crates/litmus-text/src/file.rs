//! A `.litmus` file read whole and bounded ([`read_file`]), and a test
//! written into a folder whole or not at all ([`write_into`]).

use litmus_core::ir::Test;

use crate::{parse, print};

/// The largest `.litmus` file [`read_file`] reads: a hundred times the
/// largest test of the repository, so that no file makes a reader exhaust
/// memory.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Why a `.litmus` file gives no test; each says where, as compilers do.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file cannot be read (or is no regular file, or is over
    /// [`MAX_FILE_BYTES`]).
    #[error(transparent)]
    File(#[from] litmus_core::files::WalkError),
    /// Its bytes are not UTF-8 text.
    #[error("{0}: cannot read: not UTF-8 text")]
    NotText(String),
    /// Its text is not a valid test: every problem, one
    /// `file:line:col: message` per line.
    #[error("{0}")]
    Invalid(String),
}

/// Reads and parses the `.litmus` file `file`: its test, and its text
/// (which places later errors about the test at a line and column).
///
/// ```
/// let path = std::env::temp_dir().join(format!("read-file-{}.litmus", std::process::id()));
/// std::fs::write(&path, "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n").unwrap();
/// let (test, src) = litmus_text::read_file(path.to_str().unwrap()).unwrap();
/// assert_eq!((test.name.text.as_str(), &src[..5]), ("T", "PTX T"));
/// std::fs::write(&path, "PTX T\n{ x=0; }\n").unwrap();
/// let e = litmus_text::read_file(path.to_str().unwrap()).unwrap_err();
/// assert!(e.to_string().starts_with(path.to_str().unwrap()), "{e}");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn read_file(file: &str) -> Result<(Test, String), ReadError> {
    let bytes = litmus_core::files::read_regular(std::path::Path::new(file), MAX_FILE_BYTES)?;
    let src = String::from_utf8(bytes).map_err(|_| ReadError::NotText(file.to_string()))?;
    match parse(&src) {
        Ok(test) => Ok((test, src)),
        Err(e) => Err(ReadError::Invalid(e.render(file).trim_end().to_string())),
    }
}

/// Why a test could not be written into a folder.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The folder could not be made.
    #[error("cannot create {}: {source}", dir.display())]
    Folder {
        /// The folder.
        dir: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    File {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes `test` to `DIR/<name>.litmus`, named after the test, whole or
/// not at all (the folder made if missing); the file's path.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("write-into-{}", std::process::id()));
/// let test = litmus_text::parse(
///     "PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 1)\n",
/// )
/// .unwrap();
/// let path = litmus_text::write_into(&dir, &test).unwrap();
/// assert_eq!(path, dir.join("T.litmus"));
/// let back = litmus_text::read_file(path.to_str().unwrap()).unwrap().0;
/// assert_eq!(back.name.text, "T");
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn write_into(dir: &std::path::Path, test: &Test) -> Result<std::path::PathBuf, WriteError> {
    std::fs::create_dir_all(dir).map_err(|source| WriteError::Folder {
        dir: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join(format!("{}.litmus", test.name.text));
    litmus_core::files::write_atomic(&path, print(test).as_bytes())
        .map_err(|source| WriteError::File {
            path: path.clone(),
            source,
        })
        .map(|()| path)
}
