//! The rendered errors of a text that must not parse (shared by the text
//! tests through `#[path]`).

/// The rendered errors of `src`, which must not parse.
pub fn errors(src: &str) -> String {
    match litmus_text::parse(src) {
        Ok(t) => panic!("parsed, expected errors:\n{}", litmus_text::print(&t)),
        Err(e) => e.to_string(),
    }
}
