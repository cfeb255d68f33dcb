//! Where a command writes: never over one of its inputs, never half a
//! file (see `litmus_core::files`).

use std::io::Write;
use std::path::Path;

/// Whether `output` may be written: false, with one line on `err`, when it
/// is one of `inputs` or inside one (links resolved).
pub fn clear(output: &Path, inputs: &[&Path], err: &mut dyn Write) -> bool {
    match litmus_core::files::refuse_clobber(output, inputs) {
        Ok(()) => true,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            false
        }
    }
}

/// Writes `contents` to `output` whole or not at all; false, with one line
/// on `err`, when it cannot.
pub fn write(output: &Path, contents: &[u8], err: &mut dyn Write) -> bool {
    match litmus_core::files::write_atomic(output, contents) {
        Ok(()) => true,
        Err(e) => {
            let _ = writeln!(err, "error: cannot write {}: {e}", output.display());
            false
        }
    }
}
