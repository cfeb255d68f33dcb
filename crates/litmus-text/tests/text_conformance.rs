//! The Dat3M PTX corpus: every file that the PTX 6.0, PTX 7.5 and
//! termination verdict lists name parses, prints, and parses back to the
//! same IR.
//!
//! Run with `LITMUS_CONFORMANCE_DIR=/path/to/dat3m-ptx cargo test -p litmus-text`.

#[path = "text_support/corpus.rs"]
mod corpus;

use std::path::PathBuf;

use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;
use litmus_text as text;

/// The corpus, parsed; `None` (after saying so) when the variable is unset.
fn corpus() -> Option<Vec<(PathBuf, String, Test)>> {
    let Some(dir) = std::env::var_os(corpus::CORPUS_ENV) else {
        println!("conformance: skipped, {} is not set", corpus::CORPUS_ENV);
        return None;
    };
    let files =
        corpus::listed_files(dir.as_ref(), &corpus::TEXT_LISTS).unwrap_or_else(|e| panic!("{e}"));
    let mut failures = String::new();
    let mut tests = Vec::new();
    for (path, src) in files {
        match text::parse(&src) {
            Ok(t) => tests.push((path, src, t)),
            Err(e) => failures.push_str(&e.render(&path.display().to_string())),
        }
    }
    assert!(
        failures.is_empty(),
        "corpus files do not parse:\n{failures}"
    );
    Some(tests)
}

/// One test, so that a run without the corpus says "skipped" once.
#[test]
fn conformance() {
    let Some(tests) = corpus() else { return };
    round_trip(&tests);
    figures(&tests);
    proxy_figures(&tests);
    origins(&tests);
    println!(
        "conformance: {} files parsed and round-tripped",
        tests.len()
    );
}

fn round_trip(tests: &[(PathBuf, String, Test)]) {
    for (path, _, test) in tests {
        let printed = text::print(test);
        let again = text::parse(&printed).unwrap_or_else(|e| {
            panic!(
                "{}: the printed test does not parse:\n{}\n{printed}",
                path.display(),
                e.render("<printed>")
            )
        });
        assert_eq!(&again, test, "{}: printed as\n{printed}", path.display());
        // Dat3M's tests print in Dat3M's syntax: no extension is needed.
        for ext in [
            "=>", "shared", ",warp", ",cluster", "mov ", "bar.warp", "PTX \"",
        ] {
            assert!(
                !printed.contains(ext),
                "{}: `{ext}` in\n{printed}",
                path.display()
            );
        }
        // Printing is a fixed point after one round.
        assert_eq!(text::print(&again), printed, "{}", path.display());
    }
}

/// Figures counted on the PTX 6.0 files themselves: 18 tests branch (as
/// the corpus README says) and 6 place a thread on `gpu 1` (the README
/// says 2; `grep -l 'gpu *1'` finds 6); every file of the forward-progress
/// folder (CADP) spins in a loop. Checks that the reader understood rows,
/// labels and placements, not just that it accepted them.
fn figures(tests: &[(PathBuf, String, Test)]) {
    let dir = PathBuf::from(std::env::var_os(corpus::CORPUS_ENV).unwrap());
    let v6: std::collections::HashSet<PathBuf> =
        litmus_core::corpus::read_list(&dir, litmus_core::corpus::PTX_V6)
            .unwrap()
            .into_iter()
            .map(|e| dir.join(e.path))
            .collect();
    assert_eq!(v6.len(), 104, "the PTX 6.0 list names 104 tests");
    let branches = |t: &Test| {
        t.threads.iter().any(|th| {
            th.body
                .iter()
                .any(|i| matches!(i.kind, InstrKind::Branch { .. }))
        })
    };
    let cadp: Vec<_> = tests
        .iter()
        .filter(|(p, _, _)| p.components().any(|c| c.as_os_str() == "CADP"))
        .collect();
    assert_eq!(cadp.len(), 35);
    assert!(cadp.iter().all(|(_, _, t)| branches(t)));
    let tests: Vec<_> = tests.iter().filter(|(p, _, _)| v6.contains(p)).collect();
    assert_eq!(tests.len(), 104, "every PTX 6.0 file was read");
    let branching = tests.iter().filter(|(_, _, t)| branches(t)).count();
    assert_eq!(branching, 18);
    let two_gpus = tests
        .iter()
        .filter(|(_, _, t)| t.threads.iter().any(|th| th.placement.gpu == 1))
        .count();
    assert_eq!(two_gpus, 6);
}

/// The PTX 7.5 proxy files (`Manual/proxy`, `Nvidia/proxy`: 68 of the 172
/// tests) each declare an alias and reach memory through a second proxy
/// or alias; counted per construct, as `grep` counts them in the files.
fn proxy_figures(tests: &[(PathBuf, String, Test)]) {
    use litmus_core::proxy::Proxy;
    let proxy: Vec<&Test> = tests
        .iter()
        .filter(|(p, _, _)| p.components().any(|c| c.as_os_str() == "proxy"))
        .map(|(_, _, t)| t)
        .collect();
    assert_eq!(proxy.len(), 68, "the proxy folders hold 68 listed tests");
    assert!(proxy
        .iter()
        .all(|t| t.locations.iter().any(|l| l.alias.is_some())));
    let count = |f: &dyn Fn(&InstrKind) -> bool| -> usize {
        proxy
            .iter()
            .flat_map(|t| t.threads.iter().flat_map(|th| th.body.iter()))
            .filter(|i| f(&i.kind))
            .count()
    };
    let loads = |p: Proxy| move |k: &InstrKind| matches!(k, InstrKind::ProxyLoad { proxy, .. } if *proxy == p);
    assert_eq!(count(&loads(Proxy::Surface)), 14, "suld");
    assert_eq!(count(&loads(Proxy::Texture)), 28, "tld");
    assert_eq!(count(&loads(Proxy::Constant)), 5, "cold");
    assert_eq!(
        count(&|k| matches!(k, InstrKind::ProxyStore { .. })),
        44,
        "sust"
    );
    assert_eq!(
        count(&|k| matches!(k, InstrKind::ProxyFence(_))),
        22 + 5 + 44 + 22,
        "fence.proxy"
    );
}

/// Every origin the reader stores points at the text it came from: the
/// first instruction of each thread starts with its mnemonic.
fn origins(tests: &[(PathBuf, String, Test)]) {
    for (path, src, test) in tests {
        for thread in &test.threads {
            assert!(src[thread.name.origin.0 as usize..].starts_with(&thread.name.text));
            for i in &thread.body {
                let at = &src[i.origin.0 as usize..];
                let word = match &i.kind {
                    InstrKind::Load { .. } | InstrKind::Mov { .. } => "ld",
                    InstrKind::Store { .. } => "st",
                    InstrKind::ProxyLoad { proxy, .. } => proxy.load_word(),
                    InstrKind::ProxyStore { .. } => "sust",
                    InstrKind::ProxyFence(_) => "fence.proxy.",
                    InstrKind::Label(l) => l.text.as_str(),
                    _ => "",
                };
                assert!(at.starts_with(word), "{}: {at:.20}", path.display());
            }
        }
    }
}
