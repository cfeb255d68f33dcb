//! Reading a `.litmus` file into a test, with errors the way compilers
//! write them: `file:line:col: message`.

use std::path::Path;

use litmus_core::ir::Test;
use litmus_runner::config::Config;
use litmus_runner::device_pool::Need;
use litmus_text as text;

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
pub(crate) fn load(file: &str) -> Result<Loaded, String> {
    let (test, src) = text::read_file(file).map_err(|e| e.to_string())?;
    Ok(Loaded { test, src })
}

/// Reads `file` for a run spread over the GPUs, with the devices its
/// test needs under `config`'s knobs (none when it does not read: its
/// run only says why).
pub(crate) fn load_for_devices(file: &str, config: &Config) -> (Need, Result<Loaded, String>) {
    let loaded = load(file);
    // The devices come from the test's layout and the device map, which
    // is the machine's (a tuning entry never sets it): the environment's
    // knobs say it before the device, and so its kind's entry, is known.
    let need = match &loaded {
        Ok(l) => Need::of(&l.test, &config.knobs),
        Err(_) => Need::Nothing,
    };
    (need, loaded)
}

/// The files `paths` name: each file as given (whether or not it can be
/// read: its reader says why not), and the `.litmus` files under each
/// folder, sorted; then what could not be searched (a folder that cannot
/// be read, a link loop, a folder with no test), one line each.
pub fn expand(paths: &[String]) -> (Vec<String>, Vec<String>) {
    let mut files = Vec::new();
    let mut refused = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if !path.is_dir() {
            files.push(p.clone());
            continue;
        }
        let found = litmus_core::files::walk(path, "litmus");
        refused.extend(found.refused.iter().map(|e| e.to_string()));
        if found.files.is_empty() && found.refused.is_empty() {
            refused.push(format!("{p}: no .litmus file in this folder"));
        }
        files.extend(found.files.iter().map(|f| f.display().to_string()));
    }
    (files, refused)
}

/// The files a command over a set of tests runs: each file given, and the
/// `.litmus` files under each folder given, sorted; a path that does not
/// exist, or a folder that cannot be searched or has none, is an error
/// that names it.
pub(crate) fn litmus_files(paths: &[String]) -> Result<Vec<String>, String> {
    if let Some(p) = paths.iter().find(|p| !Path::new(p).exists()) {
        return Err(format!("{p}: no such file or folder"));
    }
    let (files, refused) = expand(paths);
    refused.into_iter().next().map_or(Ok(files), Err)
}
