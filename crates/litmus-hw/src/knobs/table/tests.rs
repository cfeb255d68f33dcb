//! A knob added as a row is found by everything the table makes; the
//! knobs cross the wire whole; the table's defaults are the code's.

use std::collections::HashMap;

use super::*;
use crate::knobs::Knobs;
use crate::wire::Wire;

/// The knobs with one knob more, as a new field and its row would add it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Probe {
    knobs: Knobs,
    probe: u32,
}

/// The knobs' table, and a row for the new knob after it.
fn rows() -> Vec<Knob<Probe>> {
    let mut rows: Vec<Knob<Probe>> = Knobs::table()
        .iter()
        .map(|row| row.lift(|p: &Probe| &p.knobs, |p: &mut Probe| &mut p.knobs))
        .collect();
    rows.push(knob!(
        Probe,
        probe,
        About {
            name: "probe",
            var: Some("LITMUS_PROBE"),
            accepts: "0 to 9",
            default: "0",
            tuned: true,
            help: "a knob the test adds",
        },
        |v: &str| match v.trim().parse::<u32>() {
            Ok(n) if n <= 9 => Ok(n),
            _ => Err(GpuError::knob("LITMUS_PROBE", v, "0 to 9")),
        },
        |n: &u32| n.to_string()
    ));
    rows
}

fn vars(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
    let map: HashMap<String, String> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    move |name| map.get(name).cloned()
}

#[test]
fn a_knob_added_as_a_row_is_read_written_carried_tuned_and_helped() {
    let rows = rows();
    let mut p = Probe::default();
    read(
        &rows,
        &mut p,
        &vars(&[("LITMUS_PROBE", "7"), ("LITMUS_CTAS", "512")]),
    )
    .unwrap();
    assert_eq!((p.probe, p.knobs.ctas), (7, 512));
    let e = read(
        &rows,
        &mut Probe::default(),
        &vars(&[("LITMUS_PROBE", "12")]),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("LITMUS_PROBE") && e.contains("0 to 9"), "{e}");

    let written = assignments(&rows, &p, &Probe::default());
    assert!(
        written.contains(&("LITMUS_PROBE", "7".into())),
        "{written:?}"
    );
    assert!(
        written.contains(&("LITMUS_CTAS", "512".into())),
        "{written:?}"
    );
    // What is written reads back.
    let mut back = Probe::default();
    let again: Vec<(&str, &str)> = written.iter().map(|(v, x)| (*v, x.as_str())).collect();
    read(&rows, &mut back, &vars(&again)).unwrap();
    assert_eq!(back, p);

    let mut w = Vec::new();
    put(&rows, &p, &mut w);
    let mut crossed = Probe::default();
    get(&rows, &mut crossed, &mut w.as_slice()).unwrap();
    assert_eq!(crossed, p);
    // The new knob's value is on the wire: another value, other bytes.
    let mut w3 = Vec::new();
    put(
        &rows,
        &Probe {
            probe: 3,
            ..p.clone()
        },
        &mut w3,
    );
    assert_ne!(w, w3);

    assert!(tunable(&rows).contains(&"LITMUS_PROBE"));
    assert!(!Knobs::tunable().contains(&"LITMUS_PROBE"));
    let help = help(&rows);
    let line = help.lines().find(|l| l.contains("LITMUS_PROBE")).unwrap();
    assert!(
        line.contains("a knob the test adds") && line.contains("0 to 9"),
        "{line}"
    );
    assert!(line.contains("default 0; tuned"), "{line}");
}

/// Every row's help names its variable once, and a knob without one
/// (the histogram's size) has none.
#[test]
fn the_help_has_a_line_per_variable() {
    let help = Knobs::help();
    let with_var: Vec<&str> = Knobs::table().iter().filter_map(|r| r.var).collect();
    assert_eq!(help.lines().count(), with_var.len());
    for var in with_var {
        assert_eq!(
            help.lines()
                .filter(|l| l.split_whitespace().next() == Some(var))
                .count(),
            1,
            "{var}"
        );
    }
    assert!(Knobs::table()
        .iter()
        .any(|r| r.name == "table" && r.var.is_none()));
}

/// The configurations `litmus_tune::space::draw` drew for the snapshot of
/// the knobs line (its assignment lines), each read and sent to the worker
/// and read back, with the fields no variable sets varied too.
#[test]
fn drawn_knobs_cross_the_wire_whole() {
    let snapshot = include_str!("../../../../litmus-tune/tests/knobs_snapshot.txt");
    let mut state = 46u64;
    let mut seen = 0;
    for line in snapshot.lines().filter(|l| l.starts_with("LITMUS_")) {
        let pairs: Vec<(&str, &str)> = line
            .split(' ')
            .filter_map(|a| a.split_once('='))
            .filter(|(v, _)| *v != "LITMUS_TUNING")
            .collect();
        let mut k = Knobs::from_vars(vars(&pairs)).unwrap();
        k.table = 1 << (crate::splitmix(&mut state) % 16);
        if k.stress_ctas == 0 {
            k.stress_rounds = (crate::splitmix(&mut state) % 100) as u32;
        }
        let mut w = Vec::new();
        k.put(&mut w);
        let mut r = w.as_slice();
        assert_eq!(Knobs::get(&mut r), Some(k.clone()), "{line}");
        assert!(r.is_empty(), "{line}: bytes left over");
        seen += 1;
    }
    assert_eq!(seen, 2000);
}

/// A truncated message is refused, not read as other knobs.
#[test]
fn a_cut_message_is_no_knobs() {
    let mut w = Vec::new();
    Knobs::default().put(&mut w);
    for cut in [0, 1, w.len() / 2, w.len() - 1] {
        assert_eq!(Knobs::get(&mut &w[..cut]), None, "{cut}");
    }
}

/// Each default the table states as a value (a number, or a word in
/// backticks), read from its variable, is the code's default.
#[test]
fn the_table_states_the_code_defaults() {
    let d = Knobs::default().env_assignments();
    let mut checked = 0;
    for row in Knobs::table() {
        let Some(var) = row.var else { continue };
        let d_text = row.default;
        let quoted = d_text.len() > 2 && d_text.starts_with('`') && d_text.ends_with('`');
        if !quoted && !d_text.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let value = d_text.trim_matches('`');
        let k = Knobs::from_vars(vars(&[(var, value), ("LITMUS_SEED", "0")])).unwrap();
        assert_eq!(k.env_assignments(), d, "{var}={value}");
        checked += 1;
    }
    // All but the seed (from the clock), the launches (unset), the older
    // toolchain variable (unset), the map (identity) and the start flags
    // (which `auto` raises).
    assert_eq!(
        checked,
        Knobs::table().iter().filter(|r| r.var.is_some()).count() - 5
    );
}
