//! Malformed cat files for the fuzz test and the `cat_fuzz` example:
//! every truncation of a seed file, then byte mutations (replace, insert,
//! delete, duplicate a slice) from a fixed-seed generator. Each input is
//! compiled and, when it compiles, run on a few small tests; it must give
//! a result or an error, never a panic.

use std::path::Path;

use litmus_model::cat::CatModel;
use litmus_model::{check, Options};

/// A small deterministic generator (xorshift64*): the same inputs on
/// every run, so a failure names an input that can be found again.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

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

/// Bytes worth trying: the language's punctuation, keywords' letters,
/// comment openers, quotes, digits, and some that are never valid.
const ALPHABET: &[u8] = b"()[]*+?^-1~&|;\\=_\"/,.  \n\tletrcandasyuhfgmpoRWMF0@#{}\xff\xc3";

/// One mutation of `seed`.
pub fn mutate(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(v.len() + 1);
        match rng.below(5) {
            0 if at < v.len() => v[at] = ALPHABET[rng.below(ALPHABET.len())],
            1 => v.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            2 if at < v.len() => {
                v.remove(at);
            }
            3 if at < v.len() => {
                let end = (at + 1 + rng.below(40)).min(v.len());
                let slice = v[at..end].to_vec();
                let to = rng.below(v.len() + 1);
                v.splice(to..to, slice);
            }
            _ if at < v.len() => v[at] = rng.next() as u8,
            _ => v.push(ALPHABET[rng.below(ALPHABET.len())]),
        }
    }
    v
}

/// The small tests each compiled mutant runs on: fences, an RMW,
/// barriers, scopes.
pub const TESTS: [&str; 2] = [
    "PTX SB+fences
{ x=0; y=0; }
 P0@cta 0,gpu 0     | P1@cta 1,gpu 0     ;
 st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;
 fence.sc.gpu       | fence.sc.gpu       ;
 ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;
exists (P0:r0 == 0 /\\ P1:r1 == 0)",
    "PTX MP+bar+atom
{ x=0; y=0; }
 P0@cta 0,gpu 0           | P1@cta 0,gpu 0 ;
 st.weak x, 1             | bar.cta.sync 0 ;
 atom.release.gpu.add r2, y, 1 | ld.weak r1, x ;
 bar.cta.sync 0           | ld.acquire.gpu r0, y ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)",
];

/// What one input did.
pub enum Fate {
    /// It compiled and every test checked (or ran out of budget).
    Ran,
    /// It was refused with an error.
    Refused,
}

/// Compiles `bytes` as a cat file (includes read nothing) and runs the
/// model on [`TESTS`]. A panic propagates to the caller.
pub fn run_one(bytes: &[u8], tests: &[litmus_core::ir::Test]) -> Fate {
    let src = String::from_utf8_lossy(bytes);
    let model = match CatModel::from_source(Path::new("fuzz.cat"), &src, &mut |p| {
        Err(format!("{} is not available while fuzzing", p.display()).into())
    }) {
        Ok(m) => m,
        Err(e) => {
            // Every error says where, or which file could not be read.
            let text = e.to_string();
            assert!(
                text.starts_with("fuzz.cat:"),
                "an error without a place: {text}"
            );
            return Fate::Refused;
        }
    };
    let opts = Options {
        max_steps: 200_000,
        max_time: Some(std::time::Duration::from_secs(5)),
        ..Options::default()
    };
    for t in tests {
        let _ = check(t, &model, &opts);
    }
    Fate::Ran
}
