//! The mutants section: what `gpu-litmus mutants --out FILE` found for a
//! model, read back from its JSON, so that the page a person reads says
//! how strong the gate is beside the evidence that makes it so: the
//! score, the survivors (the wrong changes the gate would let through),
//! then every mutant folded.

use serde_json::Value;

use super::escape;

/// Whether `v` is a `gpu-litmus mutants` report.
pub fn is_report(v: &Value) -> bool {
    v["summary"]["mutants"].is_u64() && v["mutants"].is_array()
}

/// Appends the section for one report.
pub(super) fn section(h: &mut String, report: &Value) {
    let s = &report["summary"];
    let n = |k: &str| s[k].as_u64().unwrap_or(0);
    let model = report["model"].as_str().unwrap_or("the model");
    h.push_str(&format!(
        "<section class=\"mutants\">\n<h2>Mutants of <code>{}</code></h2>\n<p>{} mutants ({} equivalent on these tests): killed by evidence {}, by verdicts {}, survived {}; score <b>{:.3}</b>.</p>\n",
        escape(model),
        n("mutants"),
        n("equivalent"),
        n("killed_by_evidence"),
        n("killed_by_verdicts"),
        n("survived"),
        s["score"].as_f64().unwrap_or(0.0)
    ));
    let all: Vec<&Value> = report["mutants"]
        .as_array()
        .map_or(Vec::new(), |m| m.iter().collect());
    let survivors: Vec<&Value> = all
        .iter()
        .copied()
        .filter(|m| m["killed_by"].is_null() && m["class"] != "equivalent")
        .collect();
    if survivors.is_empty() {
        h.push_str("<p class=\"ok\">Every mutant that these tests can tell apart is killed.</p>\n");
    } else {
        h.push_str("<p class=\"bad\">Surviving mutants: changes the gate would let through.</p>\n");
        table(h, &survivors);
    }
    h.push_str(&format!(
        "<details><summary>Every mutant ({})</summary>\n",
        all.len()
    ));
    table(h, &all);
    h.push_str("</details>\n</section>\n");
}

/// One row a mutant: number, operator, where, class, what killed it and
/// the first killing test with its count.
fn table(h: &mut String, mutants: &[&Value]) {
    h.push_str("<table><tr><th>#</th><th>operator</th><th>where</th><th>class</th><th>killed by</th><th>first killing test</th><th>count</th></tr>\n");
    for m in mutants {
        let first = &m["kills"][0];
        h.push_str(&format!(
            "<tr title=\"{}\"><td>{}</td><td>{}</td><td>{}:{}:{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
            escape(m["description"].as_str().unwrap_or("")),
            m["number"].as_u64().unwrap_or(0),
            escape(m["operator"].as_str().unwrap_or("")),
            escape(m["file"].as_str().unwrap_or("")),
            m["line"].as_u64().unwrap_or(0),
            m["column"].as_u64().unwrap_or(0),
            escape(m["class"].as_str().unwrap_or("")),
            escape(m["killed_by"].as_str().unwrap_or("—")),
            escape(first["test"].as_str().unwrap_or("")),
            first["count"].as_u64().map_or(String::new(), |c| c.to_string()),
        ));
    }
    h.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_section_puts_the_score_and_the_survivors_first_and_escapes() {
        let report = json!({
            "model": "<m>.cat",
            "summary": {"mutants": 3, "equivalent": 1, "killed_by_evidence": 1, "killed_by_verdicts": 0, "survived": 2, "score": 0.5},
            "mutants": [
                {"number": 1, "operator": "drop-check", "file": "m.cat", "line": 3, "column": 1, "class": "weaker", "killed_by": "evidence", "kills": [{"test": "MP", "count": 42}], "description": "drop"},
                {"number": 2, "operator": "base-to-full", "file": "m.cat", "line": 5, "column": 7, "class": "stronger", "killed_by": null, "kills": [], "description": "sr <full>"},
                {"number": 3, "operator": "drop-opt", "file": "m.cat", "line": 6, "column": 2, "class": "equivalent", "killed_by": null, "kills": [], "description": "r?"},
            ],
        });
        assert!(is_report(&report));
        assert!(!is_report(&json!({"summary": {}})));
        let mut h = String::new();
        section(&mut h, &report);
        assert!(h.contains("score <b>0.500</b>"), "{h}");
        assert!(h.contains("&lt;m&gt;.cat") && !h.contains("<m>"), "{h}");
        let survivors = h.find("Surviving mutants").unwrap();
        let every = h.find("Every mutant (3)").unwrap();
        // Only the stronger survivor is listed before the folded table.
        assert_eq!(h[survivors..every].matches("<tr title").count(), 1, "{h}");
        assert!(h[survivors..every].contains("base-to-full"), "{h}");
        assert!(h[every..].contains("<td>MP</td><td>42</td>"), "{h}");
    }
}
