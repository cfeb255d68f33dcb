//! The evidence page as a reader meets it: the summary first (forbidden
//! outcomes at the very top), then one line per test with its outcome
//! table folded; a campaign of 1,300 generated tests in well under 1 MB,
//! every test and every observed outcome on it, and nothing in a record
//! able to inject markup.

mod html_support;

use std::sync::OnceLock;

use html_support::Shows;

use litmus_evidence::{html, Evidence, Observation, Record};
use litmus_model::{model_by_name, Options};

/// The synthetic campaign and its page, made once for every test here.
fn campaign() -> &'static (Evidence, String) {
    static PAGE: OnceLock<(Evidence, String)> = OnceLock::new();
    PAGE.get_or_init(|| {
        let tests = html_support::tests();
        assert!(tests.len() >= 1_000, "only {} tests", tests.len());
        let evidence = html_support::evidence(&tests, Shows::LikeHardware, true);
        let page = html::page(&evidence, ptx(), &Options::default());
        (evidence, page)
    })
}

fn ptx() -> &'static dyn litmus_model::Model {
    model_by_name("ptx").expect("ptx is built in")
}

/// Each test's line and folded table: the tests section from `<details`
/// to its `</details>`, by the test's name.
fn lines(page: &str) -> Vec<(&str, &str)> {
    let tests = &page[page
        .find("<section id=\"tests\">")
        .expect("a tests section")..];
    tests
        .match_indices("<details")
        .map(|(at, _)| {
            let end = at + tests[at..].find("</details>").expect("a closed line");
            let chunk = &tests[at..end];
            let name_at = chunk.find("<b>").expect("a named line") + 3;
            let name = &chunk[name_at..name_at + chunk[name_at..].find("</b>").unwrap()];
            (name, chunk)
        })
        .collect()
}

#[test]
fn a_campaign_of_1300_generated_tests_is_a_page_well_under_a_megabyte() {
    let (evidence, page) = campaign();
    let tests: std::collections::BTreeSet<&str> =
        evidence.records.iter().map(|r| r.test.as_str()).collect();
    eprintln!(
        "{} tests, {} records: {} bytes ({} a test)",
        tests.len(),
        evidence.records.len(),
        page.len(),
        page.len() / tests.len()
    );
    assert!(page.len() < 1_000_000, "{} bytes", page.len());
    assert!(!page.contains("http"), "the page needs no network");
    assert!(page.ends_with("</html>\n"));
}

#[test]
fn every_test_has_one_line_and_every_observed_outcome_is_in_its_table() {
    let (evidence, page) = campaign();
    let lines: std::collections::BTreeMap<&str, &str> = lines(page).into_iter().collect();
    let tests: std::collections::BTreeSet<&str> =
        evidence.records.iter().map(|r| r.test.as_str()).collect();
    assert_eq!(lines.len(), tests.len(), "one line per test");
    // Each outcome's count over the test's records: its row in the table.
    let mut counts: std::collections::BTreeMap<(&str, &[u32]), u64> = Default::default();
    for r in &evidence.records {
        for o in &r.histogram {
            *counts.entry((&r.test, &o.values)).or_default() += o.count;
        }
    }
    for ((test, values), count) in counts {
        let line = lines
            .get(test)
            .unwrap_or_else(|| panic!("{test} has no line"));
        let table = &line[line.find("<table>").expect("an outcome table")..];
        let row: String = values.iter().map(|v| format!("<td>{v}")).collect();
        assert!(
            table.contains(&format!(">{row}<td>{count}<")),
            "{test}: {values:?} ({count} times) is lost"
        );
    }
}

#[test]
fn the_summary_comes_first_with_the_forbidden_outcomes_at_the_very_top() {
    let (_, page) = campaign();
    let forbidden = page
        .find("<section id=\"forbidden\"")
        .expect("a forbidden section");
    let summary = page.find("id=\"summary\"").expect("a summary");
    let first_line = page.find("<details data-g").expect("test lines");
    let body = page.find("<body>").unwrap();
    // Only the title and the totals come before the forbidden outcomes.
    assert!(
        !page[body..forbidden].contains("<section"),
        "{}",
        &page[body..forbidden]
    );
    assert!(forbidden < summary && summary < first_line);
    // Every test that showed a forbidden outcome is listed there, and
    // its line is marked.
    let section = &page[forbidden..summary];
    for (name, line) in lines(page) {
        let marked = line.starts_with("<details class=bad");
        assert_eq!(
            section.contains(&format!("data-test=\"{name}\"")),
            marked,
            "{name}"
        );
    }
    assert!(section.matches("<tr data-test=").count() >= 5);
}

#[test]
fn outcome_tables_are_folded_under_their_lines() {
    let (_, page) = campaign();
    let tests_at = page.find("id=\"tests\"").expect("a tests section");
    let folded: usize = lines(page)
        .iter()
        .map(|(_, chunk)| chunk.matches("<table>").count())
        .sum();
    // Every table of the tests section is inside some line's <details>.
    assert_eq!(page[tests_at..].matches("<table>").count(), folded);
    assert_eq!(folded, lines(page).len());
}

#[test]
fn the_summary_grid_counts_the_tests_that_showed_their_condition() {
    let (_, page) = campaign();
    let summary = &page[page.find("id=\"summary\"").unwrap()..page.find("id=\"tests\"").unwrap()];
    for family in html_support::SHAPES {
        assert!(
            summary.contains(&format!(
                "<table class=\"family\" data-family=\"{family}\">"
            )),
            "{family} has no grid"
        );
    }
    // The cells add up to the tests: `seen/run` in each.
    let run: usize = summary
        .split("<td class=\"cell")
        .skip(1)
        .map(|cell| {
            let text = &cell[cell.find('>').unwrap() + 1..];
            let text = &text[..text.find(['<', ' ']).unwrap_or(text.len())];
            let (seen, run) = text.split_once('/').expect("seen/run");
            let (seen, run): (usize, usize) = (seen.parse().unwrap(), run.parse().unwrap());
            assert!(seen <= run);
            run
        })
        .sum();
    assert_eq!(run, lines(page).len());
}

fn hostile() -> Record {
    Record {
        run: "r".into(),
        seq: 0,
        test: "<script>alert('x')</script>\"".into(),
        ir_hash: "00".into(),
        source: "s".into(),
        text: None,
        observables: vec!["<marquee>".into()],
        histogram: vec![Observation {
            values: vec![1],
            text: "<img src=x onerror=alert(1)>".into(),
            count: 1,
        }],
        instances: 10,
        unfinished: 0,
        device: "<iframe>&\"'".into(),
        driver: None,
        build: None,
        knobs: None,
        seed: None,
        date: "2026-11-23T12:00:00Z".into(),
        version: "0".into(),
        harness: "h".into(),
        kind: Default::default(),
    }
}

#[test]
fn names_devices_and_outcomes_cannot_inject_markup() {
    let mut broken = hostile();
    broken.seq = 1;
    broken.test = "broken".into();
    // A test text that does not parse: its error message is shown too.
    broken.text = Some("PTX <svg onload=alert(1)>\n{".into());
    let evidence = Evidence {
        records: vec![hostile(), broken],
        ..Evidence::default()
    };
    let page = html::page(&evidence, ptx(), &Options::default());
    assert_eq!(
        page.matches("<script").count(),
        1,
        "only the page's own script"
    );
    for raw in ["<img", "<iframe", "<svg", "<marquee", "alert('x')"] {
        assert!(!page.contains(raw), "{raw} got through");
    }
    assert!(page.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;"));
    assert!(page.contains("&lt;img src=x onerror=alert(1)&gt;"));
    assert!(page.contains("&lt;iframe&gt;&amp;&quot;&#39;"));
}

#[test]
fn a_page_with_nothing_forbidden_says_so_before_the_summary() {
    let tests = html_support::tests();
    let evidence = html_support::evidence(&tests[..40], Shows::LikeHardware, false);
    let page = html::page(&evidence, ptx(), &Options::default());
    assert!(!page.contains("id=\"forbidden\""));
    let ok = page
        .find("No outcome the model forbids was ever observed")
        .unwrap();
    assert!(ok < page.find("id=\"summary\"").unwrap());
    assert_eq!(lines(&page).len(), 40);
}

#[test]
fn a_test_s_search_trials_are_told_from_its_runs() {
    let mut trial = hostile();
    trial.seq = 1;
    trial.kind = litmus_evidence::Kind::Trial;
    let mut campaign = hostile();
    campaign.seq = 2;
    campaign.kind = litmus_evidence::Kind::Campaign;
    let evidence = Evidence {
        records: vec![hostile(), trial.clone(), campaign],
        ..Evidence::default()
    };
    let page = html::page(&evidence, ptx(), &Options::default());
    assert!(
        page.contains(", 3 records (1 of them search trial)"),
        "{page}"
    );
    let mut second = trial;
    second.seq = 3;
    second.kind = litmus_evidence::Kind::Run;
    let evidence = Evidence {
        records: vec![hostile(), second],
        ..Evidence::default()
    };
    let page = html::page(&evidence, ptx(), &Options::default());
    assert!(!page.contains("search trial"), "only runs: {page}");
}

/// A campaign run with `--tune` records the search's trials beside the
/// campaign's runs: a test whose condition's outcome only a trial showed is
/// a test seen, on its line and in its count, since the instances the
/// search ran are evidence like any other.
#[test]
fn a_test_seen_only_in_a_search_trial_is_seen_on_its_line() {
    let tests = html_support::tests();
    let sc = model_by_name("sc").expect("sc is built in");
    // A test whose condition ptx allows and sc forbids: the campaign's
    // record below shows only sc's outcomes, the trial the weak one.
    let test = tests
        .iter()
        .find(|t| {
            let weak = html_support::condition_outcome(t);
            let ptx_allows = litmus_model::check(t, ptx(), &Options::default())
                .is_ok_and(|c| weak.as_ref().is_some_and(|w| c.allowed.contains(w)));
            let sc_forbids = litmus_model::check(t, sc, &Options::default())
                .is_ok_and(|c| weak.as_ref().is_some_and(|w| !c.allowed.contains(w)));
            ptx_allows && sc_forbids
        })
        .expect("a generated test with a weak outcome");
    let weak = html_support::condition_outcome(test).unwrap();
    let mut trial = html_support::evidence(std::slice::from_ref(test), Shows::LikeHardware, false)
        .records
        .remove(0);
    assert!(trial.histogram.iter().any(|o| o.values == weak));
    let mut run = trial.clone();
    run.seq = 1;
    run.kind = litmus_evidence::Kind::Campaign;
    run.histogram.retain(|o| o.values != weak);
    trial.kind = litmus_evidence::Kind::Trial;
    let weak_count = trial
        .histogram
        .iter()
        .find(|o| o.values == weak)
        .unwrap()
        .count;

    let only_run = Evidence {
        records: vec![run.clone()],
        ..Evidence::default()
    };
    let page = html::page(&only_run, ptx(), &Options::default());
    let (_, line) = lines(&page)[0];
    assert!(line.contains("<i class=u>not seen</i>"), "{line}");

    let with_trial = Evidence {
        records: vec![run, trial],
        ..Evidence::default()
    };
    let page = html::page(&with_trial, ptx(), &Options::default());
    let (name, line) = lines(&page)[0];
    assert_eq!(name, test.name.text);
    assert!(line.contains("<i class=s>seen</i>"), "{line}");
    assert!(line.contains(&format!("<i>{weak_count} / ")), "{line}");
    assert!(page.contains("(1 of them search trial)"), "{page}");
}
