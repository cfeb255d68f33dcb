//! Fuzzing the evidence readers: valid evidence files and litmus7 logs,
//! mutated byte by byte and line by line, must give records or problems
//! with lines that exist, never a panic. Shared by the CI-sized test and
//! the long example.

#![allow(dead_code)] // each user takes its own part

use std::path::Path;

use litmus_evidence::{html, litmus7, Evidence, Observation, Record};

/// xorshift64*: reproducible inputs without a dependency.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const MP: &str = "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, y ;\n st.weak y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

/// Valid inputs to start from: an evidence file of three records and a
/// litmus7 log.
pub fn seeds() -> Vec<Vec<u8>> {
    let test = litmus_text::parse(MP).expect("MP parses");
    let mut file = String::new();
    for seq in 0..3u64 {
        let r = Record {
            run: "host-1-2".into(),
            seq,
            test: "MP".into(),
            ir_hash: litmus_evidence::ir_hash(&test),
            source: "mp.litmus".into(),
            text: Some(litmus_text::print(&test)),
            observables: vec!["P1:r0".into(), "P1:r1".into()],
            histogram: vec![
                Observation {
                    values: vec![1, 0],
                    text: "P1:r0=1; P1:r1=0".into(),
                    count: 3 + seq,
                },
                Observation {
                    values: vec![0, 0],
                    text: "P1:r0=0; P1:r1=0".into(),
                    count: 97,
                },
            ],
            instances: 100 + seq,
            unfinished: 0,
            device: "NVIDIA H100".into(),
            driver: Some("550.54.15".into()),
            build: None,
            knobs: Some("ctas=2048 threads=64".into()),
            seed: Some(seq),
            date: "2026-11-23T12:00:00Z".into(),
            version: "0.1.0".into(),
            harness: "gpu-litmus".into(),
            kind: Default::default(),
        };
        file.push_str(&r.to_json().to_string());
        file.push('\n');
    }
    let log = "Test MP Allowed\nHistogram (2 states)\n3 *>1:r0=1; 1:r1=0;\n97 :>1:r0=0; 1:r1=0;\nOk\nWitnesses\nPositive: 3, Negative: 97\nObservation MP Sometimes 3 97\n";
    vec![file.into_bytes(), log.as_bytes().to_vec()]
}

/// One mutation of `input`: flipped, inserted, deleted or repeated bytes,
/// a cut, lines swapped or doubled, digits and JSON punctuation planted.
pub fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut out = input.to_vec();
    for _ in 0..=rng.below(4) {
        let at = rng.below(out.len() + 1);
        match rng.below(8) {
            0 if !out.is_empty() => {
                let i = at.min(out.len() - 1);
                out[i] ^= 1 << rng.below(8);
            }
            1 => out.insert(at, rng.next() as u8),
            2 if at < out.len() => {
                let end = (at + rng.below(16)).min(out.len());
                out.drain(at..end);
            }
            3 => out.truncate(at),
            4 => {
                let tokens: [&[u8]; 10] = [
                    b"{",
                    b"}",
                    b"\"",
                    b",",
                    b":",
                    b"\n",
                    b"99999999999999999999999",
                    b"-1",
                    b"null",
                    b"Histogram (7 states)\n",
                ];
                let t = tokens[rng.below(tokens.len())];
                out.splice(at..at, t.iter().copied());
            }
            5 => {
                let lines: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
                let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                let mut l: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                l.swap(i, j);
                out = l.join(&b'\n');
            }
            6 => {
                let lines: Vec<&[u8]> = out.split(|b| *b == b'\n').collect();
                let i = rng.below(lines.len());
                let mut l: Vec<Vec<u8>> = lines.iter().map(|l| l.to_vec()).collect();
                l.insert(i, l[i].clone());
                out = l.join(&b'\n');
            }
            _ => {
                let end = (at + rng.below(8)).min(out.len());
                let piece = out[at..end].to_vec();
                out.splice(at..at, piece);
            }
        }
    }
    out
}

/// Reads `input` both ways and checks that every problem names a line of
/// it; `render` also draws the HTML page of what was read.
pub fn check_one(input: &[u8], render: bool) {
    let lines = input.split(|b| *b == b'\n').count();
    let evidence = Evidence::read_bytes(Path::new("fuzz.jsonl"), input);
    for p in &evidence.problems {
        assert!(
            p.line >= 1 && p.line <= lines,
            "problem at line {} of {lines}",
            p.line
        );
    }
    assert!(evidence.records.len() + evidence.problems.len() + evidence.duplicates <= lines);
    if render {
        let ptx = litmus_model::model_by_name("ptx").expect("ptx is built in");
        let page = html::page(&evidence, ptx, &litmus_model::Options::default());
        assert!(page.ends_with("</html>\n"));
    }
    if let Ok(text) = std::str::from_utf8(input) {
        match litmus7::parse(text) {
            Ok(tests) => {
                for t in tests {
                    assert!(t.line <= lines);
                    let _ = t.instances();
                }
            }
            Err(e) => assert!(e.line >= 1 && e.line <= text.lines().count().max(1), "{e}"),
        }
    }
}

/// Runs `n` inputs from `seed`; returns how many were read with no problem.
pub fn fuzz(n: usize, seed: u64, render_every: usize) -> usize {
    let seeds = seeds();
    let mut rng = Rng(seed | 1);
    let mut clean = 0;
    for i in 0..n {
        let base = &seeds[i % seeds.len()];
        let input = mutate(&mut rng, base);
        check_one(&input, render_every > 0 && i % render_every == 0);
        if Evidence::read_bytes(Path::new("f"), &input)
            .problems
            .is_empty()
        {
            clean += 1;
        }
    }
    clean
}
