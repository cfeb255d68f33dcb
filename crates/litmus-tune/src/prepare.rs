//! Getting a set of files ready for the family-wide search
//! ([`crate::family::search_family`]): each test read, its PTX generated
//! and its weak outcome decided, and a line for each file that cannot be
//! searched (unreadable, not runnable on the GPU harness, not checkable
//! by the model). `gpu-litmus tune` and `campaign --tune` print those
//! lines first, then search the rest.

use litmus_core::ir::Test;
use litmus_model::{Model, Options};
use litmus_ptx::{self as ptx, PtxError};

use crate::target::Target;

/// A test ready to search: its file, its IR and PTX, its weak outcome.
pub struct Ready {
    /// The file it was read from.
    pub file: String,
    /// The test.
    pub test: Test,
    /// Its PTX module.
    pub ptx: String,
    /// Its weak outcome.
    pub target: Target,
}

/// A line printed before the search: a test that cannot be searched.
pub struct Line {
    /// What to print.
    pub text: String,
    /// Whether the test counts as failed (it could not be read, or the
    /// model cannot check it); a test the harness cannot run is not.
    pub failed: bool,
}

/// The tests read, generated and given their weak outcome, and the lines
/// for those that could not be.
pub struct Prepared {
    /// The tests to search, in the files' order.
    pub ready: Vec<Ready>,
    /// The lines for the others.
    pub lines: Vec<Line>,
}

/// Reads every file through `load` (its test, or why not: the line said
/// for it), generates its PTX and decides its weak outcome under `model`.
pub fn prepare<E: std::fmt::Display>(
    files: &[String],
    model: &dyn Model,
    options: &Options,
    load: impl Fn(&str) -> Result<Test, E>,
) -> Prepared {
    let mut p = Prepared {
        ready: Vec::new(),
        lines: Vec::new(),
    };
    for file in files {
        let test = match load(file) {
            Ok(t) => t,
            Err(e) => {
                p.lines.push(Line {
                    text: e.to_string(),
                    failed: true,
                });
                continue;
            }
        };
        let ptx = match ptx::generate(&test) {
            Ok(code) => code,
            Err(PtxError::Unsupported(why)) => {
                p.lines.push(Line {
                    text: format!("{file}: not tuned, the GPU harness cannot run it: {why}"),
                    failed: false,
                });
                continue;
            }
            Err(e) => {
                p.lines.push(Line {
                    text: format!("{file}: {e}"),
                    failed: true,
                });
                continue;
            }
        };
        match Target::of(&test, model, options) {
            Ok(target) => p.ready.push(Ready {
                file: file.clone(),
                test,
                ptx,
                target,
            }),
            Err(e) => p.lines.push(Line {
                text: format!("{file}: model: {e}"),
                failed: true,
            }),
        }
    }
    p
}
