//! Cat syntax trees back to cat text: what a mutant is shipped as, so that
//! it can be read, diffed against its model, and compiled like any file.
//!
//! Parentheses are written only where the grammar needs them (see the
//! precedence in `parser.rs`), so that `[F & SC]` prints as `[F & SC]`
//! and a mutant's text reads like the file it came from.

use super::parser::{CheckKind, Expr, ExprKind, Stmt};

/// Binding strength, loosest first, as `parser.rs` reads them.
const UNION: u8 = 0;
const SEQ: u8 = 1;
const DIFF: u8 = 2;
const INTER: u8 = 3;
const COMPL: u8 = 4;
const POSTFIX: u8 = 5;
const PRODUCT: u8 = 6;
const PRIMARY: u8 = 7;

fn level(e: &Expr) -> u8 {
    match e.kind {
        ExprKind::Union(..) => UNION,
        ExprKind::Seq(..) => SEQ,
        ExprKind::Diff(..) => DIFF,
        ExprKind::Inter(..) => INTER,
        ExprKind::Compl(_) => COMPL,
        ExprKind::Inverse(_) | ExprKind::Plus(_) | ExprKind::Star(_) | ExprKind::Opt(_) => POSTFIX,
        ExprKind::Product(..) => PRODUCT,
        ExprKind::Name(_) | ExprKind::Bracket(_) | ExprKind::Domain(_) | ExprKind::Range(_) => {
            PRIMARY
        }
    }
}

/// `e` as cat text.
pub(crate) fn expr(e: &Expr) -> String {
    let mut out = String::new();
    write_expr(e, &mut out);
    out
}

fn write_at_least(e: &Expr, min: u8, out: &mut String) {
    if level(e) < min {
        out.push('(');
        write_expr(e, out);
        out.push(')');
    } else {
        write_expr(e, out);
    }
}

fn write_expr(e: &Expr, out: &mut String) {
    let binary = |a: &Expr, b: &Expr, op: &str, lvl: u8, out: &mut String| {
        // Left-associative: the right operand must bind tighter, or
        // `a \ (b \ c)` would print as `a \ b \ c`.
        write_at_least(a, lvl, out);
        out.push_str(op);
        write_at_least(b, lvl + 1, out);
    };
    match &e.kind {
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Union(a, b) => binary(a, b, " | ", UNION, out),
        ExprKind::Seq(a, b) => binary(a, b, "; ", SEQ, out),
        ExprKind::Diff(a, b) => binary(a, b, " \\ ", DIFF, out),
        ExprKind::Inter(a, b) => binary(a, b, " & ", INTER, out),
        ExprKind::Product(a, b) => binary(a, b, " * ", PRODUCT, out),
        ExprKind::Compl(a) => {
            out.push('~');
            write_at_least(a, COMPL, out);
        }
        ExprKind::Inverse(a) | ExprKind::Plus(a) | ExprKind::Star(a) | ExprKind::Opt(a) => {
            // The operand of a postfix operator is a product or tighter
            // (`S * T+` is `(S * T)+`).
            write_at_least(a, POSTFIX, out);
            out.push_str(match e.kind {
                ExprKind::Inverse(_) => "^-1",
                ExprKind::Plus(_) => "+",
                ExprKind::Star(_) => "*",
                _ => "?",
            });
        }
        ExprKind::Bracket(a) => {
            out.push('[');
            write_expr(a, out);
            out.push(']');
        }
        ExprKind::Domain(a) | ExprKind::Range(a) => {
            out.push_str(if matches!(e.kind, ExprKind::Domain(_)) {
                "domain("
            } else {
                "range("
            });
            write_expr(a, out);
            out.push(')');
        }
    }
}

/// An expression that ends a statement. A closing `*` followed by the next
/// statement's `~` would read as a product, so such an expression is
/// parenthesised.
fn statement_expr(e: &Expr) -> String {
    let s = expr(e);
    if s.ends_with('*') {
        format!("({s})")
    } else {
        s
    }
}

/// One statement as a line of cat text (`include`s are printed as they
/// are; a mutant's model has none left, see `source.rs`).
pub(crate) fn stmt(s: &Stmt) -> String {
    match s {
        Stmt::Let { rec, binds } => {
            let binds: Vec<String> = binds
                .iter()
                .map(|(name, _, e)| format!("{name} = {}", statement_expr(e)))
                .collect();
            format!(
                "let {}{}",
                if *rec { "rec " } else { "" },
                binds.join("\nand ")
            )
        }
        Stmt::Check {
            kind,
            negate,
            flag,
            expr,
            name,
            ..
        } => {
            let mut out = String::new();
            if *flag {
                out.push_str("flag ");
            }
            if *negate {
                out.push('~');
            }
            out.push_str(check_word(*kind));
            out.push(' ');
            out.push_str(&statement_expr(expr));
            if let Some(n) = name {
                out.push_str(" as ");
                out.push_str(n);
            }
            out
        }
        Stmt::Include { path, .. } => format!("include \"{path}\""),
    }
}

/// `acyclic`, `irreflexive` or `empty`.
pub(crate) fn check_word(kind: CheckKind) -> &'static str {
    match kind {
        CheckKind::Acyclic => "acyclic",
        CheckKind::Irreflexive => "irreflexive",
        CheckKind::Empty => "empty",
    }
}

/// A whole model: a title line, then one statement a line.
pub(crate) fn model(title: &str, stmts: &[&Stmt]) -> String {
    let mut out = format!("\"{}\"\n", title.replace('"', "'"));
    for s in stmts {
        out.push_str(&stmt(s));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cat::lexer::lex;
    use crate::cat::parser::parse;

    fn roundtrip(src: &str) -> String {
        let stmts = parse(&lex(src).unwrap()).unwrap();
        let refs: Vec<&Stmt> = stmts.iter().collect();
        let text = model("t", &refs);
        // Printing what was printed changes nothing: the text parses to
        // the same tree (positions aside).
        let again = parse(&lex(&text).unwrap()).unwrap();
        let again_refs: Vec<&Stmt> = again.iter().collect();
        assert_eq!(model("t", &again_refs), text);
        text
    }

    #[test]
    fn parentheses_only_where_needed() {
        let text = roundtrip(
            "let a = [F & SC]; po | (rf \\ (co \\ fr))\nlet b = (po | rf)+; ~(rf | co)\nlet c = (M * M) & loc\nempty (a; b)* as x\n~acyclic c^-1",
        );
        assert_eq!(
            text,
            "\"t\"\nlet a = [F & SC]; po | rf \\ (co \\ fr)\nlet b = (po | rf)+; ~(rf | co)\nlet c = M * M & loc\nempty ((a; b)*) as x\n~acyclic c^-1\n"
        );
    }
}
