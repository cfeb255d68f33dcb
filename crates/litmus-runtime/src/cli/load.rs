//! Reading a `.litmus` file into a test, with errors the way compilers
//! write them: `file:line:col: message`.

use litmus_core::ir::Test;
use litmus_core::text;

/// A test read from a file, with the file's text (to place later errors).
pub struct Loaded {
    pub test: Test,
    pub src: String,
}

impl Loaded {
    /// `line:col` of the test's header: where errors about the whole test
    /// point.
    pub fn header(&self) -> String {
        text::position(&self.src, self.test.name.origin)
            .map_or_else(|| "1:1".to_string(), |p| p.to_string())
    }
}

/// Reads and parses `file`; the error is every problem, one
/// `file:line:col: message` per line (no trailing newline).
pub fn load(file: &str) -> Result<Loaded, String> {
    let src = std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
    match text::parse(&src) {
        Ok(test) => Ok(Loaded { test, src }),
        Err(e) => Err(e.render(file).trim_end().to_string()),
    }
}
