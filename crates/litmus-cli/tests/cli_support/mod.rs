//! What the CLI tests share: the binary with a clean environment, scratch
//! folders, small `.litmus` files, and a minimal reader of XML attributes.

#![allow(dead_code)] // each test binary uses its own part of it

pub mod bad_knobs;
pub mod mutant_models;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `gpu-litmus` binary, with none of the variables that would change
/// its results set (the test picks what it needs): every `LITMUS_*`
/// variable but the corpus's is removed, LITMUS_REQUIRE_GPU too (tests that
/// want it set it themselves).
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litmus-cli"));
    for (var, _) in std::env::vars_os() {
        let name = var.to_string_lossy();
        if name.starts_with("LITMUS_") && name != "LITMUS_CONFORMANCE_DIR" {
            c.env_remove(&var);
        }
    }
    c
}

/// A fresh scratch folder for this test process and `name`.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Message passing with release/acquire across CTAs: the model forbids the
/// weak outcome, and the file says so.
pub const MP_RELACQ: &str = "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => forbidden
";

/// [`MP_RELACQ`] with an empty init block: both locations used but not
/// declared, so both read as 0 (as herd7 and Dat3M read them).
pub const MP_RELACQ_UNDECLARED: &str = "PTX MP-relacq
{ }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => forbidden
";

/// The same test declaring the wrong verdict.
pub const MP_WRONG: &str = "PTX MP-wrong
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => allowed
";

/// `ld.release` does not exist: an error at line 4, column 2.
pub const BROKEN: &str = "PTX broken
{ x=0; }
 P0@cta 0,gpu 0       ;
 ld.release.gpu r0, x ;
exists (P0:r0 == 0)
";

/// A thread on a ninth GPU: valid, but the harness runs at most eight.
pub const NINE_GPUS: &str = "PTX nine-gpus
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 8 ;
 st.weak x, 1   | ld.weak r0, x  ;
exists (P1:r0 == 1)
";

/// Every element `<tag ...>` of `xml`, as the text between `<tag` and the
/// closing `>` of its start tag.
pub fn elements<'a>(xml: &'a str, tag: &str) -> Vec<&'a str> {
    let open = format!("<{tag}");
    let mut out = Vec::new();
    let mut rest = xml;
    while let Some(at) = rest.find(&open) {
        let after = &rest[at + open.len()..];
        // `<testsuite` must not match `<testsuites`.
        if after.starts_with([' ', '>', '/', '\n']) {
            let end = after.find('>').expect("an unclosed start tag");
            out.push(&after[..end]);
        }
        rest = after;
    }
    out
}

/// The value of attribute `name` in a start tag's text, unescaped.
pub fn attr(start_tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let from = start_tag.find(&key)? + key.len();
    let len = start_tag[from..].find('"')?;
    Some(
        start_tag[from..from + len]
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&apos;", "'")
            .replace("&amp;", "&"),
    )
}
