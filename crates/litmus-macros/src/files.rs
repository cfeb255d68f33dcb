//! `litmus_files!`: one `#[test]` per `.litmus` file matching a glob, found
//! at compile time, read at compile time (`include_str!`) and parsed when
//! the test runs.

use std::collections::BTreeMap;
use std::path::Path;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{LitStr, Token};

use crate::glob::Pattern;

/// `"pattern"` or `mod name = "pattern"`.
struct Input {
    module: Option<Ident>,
    pattern: LitStr,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Input> {
        let module = if input.peek(Token![mod]) {
            input.parse::<Token![mod]>()?;
            let name: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            Some(name)
        } else {
            None
        };
        let pattern = input.parse::<LitStr>().map_err(|e| {
            syn::Error::new(
                e.span(),
                "expected a glob pattern as a string: `litmus_files!(\"tests/litmus/**/*.litmus\")` or `litmus_files!(mod name = \"tests/litmus/**/*.litmus\")`",
            )
        })?;
        if !input.is_empty() {
            return Err(input.error("unexpected tokens after the pattern"));
        }
        Ok(Input { module, pattern })
    }
}

/// Expands a call, with patterns relative to `root` (the calling crate's
/// `CARGO_MANIFEST_DIR`).
pub(crate) fn expand(input: TokenStream, root: &Path) -> TokenStream {
    match try_expand(input, root) {
        Ok(tokens) => tokens,
        Err(e) => e.to_compile_error(),
    }
}

fn try_expand(input: TokenStream, root: &Path) -> syn::Result<TokenStream> {
    let Input { module, pattern } = syn::parse2(input)?;
    let at = |message: String| syn::Error::new(pattern.span(), message);
    let text = pattern.value();
    let glob = Pattern::parse(&text).map_err(|e| at(format!("bad pattern: {e}")))?;
    let files = glob.files(root).map_err(at)?;
    if files.is_empty() {
        let why = match glob.missing_directory(root) {
            Some(dir) => format!(": there is no directory `{dir}`"),
            None => String::new(),
        };
        return Err(at(format!(
            "no file matches \"{text}\"{why} (the pattern is relative to the crate root, the directory of its Cargo.toml)"
        )));
    }

    let mut by_name: BTreeMap<String, &str> = BTreeMap::new();
    let mut errors: Option<syn::Error> = None;
    let mut tests = Vec::new();
    for rel in &files {
        let name = test_name(rel);
        if let Some(first) = by_name.insert(name.clone(), rel) {
            let e = at(format!(
                "`{first}` and `{rel}` both make the test `{name}`: rename one, or match them in two calls, each with its own module (`litmus_files!(mod NAME = \"..\")`)"
            ));
            match &mut errors {
                Some(all) => all.combine(e),
                None => errors = Some(e),
            }
            continue;
        }
        let absolute = root.join(rel);
        let absolute = absolute
            .to_str()
            .ok_or_else(|| at(format!("the path of `{rel}` is not UTF-8")))?;
        let ident = Ident::new(&name, Span::call_site());
        tests.push(quote! {
            #[test]
            #[allow(non_snake_case)]
            fn #ident() {
                ::gpu_litmus::__private::litmus_runner::run_litmus_text(
                    #rel,
                    ::core::include_str!(#absolute),
                );
            }
        });
    }
    if let Some(e) = errors {
        return Err(e);
    }
    Ok(match module {
        None => quote!(#(#tests)*),
        Some(module) => quote!(mod #module { #(#tests)* }),
    })
}

/// The test function's name: the file name without its extension, with
/// every character other than an ASCII letter, digit or `_` made `_`, `_`
/// before a leading digit and after a Rust keyword.
fn test_name(rel: &str) -> String {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    let stem = match file.rfind('.') {
        Some(dot) if dot > 0 => &file[..dot],
        _ => file,
    };
    identifier(stem)
}

/// `text` as a test function's name: every character other than an ASCII
/// letter, digit or `_` made `_`, `_` before a leading digit and after a
/// Rust keyword. Also names the tests of `litmus_family!`.
pub(crate) fn identifier(text: &str) -> String {
    let mut name: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    // syn refuses keywords (and `_`) as identifiers.
    if syn::parse_str::<Ident>(&name).is_err() {
        name.push('_');
    }
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::path::PathBuf;

    #[test]
    fn names_are_identifiers() {
        for (rel, name) in [
            ("tests/mp.litmus", "mp"),
            ("tests/MP+fence.sc.gpu.litmus", "MP_fence_sc_gpu"),
            ("2+2W.litmus", "_2_2W"),
            ("a/b/loop.litmus", "loop_"),
            ("a/_.litmus", "__"),
            ("a/self.litmus", "self_"),
            ("a/.litmus", "_litmus"),
            ("a/noext", "noext"),
            ("a/é.litmus", "__"),
        ] {
            assert_eq!(test_name(rel), name, "{rel}");
            syn::parse_str::<Ident>(name).unwrap();
        }
    }

    /// A scratch crate root, removed when dropped.
    struct Root(PathBuf);

    impl Root {
        fn new(name: &str, files: &[&str]) -> Root {
            let root = std::env::temp_dir()
                .join(format!("litmus-macros-files-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&root);
            for f in files {
                let path = root.join(f);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, "").unwrap();
            }
            Root(root)
        }

        fn expand(&self, call: &str) -> String {
            expand(call.parse().unwrap(), &self.0).to_string()
        }
    }

    impl Drop for Root {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn one_test_per_file_in_order() {
        let root = Root::new("order", &["t/b.litmus", "t/a.litmus", "t/x.txt"]);
        let out = root.expand(r#""t/*.litmus""#);
        let a = out.find("fn a ()").expect(&out);
        let b = out.find("fn b ()").expect(&out);
        assert!(a < b, "{out}");
        assert_eq!(out.matches("# [test]").count(), 2, "{out}");
        assert!(out.contains(r#"run_litmus_text ("t/a.litmus" , :: core :: include_str !"#));
        let absolute = root.0.join("t/a.litmus");
        assert!(
            out.contains(&format!("{:?}", absolute.to_str().unwrap())),
            "{out}"
        );
    }

    #[test]
    fn a_module_holds_the_tests() {
        let root = Root::new("module", &["t/a.litmus"]);
        let out = root.expand(r#"mod corpus = "t/*.litmus""#);
        assert!(out.starts_with("mod corpus {"), "{out}");
        assert!(out.contains("fn a ()"), "{out}");
    }

    #[test]
    fn colliding_names_are_an_error_naming_both_files() {
        let root = Root::new(
            "collide",
            &[
                "t/x/mp.litmus",
                "t/y/mp.litmus",
                "t/mp+.litmus",
                "t/mp_.litmus",
            ],
        );
        let out = root.expand(r#""t/**/*.litmus""#);
        assert!(
            out.contains("`t/x/mp.litmus` and `t/y/mp.litmus` both make the test `mp`"),
            "{out}"
        );
        assert!(
            out.contains("`t/mp+.litmus` and `t/mp_.litmus` both make the test `mp_`"),
            "{out}"
        );
        assert!(!out.contains("fn "), "{out}");
    }

    #[test]
    fn no_match_and_bad_input_are_errors() {
        let root = Root::new("errors", &["t/a.litmus"]);
        let out = root.expand(r#""t/*.lit""#);
        assert!(out.contains("no file matches \\\"t/*.lit\\\""), "{out}");
        let out = root.expand(r#""u/*.litmus""#);
        assert!(out.contains("there is no directory `u`"), "{out}");
        let out = root.expand(r#""t/[a].litmus""#);
        assert!(out.contains("bad pattern: `[` is not supported"), "{out}");
        for call in [
            "",
            "t",
            "mod = \"t/*.litmus\"",
            "\"t/*.litmus\" x",
            "mod m \"t/*.litmus\"",
        ] {
            let out = root.expand(call);
            assert!(out.contains("compile_error"), "{call}: {out}");
        }
    }
}
