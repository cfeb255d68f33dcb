//! The evidence as one self-contained HTML page: per test family, placement
//! and fence scope, every outcome the model allows or the hardware showed,
//! with its rate (Wilson interval), the devices that showed it and the
//! model's verdict; observed outcomes the model forbids first, in red.
//!
//! Written by hand: the page is a few tables and CSS bars, which no chart
//! crate would make smaller, and it must open with no network.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;
use litmus_model::outcome::format_outcome;
use litmus_model::{check, Model, Options};

use super::gate::{seen, Seen};
use super::record::Record;
use super::Evidence;
use crate::stats::{wilson, Z95};

/// One test of the page, with what the model and the hardware say.
struct Entry<'a> {
    name: String,
    family: String,
    placement: String,
    fences: String,
    records: Vec<&'a Record>,
    instances: u64,
    rows: Vec<Row>,
    note: Option<String>,
}

/// One outcome of a test.
struct Row {
    text: String,
    /// `None`: the model could not judge it.
    allowed: Option<bool>,
    seen: Option<Seen>,
}

/// The page for `evidence` judged by `model`.
pub fn page(evidence: &Evidence, model: &dyn Model, options: &Options) -> String {
    let entries = entries(evidence, model, options);
    let devices: BTreeSet<&str> = evidence.records.iter().map(|r| r.device.as_str()).collect();
    let mut h = String::new();
    h.push_str(HEAD);
    let _ = write!(
        h,
        "<h1>Hardware evidence</h1>\n<p class=\"summary\">{} tests, {} records, {} devices ({}), judged by the model <b>{}</b>.</p>\n",
        entries.len(),
        evidence.records.len(),
        devices.len(),
        escape(&devices.into_iter().collect::<Vec<_>>().join(", ")),
        escape(model.name())
    );
    problems(&mut h, evidence);
    forbidden(&mut h, &entries);
    let mut families: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for e in &entries {
        families.entry(&e.family).or_default().push(e);
    }
    for (family, tests) in families {
        family_section(&mut h, family, tests);
    }
    h.push_str("</body>\n</html>\n");
    h
}

fn entries<'a>(evidence: &'a Evidence, model: &dyn Model, options: &Options) -> Vec<Entry<'a>> {
    let mut groups: BTreeMap<(&str, &str), Vec<&Record>> = BTreeMap::new();
    for r in &evidence.records {
        groups.entry((&r.test, &r.ir_hash)).or_default().push(r);
    }
    let hashes: BTreeMap<&str, usize> = groups.keys().fold(BTreeMap::new(), |mut m, (n, _)| {
        *m.entry(*n).or_default() += 1;
        m
    });
    groups
        .into_iter()
        .map(|((name, hash), records)| {
            // Two versions of a test (edited between runs) stay apart.
            let name = if hashes[name] > 1 {
                format!("{name} [{hash}]")
            } else {
                name.to_string()
            };
            entry(name, records, model, options)
        })
        .collect()
}

fn entry<'a>(
    name: String,
    records: Vec<&'a Record>,
    model: &dyn Model,
    options: &Options,
) -> Entry<'a> {
    let seen = seen(&records);
    let instances = records.iter().map(|r| r.instances).sum();
    let test = records
        .iter()
        .find_map(|r| r.text.as_deref())
        .map(litmus_core::text::parse);
    let (test, note) = match test {
        Some(Ok(t)) => (Some(t), None),
        Some(Err(e)) => (
            None,
            Some(format!(
                "the recorded test does not parse: {}",
                e.render("evidence").trim()
            )),
        ),
        None => (
            None,
            Some("the evidence holds no test text: no model verdicts".to_string()),
        ),
    };
    let family = family(&records[0].test);
    let Some(test) = test else {
        return Entry {
            name,
            family,
            placement: "unknown".into(),
            fences: "unknown".into(),
            records,
            instances,
            rows: unjudged(seen),
            note,
        };
    };
    let (rows, note) = match check(&test, model, options) {
        Ok(result) => {
            let outcomes: BTreeSet<&Vec<u32>> = result
                .allowed
                .iter()
                .chain(seen.iter().map(|s| &s.values))
                .collect();
            let rows = outcomes
                .into_iter()
                .map(|v| Row {
                    text: format_outcome(&test, &result.observables, v),
                    allowed: Some(result.allowed.contains(v)),
                    seen: seen.iter().find(|s| &s.values == v).cloned(),
                })
                .collect();
            (rows, note)
        }
        Err(e) => (
            unjudged(seen),
            Some(format!("the model could not check it: {e}")),
        ),
    };
    Entry {
        name,
        family,
        placement: placement(&test),
        fences: fence_scope(&test),
        records,
        instances,
        rows,
        note,
    }
}

/// Rows for what was seen, with no model verdict.
fn unjudged(seen: Vec<Seen>) -> Vec<Row> {
    seen.into_iter()
        .map(|s| Row {
            text: s.text.clone(),
            allowed: None,
            seen: Some(s),
        })
        .collect()
}

/// A test's family: its name up to the first separator (`MP+fences` and
/// `mp_tfb` are both `MP`).
fn family(name: &str) -> String {
    let head = name.split(['_', '+', '-', '.', ' ']).next().unwrap_or(name);
    if head.is_empty() {
        name.to_uppercase()
    } else {
        head.to_uppercase()
    }
}

/// How far apart the test's threads run.
fn placement(test: &Test) -> String {
    let places: Vec<_> = test.threads.iter().map(|t| t.placement).collect();
    let count = |key: fn(&litmus_core::ir::Placement) -> Option<u32>| {
        places.iter().map(key).collect::<BTreeSet<_>>().len()
    };
    // A host thread's GPU coordinates mean nothing: it is on the CPU.
    if places.iter().all(|p| p.host) {
        "threads on the host".into()
    } else if places.iter().any(|p| p.host) {
        "threads on the host and on GPUs".into()
    } else if count(|p| Some(p.gpu)) > 1 {
        "threads on several GPUs".into()
    } else if count(|p| Some(p.cta)) > 1 {
        if places.iter().all(|p| p.cluster.is_some()) && count(|p| p.cluster) == 1 {
            "CTAs of one cluster".into()
        } else {
            "threads in different CTAs".into()
        }
    } else if count(|p| p.warp) > 1 {
        "one CTA, different warps".into()
    } else {
        "one CTA".into()
    }
}

/// The widest scope of the test's fences.
fn fence_scope(test: &Test) -> String {
    test.threads
        .iter()
        .flat_map(|t| &t.body)
        .filter_map(|i| match &i.kind {
            InstrKind::Fence { scope, .. } => Some(*scope),
            _ => None,
        })
        .max()
        .map_or_else(
            || "no fence".into(),
            |s| format!("fences up to .{}", s.as_str()),
        )
}

fn problems(h: &mut String, evidence: &Evidence) {
    if evidence.problems.is_empty() {
        return;
    }
    h.push_str("<section id=\"problems\"><h2>Lines that are not records</h2><ul>\n");
    for p in &evidence.problems {
        let _ = writeln!(h, "<li>{}</li>", escape(&p.to_string()));
    }
    h.push_str("</ul></section>\n");
}

fn forbidden(h: &mut String, entries: &[Entry]) {
    let bad: Vec<(&Entry, &Row, &Seen)> = entries
        .iter()
        .flat_map(|e| e.rows.iter().map(move |r| (e, r)))
        .filter_map(|(e, r)| match (&r.seen, r.allowed) {
            (Some(s), Some(false)) if s.count > 0 => Some((e, r, s)),
            _ => None,
        })
        .collect();
    if bad.is_empty() {
        h.push_str("<p class=\"ok\">No outcome the model forbids was ever observed.</p>\n");
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"forbidden\"><h2>Observed, but the model forbids them ({})</h2>\n<table><tr><th>test</th><th>outcome</th><th>seen</th><th>rate (95% Wilson)</th><th>devices</th></tr>",
        bad.len()
    );
    for (e, r, s) in bad {
        let _ = writeln!(
            h,
            "<tr class=\"forbidden\" data-test=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&e.name),
            escape(&e.name),
            escape(&r.text),
            s.count,
            rate(s.count, e.instances),
            devices(s)
        );
    }
    h.push_str("</table></section>\n");
}

fn family_section(h: &mut String, family: &str, mut tests: Vec<&Entry>) {
    tests.sort_by(|a, b| {
        (&a.placement, &a.fences, &a.name).cmp(&(&b.placement, &b.fences, &b.name))
    });
    let _ = writeln!(
        h,
        "<section class=\"family\" data-family=\"{0}\"><h2>{0}</h2>\n<table><tr><th>placement</th><th>fences</th><th>test</th><th>outcome</th><th>model</th><th>seen / instances</th><th>rate (95% Wilson)</th><th></th><th>devices</th></tr>",
        escape(family)
    );
    for e in tests {
        let span = e.rows.len().max(1) + usize::from(e.note.is_some());
        let head = format!(
            "<td rowspan=\"{span}\" class=\"head\">{}</td><td rowspan=\"{span}\" class=\"head\">{}</td><td rowspan=\"{span}\" class=\"head test\">{}<br><small>{} record{} on {}</small></td>",
            escape(&e.placement),
            escape(&e.fences),
            escape(&e.name),
            e.records.len(),
            if e.records.len() == 1 { "" } else { "s" },
            escape(&e.records.iter().map(|r| r.device.as_str()).collect::<BTreeSet<_>>().into_iter().collect::<Vec<_>>().join(", "))
        );
        let mut first = Some(head);
        let data = escape(&e.name);
        if let Some(note) = &e.note {
            let _ = writeln!(
                h,
                "<tr data-test=\"{data}\">{}<td colspan=\"6\" class=\"note\">{}</td></tr>",
                first.take().unwrap_or_default(),
                escape(note)
            );
        }
        for r in &e.rows {
            let count = r.seen.as_ref().map_or(0, |s| s.count);
            let (class, verdict) = match r.allowed {
                Some(true) => ("allowed", "allowed"),
                Some(false) if count > 0 => ("forbidden", "forbidden"),
                Some(false) => ("quiet", "forbidden"),
                None => ("unknown", "?"),
            };
            let fraction = count as f64 / e.instances.max(1) as f64;
            let _ = writeln!(
                h,
                "<tr class=\"{class}\" data-test=\"{data}\">{}<td><code>{}</code></td><td>{verdict}</td><td>{count} / {}</td><td>{}</td><td><div class=\"bar\"><div style=\"width:{:.1}%\"></div></div></td><td>{}</td></tr>",
                first.take().unwrap_or_default(),
                escape(&r.text),
                e.instances,
                rate(count, e.instances),
                bar_width(fraction),
                r.seen.as_ref().map_or_else(String::new, devices),
            );
        }
    }
    h.push_str("</table></section>\n");
}

/// Rates span ten orders of magnitude: the bar is logarithmic from 1e-10
/// (empty) to 1 (full), so a rare outcome still shows.
fn bar_width(fraction: f64) -> f64 {
    if fraction <= 0.0 {
        return 0.0;
    }
    ((fraction.log10() + 10.0) / 10.0 * 100.0).clamp(1.0, 100.0)
}

fn rate(hits: u64, trials: u64) -> String {
    if trials == 0 {
        return "no instances".into();
    }
    let (lo, hi) = wilson(hits, trials, Z95);
    format!(
        "{:.2e} [{:.2e}, {:.2e}]",
        hits as f64 / trials as f64,
        lo,
        hi
    )
}

fn devices(s: &Seen) -> String {
    s.devices
        .iter()
        .map(|(d, c)| format!("{}: {c}", escape(d)))
        .collect::<Vec<_>>()
        .join("<br>")
}

/// `text` with HTML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const HEAD: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>gpu-litmus: hardware evidence</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { margin-bottom: 0.2em; }
h2 { margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.test { font-weight: 600; }
code { font-size: 13px; }
tr.allowed td { background: #fff; }
tr.quiet td { color: #999; }
tr.forbidden td { background: #fde2e2; color: #a00; font-weight: 600; }
tr.unknown td { background: #fffbe6; }
tr td.head { background: #fff; color: #222; font-weight: normal; }
tr td.head.test { font-weight: 600; }
#forbidden h2 { color: #b00; border-color: #b00; }
#forbidden table { border: 2px solid #b00; }
p.ok { color: #070; font-weight: 600; }
td.note { font-style: italic; color: #555; }
.bar { width: 120px; height: 10px; background: #eee; }
.bar div { height: 10px; background: #3a7bd5; }
tr.forbidden .bar div { background: #c00; }
</style>
</head>
<body>
"#;

#[cfg(test)]
mod tests {
    use super::{placement, Test};

    fn test(header: &str) -> Test {
        let cells = header
            .split('|')
            .map(|_| " st.relaxed.sys x, 1 ")
            .collect::<Vec<_>>();
        litmus_core::text::parse(&format!(
            "PTX t\n{{ x=0; }}\n{header};\n{};\nexists (x == 1)",
            cells.join("|")
        ))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn host_threads_are_named_in_the_placement() {
        assert_eq!(placement(&test("P0@host | P1@host")), "threads on the host");
        assert_eq!(
            placement(&test("P0@cta 0,gpu 1 | P1@host")),
            "threads on the host and on GPUs"
        );
        assert_eq!(
            placement(&test("P0@cta 0,gpu 1 | P1@cta 0,gpu 0")),
            "threads on several GPUs"
        );
    }
}
