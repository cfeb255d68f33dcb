//! The top of the page, what a reader needs first: the totals, the
//! observed outcomes the model forbids (in red), the lines of the evidence
//! that are not records, and per family a grid of placement × fences that
//! says how many tests showed the outcome their condition names.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use litmus_model::Model;

use super::entry::{Entry, Status};
use super::group::{fence_order, Group};
use super::{escape, rate};
use crate::Evidence;

/// The summary's groups (family × placement × fences) in page order, so
/// that a test's line and its summary cell share an index.
pub(super) struct Groups<'e> {
    /// Every group, ordered by family, placement, then fences from none to
    /// the widest.
    pub order: Vec<&'e Group>,
    /// A group's place in `order`.
    pub index: BTreeMap<&'e Group, usize>,
}

impl<'e> Groups<'e> {
    /// The groups of `entries`.
    pub fn of(entries: &'e [Entry]) -> Groups<'e> {
        let mut order: Vec<&Group> = entries
            .iter()
            .map(|e| &e.group)
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        order.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
        let index = order.iter().enumerate().map(|(i, g)| (*g, i)).collect();
        Groups { order, index }
    }
}

/// Page order of groups (and of the tests in them).
pub(super) fn sort_key(g: &Group) -> (&str, &str, (u8, u8, &str)) {
    (&g.family, &g.placement, fence_order(&g.fences))
}

/// The title and the one-paragraph totals.
pub(super) fn header(h: &mut String, evidence: &Evidence, entries: &[Entry], model: &dyn Model) {
    let devices: BTreeSet<&str> = evidence.records.iter().map(|r| r.device.as_str()).collect();
    let count = |s: Status| entries.iter().filter(|e| e.condition.status == s).count();
    let bad = entries
        .iter()
        .filter(|e| e.forbidden_seen().next().is_some())
        .count();
    let _ = write!(
        h,
        "<h1>Hardware evidence</h1>\n<p class=\"totals\"><b>{}</b> tests, {} records, {} device{} ({}), judged by the model <b>{}</b>. \
         <b>{}</b> showed the outcome their condition names, {} did not",
        entries.len(),
        evidence.records.len(),
        devices.len(),
        if devices.len() == 1 { "" } else { "s" },
        escape(&devices.into_iter().collect::<Vec<_>>().join(", ")),
        escape(model.name()),
        count(Status::Seen),
        count(Status::Unseen),
    );
    let unknown = count(Status::Unknown);
    if unknown > 0 {
        let _ = write!(h, ", {unknown} have no readable test");
    }
    let _ = writeln!(
        h,
        "; <b class=\"{}\">{bad}</b> showed an outcome the model forbids.</p>",
        if bad > 0 { "bad" } else { "good" }
    );
}

/// Every observed outcome the model forbids, first on the page and in
/// red; a line saying so when there is none.
pub(super) fn forbidden(h: &mut String, entries: &[Entry], ids: &BTreeMap<&str, usize>) {
    let bad: Vec<_> = entries
        .iter()
        .flat_map(|e| e.forbidden_seen().map(move |r| (e, r)))
        .collect();
    if bad.is_empty() {
        h.push_str("<p class=\"ok\">No outcome the model forbids was ever observed.</p>\n");
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"forbidden\"><h2>Observed, but the model forbids them ({})</h2>\n<table><tr><th>test<th>outcome<th>seen<th>rate (95% Wilson)<th>devices</tr>",
        bad.len()
    );
    for (e, r) in bad {
        let name = escape(&e.name);
        let _ = writeln!(
            h,
            "<tr data-test=\"{name}\"><td><a href=\"#t{}\">{name}</a><td><code>{}</code><td>{}<td>{}<td>{}</tr>",
            ids[e.name.as_str()],
            escape(&r.seen.text),
            r.seen.count,
            rate(r.seen.count, e.instances),
            r.seen
                .devices
                .iter()
                .map(|(d, c)| format!("{}: {c}", escape(d)))
                .collect::<Vec<_>>()
                .join("<br>")
        );
    }
    h.push_str("</table></section>\n");
}

/// The lines of the evidence that are not records; folded when there are
/// many (a damaged file can have thousands).
pub(super) fn problems(h: &mut String, evidence: &Evidence) {
    if evidence.problems.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<section id=\"problems\"><details{}><summary>{} line{} of the evidence {} not records</summary><ul>",
        if evidence.problems.len() <= 10 { " open" } else { "" },
        evidence.problems.len(),
        if evidence.problems.len() == 1 { "" } else { "s" },
        if evidence.problems.len() == 1 { "is" } else { "are" },
    );
    for p in &evidence.problems {
        let _ = writeln!(h, "<li>{}</li>", escape(&p.to_string()));
    }
    h.push_str("</ul></details></section>\n");
}

/// What one summary cell counts.
#[derive(Default)]
struct Tally {
    seen: usize,
    unseen: usize,
    unknown: usize,
    /// Tests that showed an outcome the model forbids.
    bad: usize,
}

impl Tally {
    fn add(&mut self, e: &Entry) {
        match e.condition.status {
            Status::Seen => self.seen += 1,
            Status::Unseen => self.unseen += 1,
            Status::Unknown => self.unknown += 1,
        }
        if e.forbidden_seen().next().is_some() {
            self.bad += 1;
        }
    }

    /// `3/4`, with `+1?` for tests whose condition is unknown.
    fn text(&self) -> String {
        let mut s = format!("{}/{}", self.seen, self.seen + self.unseen);
        if self.unknown > 0 {
            let _ = write!(s, " +{}?", self.unknown);
        }
        s
    }
}

/// One grid per family: placements down, fences across, each cell the
/// tests of that group that showed their condition's outcome out of those
/// run, its background darker the larger that share.
pub(super) fn grids(h: &mut String, entries: &[Entry], groups: &Groups) {
    let mut tallies: Vec<Tally> = groups.order.iter().map(|_| Tally::default()).collect();
    for e in entries {
        tallies[groups.index[&e.group]].add(e);
    }
    let mut families: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, g) in groups.order.iter().enumerate() {
        families.entry(&g.family).or_default().push(i);
    }
    h.push_str(
        "<section id=\"summary\"><h2>Which tests showed their condition&#39;s outcome</h2>\n\
         <p class=\"legend\">Per family, placement (down) × fences (across): tests that showed the outcome their condition names / tests run \
         <span class=\"scale\"><span>0</span><span>all</span></span> \
         <span class=\"cell bad\">red border</span>: some test showed an outcome the model forbids. \
         Click a cell to list its tests.</p>\n<div class=\"grids\">\n",
    );
    for (family, members) in families {
        let mut total = Tally::default();
        for e in entries.iter().filter(|e| e.group.family == family) {
            total.add(e);
        }
        let mut fences: Vec<&str> = members
            .iter()
            .map(|&i| groups.order[i].fences.as_str())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        fences.sort_by_key(|f| fence_order(f));
        let mut placements: Vec<&str> = members
            .iter()
            .map(|&i| groups.order[i].placement.as_str())
            .collect();
        placements.dedup();
        let family_html = escape(family);
        let _ = write!(
            h,
            "<table class=\"family\" data-family=\"{family_html}\"><caption>{family_html} <small>{}</small></caption><tr><th>",
            total.text()
        );
        for f in &fences {
            let _ = write!(h, "<th>{}", escape(f));
        }
        h.push_str("</tr>\n");
        for p in placements {
            let _ = write!(h, "<tr><th>{}", escape(p));
            for f in &fences {
                let cell = members
                    .iter()
                    .copied()
                    .find(|&i| groups.order[i].placement == p && groups.order[i].fences == *f);
                match cell {
                    None => h.push_str("<td class=\"e\">"),
                    Some(i) => cell_html(h, i, groups.order[i], &tallies[i]),
                }
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</table>\n");
    }
    h.push_str("</div></section>\n");
}

fn cell_html(h: &mut String, index: usize, group: &Group, t: &Tally) {
    let run = t.seen + t.unseen;
    let (style, dark) = if run == 0 {
        (String::new(), false)
    } else {
        let share = t.seen as f64 / run as f64;
        let lightness = lightness(share);
        (
            format!(" style=\"background:hsl(212,70%,{lightness:.0}%)\""),
            lightness < 62.0,
        )
    };
    let mut class = String::from("cell");
    if dark {
        class.push_str(" dk");
    }
    if t.bad > 0 {
        class.push_str(" bad");
    }
    if run == 0 {
        class.push_str(" q");
    }
    let _ = write!(
        h,
        "<td class=\"{class}\" data-g=\"{index}\" title=\"{} · {} · {}\"{style}>{}",
        escape(&group.family),
        escape(&group.placement),
        escape(&group.fences),
        t.text()
    );
}

/// The cell's lightness for the share of its tests that showed their
/// condition's outcome: near white for none, deep blue for all.
fn lightness(share: f64) -> f64 {
    96.0 - 52.0 * share.clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::lightness;

    #[test]
    fn more_seen_is_darker() {
        assert!(lightness(0.0) > lightness(0.5));
        assert!(lightness(0.5) > lightness(1.0));
        assert_eq!(lightness(2.0), lightness(1.0));
    }
}
