//! Writes the PTX module of each `.litmus` file to a folder, so that a
//! change meant to leave the generator's output alone can be checked
//! byte for byte with `diff -r` against the folder of the commit before:
//!
//! ```text
//! cargo run -p litmus-ptx --example ptx_dump -- OUT_DIR $(git ls-files '*.litmus')
//! ```
//!
//! `OUT_DIR/<file>.ptx` is the module under the default options
//! (`generate`); `<file>.generic.ptx`, `<file>.spread.ptx` and
//! `<file>.dependent.ptx` are the modules of the three codegen knobs, each
//! alone, since those paths of the generator run only when a knob asks. A
//! file that has no module gets `<file>.err` with the reason instead, so
//! that a refusal that changes shows in the diff too.

use std::path::Path;
use std::process::ExitCode;

use litmus_ptx::{self as ptx, Addressing, Codegen};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next() else {
        eprintln!("usage: ptx_dump OUT_DIR FILE...");
        return ExitCode::FAILURE;
    };
    let variants = [
        ("", Codegen::default()),
        (
            ".generic",
            Codegen {
                addressing: Addressing::Generic,
                ..Codegen::default()
            },
        ),
        (
            ".spread",
            Codegen {
                spread_by_lane: true,
                ..Codegen::default()
            },
        ),
        (
            ".dependent",
            Codegen {
                dependent_launch: true,
                ..Codegen::default()
            },
        ),
    ];
    let (mut modules, mut refused) = (0, 0);
    for file in args {
        let src = match std::fs::read_to_string(&file) {
            Ok(src) => src,
            Err(e) => {
                eprintln!("{file}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let base = Path::new(&out).join(&file);
        if let Some(dir) = base.parent() {
            if let Err(e) = std::fs::create_dir_all(dir) {
                eprintln!("{}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
        let test = match litmus_text::parse(&src) {
            Ok(test) => test,
            Err(e) => {
                // Not a generator question, but a file that stops parsing
                // would otherwise drop out of the comparison unseen.
                refused += 1;
                if !write(&base, ".err", &format!("parse: {e}\n")) {
                    return ExitCode::FAILURE;
                }
                continue;
            }
        };
        for (suffix, codegen) in variants {
            let (ext, text) = match ptx::generate_with(&test, codegen) {
                Ok(text) => {
                    modules += 1;
                    (format!("{suffix}.ptx"), text)
                }
                Err(e) => {
                    refused += 1;
                    (format!("{suffix}.err"), format!("{e}\n"))
                }
            };
            if !write(&base, &ext, &text) {
                return ExitCode::FAILURE;
            }
        }
    }
    println!("{modules} modules, {refused} refusals written under {out}");
    ExitCode::SUCCESS
}

/// Writes `text` to `base` with `ext` appended to its name; false (and a
/// line on stderr) when it cannot.
fn write(base: &Path, ext: &str, text: &str) -> bool {
    let mut path = base.as_os_str().to_owned();
    path.push(ext);
    match std::fs::write(&path, text) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{}: {e}", Path::new(&path).display());
            false
        }
    }
}
