//! A cat model as one list of statements, its `include`s read in place:
//! the form that mutation works on, where every statement remembers the
//! file it came from so that a mutant can say where it is.

use crate::cat::ReadInclude;
use std::path::Path;

use super::error::{CatError, CatErrorKind, Pos};
use super::lexer::lex;
use super::parser::{parse, Stmt};
use super::print;

/// Includes nest at most this deep (as in `compile.rs`).
const MAX_INCLUDE_DEPTH: usize = 32;

/// A statement and the file it is written in.
#[derive(Clone, Debug)]
pub(crate) struct Located {
    pub file: String,
    pub stmt: Stmt,
}

/// Parses `src` (the file `path`) and every file it includes, in order,
/// includes replaced by their statements. Errors are the compiler's: file,
/// line and column.
pub(crate) fn flatten(
    path: &Path,
    src: &str,
    read: &mut ReadInclude<'_>,
) -> Result<Vec<Located>, CatError> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    file(path, src, read, &mut stack, &mut out)?;
    Ok(out)
}

fn file(
    path: &Path,
    src: &str,
    read: &mut ReadInclude<'_>,
    stack: &mut Vec<std::path::PathBuf>,
    out: &mut Vec<Located>,
) -> Result<(), CatError> {
    let name = path.display().to_string();
    let toks = lex(src).map_err(|(pos, m)| CatError::at(&name, pos, CatErrorKind::Syntax(m)))?;
    let stmts = parse(&toks).map_err(|(pos, k)| CatError::at(&name, pos, k))?;
    stack.push(path.to_path_buf());
    for stmt in stmts {
        match &stmt {
            Stmt::Include { path: inc, pos } => {
                let target = path.parent().unwrap_or(Path::new(".")).join(inc);
                let include_error =
                    |pos: Pos, m: String| CatError::at(&name, pos, CatErrorKind::Include(m));
                if stack.contains(&target) || stack.len() >= MAX_INCLUDE_DEPTH {
                    return Err(include_error(
                        *pos,
                        format!(
                            "including `{}` again makes a cycle of includes (or nests them over {MAX_INCLUDE_DEPTH} deep)",
                            target.display()
                        ),
                    ));
                }
                let text = read(&target).map_err(|m| {
                    include_error(
                        *pos,
                        format!("cannot include \"{inc}\" ({}): {m}", target.display()),
                    )
                })?;
                file(&target, &text, read, stack, out)?;
            }
            _ => out.push(Located {
                file: name.clone(),
                stmt,
            }),
        }
    }
    stack.pop();
    Ok(())
}

/// The statements as one cat file without includes.
pub(crate) fn text(title: &str, stmts: &[Located]) -> String {
    let refs: Vec<&Stmt> = stmts.iter().map(|l| &l.stmt).collect();
    print::model(title, &refs)
}
