//! The tests, one line each: name, the outcome its condition names, the
//! model's verdict on it, whether and how often it was seen, on which
//! devices; the full outcome table folded under the line. A bar of
//! filters above them (the script in [`super::script`] drives it).
//!
//! A campaign has thousands of outcome rows, so the markup is lean: the
//! line's cells are bare elements placed by the style sheet, the tables
//! leave out end tags HTML does not need, and an outcome is its values
//! under a header of observables rather than `P1:r0=1; P1:r1=0` again
//! on every row.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::entry::{Entry, Row, Status};
use super::escape;
use super::summary::Groups;

/// The filter bar: a search box, then family, seen/unseen and device.
pub(super) fn filters(h: &mut String, entries: &[&Entry], devices: &[&str]) {
    let mut families: Vec<&str> = entries.iter().map(|e| e.group.family.as_str()).collect();
    families.sort_unstable();
    families.dedup();
    h.push_str("<section id=\"tests\"><h2>Tests</h2>\n<p class=\"legend\">One line per test; click it for every outcome seen (★: satisfies the condition; red: the model forbids it).</p>\n<div id=\"filters\"><input id=\"q\" type=\"search\" placeholder=\"search test names\"> <select id=\"ff\"><option value=\"\">every family</option>");
    for f in families {
        let f = escape(f);
        let _ = write!(h, "<option value=\"{f}\">{f}</option>");
    }
    h.push_str("</select> <select id=\"fs\"><option value=\"\">seen or not</option><option value=\"s\">condition&#39;s outcome seen</option><option value=\"u\">not seen</option><option value=\"bad\">forbidden outcome seen</option><option value=\"?\">no readable test</option></select> <select id=\"fd\"><option value=\"\">every device</option>");
    for (i, d) in devices.iter().enumerate() {
        let _ = write!(h, "<option value=\"{i}\">{}</option>", escape(d));
    }
    h.push_str(
        "</select> <button id=\"fg\" type=\"button\" hidden></button> <span id=\"n\"></span></div>\n\
         <div class=\"line head\"><i></i><i>test</i><i>condition&#39;s outcome</i><i>model</i><i>seen / instances</i><i>rate</i><i>devices</i></div>\n",
    );
}

/// One line per test, in `entries`' order; a test that showed a
/// forbidden outcome gets the anchor `ids` gives it, which the forbidden
/// table links to.
pub(super) fn lines(
    h: &mut String,
    entries: &[&Entry],
    groups: &Groups,
    devices: &[&str],
    ids: &BTreeMap<&str, usize>,
) {
    let device_index: BTreeMap<&str, usize> =
        devices.iter().enumerate().map(|(i, d)| (*d, i)).collect();
    for e in entries {
        line(
            h,
            e,
            ids[e.name.as_str()],
            groups.index[&e.group],
            &device_index,
        );
    }
    h.push_str("</section>\n");
}

fn line(h: &mut String, e: &Entry, id: usize, group: usize, device_index: &BTreeMap<&str, usize>) {
    let c = &e.condition;
    let devices: Vec<String> = e
        .devices
        .iter()
        .map(|d| device_index[d].to_string())
        .collect();
    // The family and the placement are the group's (the script reads them
    // from the summary), the name and the status the line's own cells: no
    // attribute repeats them, and only a line the forbidden table links to
    // has an anchor.
    if e.forbidden_seen().next().is_some() {
        let _ = write!(h, "<details class=bad id=\"t{id}\"");
    } else {
        h.push_str("<details");
    }
    let _ = write!(
        h,
        " data-g=\"{group}\" data-d=\"{}\"><summary>",
        devices.join(" "),
    );
    let (mark, word) = match (c.status, c.allowed) {
        (Status::Seen, Some(false)) => ("f", "seen"),
        (Status::Seen, _) => ("s", "seen"),
        (Status::Unseen, _) => ("u", "not seen"),
        (Status::Unknown, _) => ("q", "?"),
    };
    let outcome = match (c.outcomes.as_slice(), &c.text) {
        ([], Some(text)) => escape(text),
        ([], None) => "condition unknown".to_string(),
        ([one], _) => escape(one),
        ([first, rest @ ..], _) => format!("{} (+{} more)", escape(first), rest.len()),
    };
    let verdict = match c.allowed {
        Some(true) => "<i>allowed</i>",
        Some(false) => "<i class=f>forbidden</i>",
        None => "<i>?</i>",
    };
    // Cells are bare `<i>`s placed by the style sheet's grid: a class or a
    // `<span>` on each would weigh 40 bytes a test.
    let _ = writeln!(
        h,
        "<i class={mark}>{word}</i><b>{}</b><code>{outcome}</code>{verdict}<i>{} / {}</i><i>{}</i><i>{}</i></summary>",
        escape(&e.name),
        c.count,
        e.instances,
        short_rate(c.count, e.instances),
        escape(&e.devices.join(", ")),
    );
    body(h, e);
    h.push_str("</details>\n");
}

/// The folded part: what the line leaves out, and every outcome seen.
fn body(h: &mut String, e: &Entry) {
    if let Some(note) = &e.note {
        let _ = write!(h, "<p class=\"note\">{}</p>", escape(note));
    }
    let unfinished: u64 = e.records.iter().map(|r| r.unfinished).sum();
    // The condition, unless the line already shows it in place of an
    // outcome.
    let condition = match (&e.condition.text, e.condition.outcomes.is_empty()) {
        (Some(t), false) => format!("<code>{}</code>, ", escape(t)),
        _ => String::new(),
    };
    let _ = write!(
        h,
        "<p>{condition}{}, {}, {} record{}",
        escape(&e.group.placement),
        escape(&e.group.fences),
        e.records.len(),
        if e.records.len() == 1 { "" } else { "s" },
    );
    // A search trial ran the test under a candidate's knobs: its instances
    // count as any, but a reader comparing rates wants to know.
    let trials = e
        .records
        .iter()
        .filter(|r| r.kind == crate::record::Kind::Trial)
        .count();
    if trials > 0 {
        let _ = write!(
            h,
            " ({trials} of them search trial{})",
            if trials == 1 { "" } else { "s" }
        );
    }
    if unfinished > 0 {
        let _ = write!(h, ", {unfinished} instances gave up on a loop");
    }
    if !e.rows.is_empty() && e.rows.iter().all(|r| r.allowed == Some(true)) {
        h.push_str(", every outcome seen allowed");
    }
    h.push_str("</p>");
    if e.rows.is_empty() {
        h.push_str("<p>No outcome recorded.</p>");
        return;
    }
    table(h, e);
}

/// Every outcome seen: its values (or its text, when they do not match
/// the observables), count, per-device counts when several devices ran
/// the test (one device's column would repeat the count), and the
/// model's verdict, in a column only when some outcome is not allowed:
/// otherwise the paragraph above says that every one is, and a thousand
/// tables are spared a column of "yes". Rows satisfying the condition are
/// starred by the style sheet; forbidden ones are red.
fn table(h: &mut String, e: &Entry) {
    let columns = e.rows.iter().all(|r| by_values(&e.observables, r));
    let per_device = e.devices.len() > 1;
    let verdicts = e.rows.iter().any(|r| r.allowed != Some(true));
    h.push_str("<table><tr>");
    if columns {
        for o in &e.observables {
            let _ = write!(h, "<th>{}", escape(o));
        }
    } else {
        h.push_str("<th>outcome");
    }
    h.push_str("<th>count");
    if per_device {
        for d in &e.devices {
            let _ = write!(h, "<th>{}", escape(d));
        }
    }
    if verdicts {
        h.push_str("<th>allowed");
    }
    for r in &e.rows {
        let forbidden = r.allowed == Some(false);
        h.push_str(match (r.satisfies, forbidden) {
            (false, false) => "<tr>",
            (false, true) => "<tr class=f>",
            (true, false) => "<tr class=c>",
            (true, true) => "<tr class=\"c f\">",
        });
        if columns {
            for v in &r.seen.values {
                let _ = write!(h, "<td>{v}");
            }
        } else {
            let _ = write!(h, "<td>{}", escape(&r.seen.text));
        }
        let _ = write!(h, "<td>{}", r.seen.count);
        if per_device {
            for d in &e.devices {
                let _ = write!(h, "<td>{}", r.seen.devices.get(*d).copied().unwrap_or(0));
            }
        }
        if verdicts {
            h.push_str(match r.allowed {
                Some(true) => "<td>yes",
                Some(false) => "<td>no",
                None => "<td>?",
            });
        }
    }
    h.push_str("</table>");
}

/// Whether `row`'s values, under `observables`, say exactly what its text
/// says: then the table shows values alone, and nothing is lost.
fn by_values(observables: &[String], row: &Row) -> bool {
    !observables.is_empty()
        && observables.len() == row.seen.values.len()
        && observables
            .iter()
            .zip(&row.seen.values)
            .map(|(o, v)| format!("{o}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
            == row.seen.text
}

/// A rate in three significant digits (`1.23e-4`); `0` and `-` (no
/// instances) written plainly.
fn short_rate(hits: u64, trials: u64) -> String {
    match (hits, trials) {
        (_, 0) => "-".into(),
        (0, _) => "0".into(),
        _ => format!("{:.2e}", hits as f64 / trials as f64),
    }
}

#[cfg(test)]
mod tests {
    use super::short_rate;

    #[test]
    fn rates_are_short() {
        assert_eq!(short_rate(3, 1000), "3.00e-3");
        assert_eq!(short_rate(0, 1000), "0");
        assert_eq!(short_rate(0, 0), "-");
    }
}
