//! Reading an outcome written by a person (`P1:r0=1; P1:r1=0`) into the
//! values of a test's observables, in their order.

use litmus_core::ir::Test;
use litmus_core::outcome::observables;

/// Parses `text` into one value per observable of `test`, in the order
/// [`observables`] gives. Pairs are `NAME=VALUE` or `NAME==VALUE`,
/// separated by `;`, `,` or `/\`; the whole may sit in parentheses. Every
/// observable must be given, once.
pub fn parse(test: &Test, text: &str) -> Result<Vec<u32>, String> {
    let names: Vec<String> = observables(test).iter().map(|o| o.display(test)).collect();
    let known = || {
        if names.is_empty() {
            "the test observes nothing".to_string()
        } else {
            format!("the observables are: {}", names.join(", "))
        }
    };
    let mut body = text.trim();
    if let Some(inner) = body.strip_prefix('(').and_then(|b| b.strip_suffix(')')) {
        body = inner;
    }
    let mut values: Vec<Option<u32>> = vec![None; names.len()];
    for pair in body
        .split("/\\")
        .flat_map(|p| p.split([';', ',']))
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let (name, value) = pair
            .split_once("==")
            .or_else(|| pair.split_once('='))
            .ok_or(format!("expected `NAME=VALUE`, found `{pair}`"))?;
        let (name, value) = (name.trim(), value.trim());
        let i = names
            .iter()
            .position(|n| n == name)
            .ok_or(format!("unknown observable `{name}`; {}", known()))?;
        let v = number(value).ok_or(format!(
            "bad value `{value}` for {name}: expected a whole number from 0 to {}",
            u32::MAX
        ))?;
        if values[i].replace(v).is_some() {
            return Err(format!("{name} is given twice"));
        }
    }
    let missing: Vec<&str> = names
        .iter()
        .zip(&values)
        .filter(|(_, v)| v.is_none())
        .map(|(n, _)| n.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "the outcome must give every observable; missing: {} ({})",
            missing.join(", "),
            known()
        ));
    }
    Ok(values.into_iter().flatten().collect())
}

/// A value as conditions write them: decimal or `0x` hexadecimal.
fn number(text: &str) -> Option<u32> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => text.parse().ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mp() -> Test {
        litmus_core::text::parse(
            "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0 /\\ x == 1)\n",
        )
        .unwrap()
    }

    #[test]
    fn separators_and_orders() {
        let t = mp();
        for text in [
            "P1:r0=1; P1:r1=0; x=1",
            "P1:r1 == 0 /\\ x == 1 /\\ P1:r0 == 1",
            "(P1:r0=1, P1:r1=0, x=0x1)",
            " x=1;P1:r1=0;P1:r0=1; ",
        ] {
            assert_eq!(parse(&t, text), Ok(vec![1, 0, 1]), "{text}");
        }
    }

    #[test]
    fn errors_say_what_is_wrong() {
        let t = mp();
        let err = |text| parse(&t, text).unwrap_err();
        assert_eq!(
            err("P2:r0=1; P1:r1=0; x=1"),
            "unknown observable `P2:r0`; the observables are: P1:r0, P1:r1, x"
        );
        assert_eq!(
            err("P1:r0=1"),
            "the outcome must give every observable; missing: P1:r1, x (the observables are: P1:r0, P1:r1, x)"
        );
        assert_eq!(
            err("P1:r0=one; P1:r1=0; x=1"),
            "bad value `one` for P1:r0: expected a whole number from 0 to 4294967295"
        );
        assert!(err("P1:r0=-1; P1:r1=0; x=1").starts_with("bad value `-1`"));
        assert_eq!(err("P1:r0 1"), "expected `NAME=VALUE`, found `P1:r0 1`");
        assert_eq!(err("x=1; x=2"), "x is given twice");
    }
}
