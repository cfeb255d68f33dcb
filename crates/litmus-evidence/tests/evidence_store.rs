//! The evidence store through the library: what the runner records for a
//! hardware run reads back whole and is judged by the gate; writers of one
//! folder never share a file; the Dat3M corpus's verdict flips between
//! `ptx` and `ptx-2015` are exactly the differences of the allowed sets.

use std::path::PathBuf;

use litmus_evidence::gate::{gate, FlipKind, Question, Subject};
use litmus_evidence::store::{append, Writer};
use litmus_evidence::{ir_hash, Evidence, Record, Run};
use litmus_model::{check, model_by_name, Options};

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-ev-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The record of what the GPU harness returns for MP: the weak outcome
/// `weak` times.
fn hw(test: &litmus_core::ir::Test, weak: u64, device: &str) -> Record {
    let histogram = [
        (vec![1, 1], 900),
        (vec![0, 0], 100 - weak),
        (vec![1, 0], weak),
    ];
    let run = Run {
        histogram: &histogram,
        instances: 1000,
        unfinished: 0,
        device,
        knobs: "ctas=1",
        seed: 42,
    };
    Record::of_run(test, &run, "mp.litmus")
}

#[test]
fn a_recorded_run_reads_back_whole_and_the_gate_judges_it() {
    let test = litmus_text::parse(MP).unwrap();
    let dir = scratch("recorded");
    append(&dir, hw(&test, 6, "NVIDIA H100")).unwrap();
    append(&dir, hw(&test, 0, "NVIDIA A100")).unwrap();
    let evidence = Evidence::read(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(evidence.files, 1, "one process, one file");
    assert!(evidence.problems.is_empty());
    let r = &evidence.records;
    assert_eq!(r.len(), 2);
    assert_eq!((r[0].seq, r[1].seq), (0, 1));
    assert_eq!(r[0].ir_hash, ir_hash(&test));
    assert_eq!(r[0].seed, Some(42));
    assert_eq!(r[0].observables, ["P1:r0", "P1:r1"]);
    assert_eq!(r[0].histogram[2].text, "P1:r0=1; P1:r1=0");
    assert_eq!(r[0].observed(), 1000);
    assert_eq!(
        litmus_text::parse(r[0].text.as_deref().unwrap()).unwrap(),
        test
    );
    let subjects = [Subject::new("mp.litmus", test)];
    let options = Options::default();
    let sc = model_by_name("sc").unwrap();
    let report = gate(
        &subjects,
        &evidence,
        &Question {
            model: sc,
            baseline: None,
            options: &options,
        },
    );
    assert_eq!(report.violations.len(), 1);
    let v = &report.violations[0];
    assert_eq!(v.seen.count, 6);
    assert_eq!(v.seen.devices.get("NVIDIA H100"), Some(&6));
    assert!(
        v.explanation.contains("Sequential consistency"),
        "{}",
        v.explanation
    );
    assert_eq!(report.devices.len(), 2);
    let ptx = model_by_name("ptx").unwrap();
    assert!(gate(
        &subjects,
        &evidence,
        &Question {
            model: ptx,
            baseline: None,
            options: &options
        }
    )
    .passed());
}

#[test]
fn writers_of_one_folder_never_share_a_file() {
    let dir = scratch("writers");
    let writers: Vec<Writer> = (0..20).map(|_| Writer::create(&dir).unwrap()).collect();
    let mut paths: Vec<_> = writers.iter().map(|w| w.path().to_path_buf()).collect();
    paths.sort();
    paths.dedup();
    assert_eq!(paths.len(), 20);
}

#[test]
fn dat3m_flips_from_ptx_to_ptx_2015_are_the_allowed_sets_differences() {
    let Some(dir) = std::env::var_os("LITMUS_CONFORMANCE_DIR").map(PathBuf::from) else {
        eprintln!("skipped: LITMUS_CONFORMANCE_DIR is unset (the Dat3M corpus)");
        return;
    };
    let entries = litmus_core::corpus::read_list(&dir, litmus_core::corpus::PTX_V6).unwrap();
    let subjects: Vec<Subject> = entries
        .iter()
        .map(|e| {
            let text = std::fs::read_to_string(dir.join(&e.path)).unwrap();
            Subject::new(e.path.clone(), litmus_text::parse(&text).unwrap())
        })
        .collect();
    let (old, new) = (
        model_by_name("ptx").unwrap(),
        model_by_name("ptx-2015").unwrap(),
    );
    let options = Options::default();
    let q = Question {
        model: new,
        baseline: Some(old),
        options: &options,
    };
    let report = gate(&subjects, &Evidence::default(), &q);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    let mut expected = 0;
    for s in &subjects {
        let (a, b) = (
            check(&s.test, old, &options).unwrap(),
            check(&s.test, new, &options).unwrap(),
        );
        let flips: Vec<_> = report.flips.iter().filter(|f| f.file == s.file).collect();
        let newly_allowed = b.allowed.difference(&a.allowed).count();
        let newly_forbidden = a.allowed.difference(&b.allowed).count();
        assert_eq!(
            flips
                .iter()
                .filter(|f| f.kind == FlipKind::NewlyAllowed)
                .count(),
            newly_allowed,
            "{}",
            s.file
        );
        assert_eq!(
            flips
                .iter()
                .filter(|f| f.kind == FlipKind::NewlyForbidden)
                .count(),
            newly_forbidden,
            "{}",
            s.file
        );
        assert!(
            flips.iter().all(|f| f.observed.is_none()),
            "no evidence here"
        );
        expected += newly_allowed + newly_forbidden;
    }
    assert_eq!(report.flips.len(), expected);
    assert!(expected > 0, "the two models differ on the corpus");
}

/// `gzip -9` of `bytes`.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut w = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    w.write_all(bytes).unwrap();
    w.finish().unwrap()
}

#[test]
fn a_gzipped_folder_reads_as_the_plain_one_and_a_cut_one_keeps_its_whole_records() {
    let test = litmus_text::parse(MP).unwrap();
    let dir = scratch("gzipped");
    for weak in 0..60 {
        append(&dir.join("plain"), hw(&test, weak, "NVIDIA H200")).unwrap();
    }
    let plain = Evidence::read(&[dir.join("plain")]).unwrap();
    assert_eq!(plain.records.len(), 60);
    let file = std::fs::read_dir(dir.join("plain"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let packed = gzip(&std::fs::read(&file).unwrap());
    std::fs::create_dir_all(dir.join("packed")).unwrap();
    std::fs::write(dir.join("packed/run.jsonl.gz"), &packed).unwrap();
    // Another extension ending in .gz is not evidence.
    std::fs::write(dir.join("packed/notes.txt.gz"), gzip(b"not a record\n")).unwrap();

    let read = Evidence::read(&[dir.join("packed")]).unwrap();
    assert_eq!(
        (read.files, read.problems.len()),
        (1, 0),
        "{:?}",
        read.problems
    );
    assert_eq!(read.records, plain.records);
    let both = Evidence::read(&[dir.join("plain"), dir.join("packed")]).unwrap();
    assert_eq!((both.records.len(), both.duplicates), (60, 60));

    let cut = dir.join("cut/run.jsonl.gz");
    std::fs::create_dir_all(cut.parent().unwrap()).unwrap();
    std::fs::write(&cut, &packed[..packed.len() * 2 / 3]).unwrap();
    let read = Evidence::read(std::slice::from_ref(&cut)).unwrap();
    let n = read.records.len();
    assert!(0 < n && n < 60, "{n} records of a file cut at two thirds");
    assert_eq!(
        read.records[..],
        plain.records[..n],
        "the first ones, whole"
    );
    let errors: Vec<String> = read.errors().map(|p| p.to_string()).collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("{}: not whole gzip data (", cut.display()))
            && errors[0].ends_with("; the records before it are read"),
        "{}",
        errors[0]
    );
}
