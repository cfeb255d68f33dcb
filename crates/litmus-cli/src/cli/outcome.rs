//! Reading an outcome written by a person (`P1:r0=1; P1:r1=0`) into the
//! values of a test's observables, in their order.

use litmus_core::ir::{Test, VALUE_RANGE};
use litmus_core::outcome::observables;
use litmus_core::text::parse_value;

/// Parses `text` into one value per observable of `test`, in the order
/// [`observables`] gives. Pairs are `NAME=VALUE` or `NAME==VALUE`,
/// separated by `;`, `,` or `/\`; the whole may sit in parentheses. Every
/// observable must be given, once. Values are read as a test writes them
/// (decimal, `0x` hexadecimal or negative, within 32 bits) and taken modulo
/// 2^32, as the model takes them.
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
        // As the model reads a test's values: modulo 2^32, so `-1` is
        // `0xffffffff`.
        let v = parse_value(value).map(|v| v as u32).ok_or(format!(
            "bad value `{value}` for {name}: expected a whole number from {} to {} \
             (decimal or 0x hexadecimal)",
            VALUE_RANGE.start(),
            VALUE_RANGE.end()
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
    fn negative_values_wrap_as_the_model_reads_them() {
        let t = mp();
        assert_eq!(
            parse(&t, "P1:r0=-1; P1:r1=0xffffffff; x=-2147483648"),
            Ok(vec![u32::MAX, u32::MAX, 1 << 31])
        );
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
            "bad value `one` for P1:r0: expected a whole number from -2147483648 to 4294967295 (decimal or 0x hexadecimal)"
        );
        assert!(err("P1:r0=4294967296; P1:r1=0; x=1").starts_with("bad value `4294967296`"));
        assert!(err("P1:r0=-2147483649; P1:r1=0; x=1").starts_with("bad value `-2147483649`"));
        assert!(err("P1:r0=- 1; P1:r1=0; x=1").starts_with("bad value `- 1`"));
        assert_eq!(err("P1:r0 1"), "expected `NAME=VALUE`, found `P1:r0 1`");
        assert_eq!(err("x=1; x=2"), "x is given twice");
    }
}
