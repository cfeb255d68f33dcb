//! The glob patterns of `litmus_files!`, by hand: `*` and `?` within one
//! name, `**` for any number of directories. A proc macro runs at every
//! build of its caller, so the matcher is small and walks only the
//! directories the pattern can reach.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// One `/`-separated part of a pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    /// A name without wildcards: looked up, not listed.
    Literal(String),
    /// A name with `*` or `?`, matched against each entry of a directory.
    Wild(Vec<char>),
    /// `**`: zero or more directories.
    AnyDirs,
}

/// A parsed pattern, relative to a root directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    parts: Vec<Part>,
}

impl Pattern {
    /// Reads a pattern; the error says what is wrong with it.
    pub(crate) fn parse(pattern: &str) -> Result<Pattern, String> {
        if pattern.is_empty() {
            return Err("empty pattern: write a path relative to the crate root, such as \"tests/litmus/**/*.litmus\"".into());
        }
        if pattern.starts_with('/') || pattern.as_bytes().get(1) == Some(&b':') {
            return Err(format!(
                "`{pattern}` is absolute: the pattern is relative to the crate root (the directory of its Cargo.toml)"
            ));
        }
        if pattern.contains('\\') {
            return Err(format!(
                "`{pattern}` contains `\\`: separate directories with `/`, on every platform"
            ));
        }
        if let Some(c) = pattern.chars().find(|c| "[]{}".contains(*c)) {
            return Err(format!(
                "`{c}` is not supported in `{pattern}`: patterns have `*` (any characters in one name), `?` (one character) and `**` (any directories)"
            ));
        }
        let mut parts = Vec::new();
        for name in pattern.split('/') {
            let part = match name {
                "" => {
                    return Err(format!(
                        "`{pattern}` has an empty name (`//`, or `/` at the end): it must end with a file name"
                    ))
                }
                // `./tests` is `tests`.
                "." => continue,
                "**" => Part::AnyDirs,
                _ if name.contains("**") => {
                    return Err(format!(
                        "`{name}` in `{pattern}`: `**` must be a whole name, as in `tests/**/*.litmus`"
                    ))
                }
                _ if name.contains(['*', '?']) => Part::Wild(name.chars().collect()),
                _ => Part::Literal(name.to_string()),
            };
            // `**/**` matches what `**` does, and repeating it would only
            // multiply the work.
            if !(part == Part::AnyDirs && parts.last() == Some(&Part::AnyDirs)) {
                parts.push(part);
            }
        }
        match parts.last() {
            None => Err(format!("`{pattern}` names no file")),
            Some(Part::AnyDirs) => Err(format!(
                "`{pattern}` ends in `**`, which matches directories: end it with a file name, such as `**/*.litmus`"
            )),
            Some(_) => Ok(Pattern { parts }),
        }
    }

    /// Whether a path, as its `/`-separated names relative to the root,
    /// matches.
    #[cfg(test)]
    pub fn matches(&self, path: &str) -> bool {
        let names: Vec<&str> = path.split('/').collect();
        matches_parts(&self.parts, &names)
    }

    /// The regular files under `root` that match, as `/`-separated paths
    /// relative to `root`, sorted. Directories reached through `**` are not
    /// entered when they are symbolic links, so a link cycle cannot make the
    /// walk endless; a name that is not UTF-8 matches nothing.
    pub(crate) fn files(&self, root: &Path) -> Result<Vec<String>, String> {
        let mut found = BTreeSet::new();
        walk(root, &mut Vec::new(), &self.parts, &mut found)?;
        Ok(found.into_iter().collect())
    }

    /// The first directory before the first wildcard that does not exist
    /// under `root`, relative to it: the likely typo when nothing matches.
    pub fn missing_directory(&self, root: &Path) -> Option<String> {
        let literal = self.parts.iter().map_while(|p| match p {
            Part::Literal(name) => Some(name.as_str()),
            _ => None,
        });
        let mut dirs: Vec<&str> = literal.collect();
        // The last name is a file, not a directory.
        if dirs.len() == self.parts.len() {
            dirs.pop();
        }
        let mut path = root.to_path_buf();
        for (i, name) in dirs.iter().enumerate() {
            path.push(name);
            if !path.is_dir() {
                return Some(dirs[..=i].join("/"));
            }
        }
        None
    }
}

#[cfg(test)]
fn matches_parts(parts: &[Part], names: &[&str]) -> bool {
    match parts.split_first() {
        None => names.is_empty(),
        Some((Part::AnyDirs, rest)) => (0..=names.len()).any(|k| matches_parts(rest, &names[k..])),
        Some((part, rest)) => names
            .split_first()
            .is_some_and(|(name, names)| part_matches(part, name) && matches_parts(rest, names)),
    }
}

fn part_matches(part: &Part, name: &str) -> bool {
    match part {
        Part::Literal(l) => l == name,
        Part::Wild(p) => wild_matches(p, &name.chars().collect::<Vec<_>>()),
        Part::AnyDirs => true,
    }
}

/// `*` and `?` against one name, in time linear in their lengths times the
/// number of `*`: on a mismatch, the last `*` takes one more character.
fn wild_matches(pattern: &[char], name: &[char]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match pattern.get(p) {
            Some('*') => {
                star = Some((p, n));
                p += 1;
            }
            Some(&c) if c == '?' || c == name[n] => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    p = sp + 1;
                    n = sn + 1;
                    star = Some((sp, sn + 1));
                }
                None => return false,
            },
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

/// Adds to `found` the files under `dir` (at `rel` from the root) that
/// match `parts`, which is never empty.
fn walk(
    dir: &Path,
    rel: &mut Vec<String>,
    parts: &[Part],
    found: &mut BTreeSet<String>,
) -> Result<(), String> {
    let Some((part, rest)) = parts.split_first() else {
        return Ok(());
    };
    match part {
        Part::Literal(name) => visit(dir.join(name), name, rel, rest, found),
        Part::Wild(_) => {
            for (name, path, _) in entries(dir, rel)? {
                if part_matches(part, &name) {
                    visit(path, &name, rel, rest, found)?;
                }
            }
            Ok(())
        }
        Part::AnyDirs => {
            walk(dir, rel, rest, found)?;
            for (name, path, is_real_dir) in entries(dir, rel)? {
                if is_real_dir {
                    rel.push(name);
                    walk(&path, rel, parts, found)?;
                    rel.pop();
                }
            }
            Ok(())
        }
    }
}

/// `path` (named `name`, in the directory at `rel`) matched a part: a
/// file when it was the last, else a directory to go on in.
fn visit(
    path: PathBuf,
    name: &str,
    rel: &mut Vec<String>,
    rest: &[Part],
    found: &mut BTreeSet<String>,
) -> Result<(), String> {
    rel.push(name.to_string());
    let result = if rest.is_empty() {
        if path.is_file() {
            found.insert(rel.join("/"));
        }
        Ok(())
    } else if path.is_dir() {
        walk(&path, rel, rest, found)
    } else {
        Ok(())
    };
    rel.pop();
    result
}

/// The entries of a directory with UTF-8 names: name, path, and whether it
/// is a directory that is not a symbolic link.
fn entries(dir: &Path, rel: &[String]) -> Result<Vec<(String, PathBuf, bool)>, String> {
    let shown = || {
        if rel.is_empty() {
            ".".to_string()
        } else {
            rel.join("/")
        }
    };
    let read = fs::read_dir(dir).map_err(|e| format!("cannot list `{}`: {e}", shown()))?;
    let mut out = Vec::new();
    for entry in read {
        let entry = entry.map_err(|e| format!("cannot list `{}`: {e}", shown()))?;
        let Ok(name) = entry.file_name().into_string() else {
            continue;
        };
        let is_real_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        out.push((name, entry.path(), is_real_dir));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(p: &str) -> Pattern {
        Pattern::parse(p).unwrap_or_else(|e| panic!("{p}: {e}"))
    }

    #[test]
    fn star_and_question_mark_stay_within_one_name() {
        let p = pat("tests/*.litmus");
        assert!(p.matches("tests/mp.litmus"));
        assert!(p.matches("tests/.litmus"));
        assert!(!p.matches("tests/a/mp.litmus"));
        assert!(!p.matches("tests/mp.litmus.bak"));
        assert!(!p.matches("mp.litmus"));
        let q = pat("t?sts/m?.litmus");
        assert!(q.matches("tests/mp.litmus"));
        assert!(!q.matches("tests/m.litmus"));
        assert!(!q.matches("tests/mpp.litmus"));
    }

    #[test]
    fn several_stars_backtrack() {
        let p = pat("*a*b*c");
        assert!(p.matches("abc"));
        assert!(p.matches("xxaxxbxxbxxc"));
        assert!(!p.matches("xxaxxcxxb"));
        assert!(pat("a*").matches("a"));
        assert!(pat("*").matches("anything"));
        assert!(!pat("a*b").matches("a"));
        assert!(pat("**/*a*a*a*a*a*a*b").matches(&format!("{}b", "a".repeat(200))));
        assert!(!pat("*a*a*a*a*a*a*b").matches(&"a".repeat(200)));
    }

    #[test]
    fn double_star_is_any_number_of_directories() {
        let p = pat("tests/**/*.litmus");
        assert!(p.matches("tests/mp.litmus"));
        assert!(p.matches("tests/a/mp.litmus"));
        assert!(p.matches("tests/a/b/c/mp.litmus"));
        assert!(!p.matches("src/a/mp.litmus"));
        let q = pat("**/x/**/y");
        assert!(q.matches("x/y"));
        assert!(q.matches("a/x/b/c/y"));
        assert!(!q.matches("a/y"));
        assert_eq!(pat("a/**/**/b"), pat("a/**/b"));
        assert_eq!(pat("./a/./b"), pat("a/b"));
    }

    #[test]
    fn bad_patterns_say_why() {
        for (p, expected) in [
            ("", "empty pattern"),
            ("/tests/*.litmus", "absolute"),
            ("C:/tests", "absolute"),
            ("tests\\*.litmus", "separate directories with `/`"),
            ("tests/[ab].litmus", "`[` is not supported"),
            ("tests/{a,b}.litmus", "`{` is not supported"),
            ("tests//a.litmus", "empty name"),
            ("tests/", "empty name"),
            ("tests/a**/x", "`**` must be a whole name"),
            ("tests/**", "ends in `**`"),
            (".", "names no file"),
        ] {
            let e = Pattern::parse(p).expect_err(p);
            assert!(e.contains(expected), "{p}: {e}");
        }
    }

    /// A scratch directory tree, removed when dropped.
    struct Tree(PathBuf);

    impl Tree {
        fn new(name: &str, files: &[&str]) -> Tree {
            let root = std::env::temp_dir()
                .join(format!("litmus-macros-glob-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&root);
            for f in files {
                let path = root.join(f);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, "").unwrap();
            }
            Tree(root)
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn files_are_found_sorted_and_once() {
        let tree = Tree::new(
            "walk",
            &[
                "t/b.litmus",
                "t/a.litmus",
                "t/a.txt",
                "t/sub/c.litmus",
                "t/sub/deeper/d.litmus",
                "t/dir.litmus/e.litmus",
                "other/f.litmus",
            ],
        );
        let files = |p: &str| pat(p).files(&tree.0).unwrap();
        assert_eq!(files("t/*.litmus"), ["t/a.litmus", "t/b.litmus"]);
        assert_eq!(
            files("t/**/*.litmus"),
            [
                "t/a.litmus",
                "t/b.litmus",
                "t/dir.litmus/e.litmus",
                "t/sub/c.litmus",
                "t/sub/deeper/d.litmus"
            ]
        );
        assert_eq!(files("**/**/?.litmus").len(), 6);
        assert_eq!(files("t/a.litmus"), ["t/a.litmus"]);
        assert_eq!(files("*/sub/*/*"), ["t/sub/deeper/d.litmus"]);
        assert!(files("t/nothing/*.litmus").is_empty());
        assert!(files("t/a.litmus/x").is_empty());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_cycle_does_not_loop() {
        let tree = Tree::new("cycle", &["t/a.litmus"]);
        std::os::unix::fs::symlink(tree.0.join("t"), tree.0.join("t/loop")).unwrap();
        assert_eq!(pat("t/**/*.litmus").files(&tree.0).unwrap(), ["t/a.litmus"]);
        // Named explicitly, a link is followed.
        assert_eq!(
            pat("t/loop/loop/*.litmus").files(&tree.0).unwrap(),
            ["t/loop/loop/a.litmus"]
        );
    }

    #[test]
    fn the_missing_directory_is_named() {
        let tree = Tree::new("missing", &["tests/litmus/a.litmus"]);
        let missing = |p: &str| pat(p).missing_directory(&tree.0);
        assert_eq!(
            missing("tests/litmsu/*.litmus").as_deref(),
            Some("tests/litmsu")
        );
        assert_eq!(missing("test/litmus/**/*.litmus").as_deref(), Some("test"));
        assert_eq!(missing("tests/litmus/*.lit"), None);
        assert_eq!(missing("tests/litmus/b.litmus"), None);
    }
}
