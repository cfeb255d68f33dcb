//! Inputs for fuzzing the text reader, and the property each must satisfy.
//! Shared by `tests/text_fuzz.rs` (CI size), `examples/fuzz_text.rs`
//! (a million inputs) and litmus-ptx's `tests/ptx_fuzz.rs` (the tests that
//! parse, through the generator) through `#[path]`, so all run the same
//! fuzzer.

use litmus_text as text;

/// A small deterministic generator (SplitMix64): runs repeat exactly, and
/// no dependency is needed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Seed texts that exercise the dialect's extensions, for runs without the
/// corpus (and alongside it).
pub const FIXTURES: &[&str] = &[
    include_str!("../data/extensions.litmus"),
    include_str!("../data/control.litmus"),
    include_str!("../data/proxies.litmus"),
    // herd7's GPU_PTX dialect: branches, atomics, shared memory, two GPUs.
    include_str!("../data/gpu_ptx/LB+ctrls.litmus"),
    include_str!("../data/gpu_ptx/CAS+exch.litmus"),
    include_str!("../data/gpu_ptx/SB+membar.cta+shared.litmus"),
    include_str!("../data/gpu_ptx/MP+membar.cta+warps.litmus"),
    include_str!("../data/gpu_ptx/IRIW+membar.gl.litmus"),
    include_str!("../data/gpu_ptx/MP+membar.sys+2gpus.litmus"),
    // The ASPLOS'15 paper's spelling: `T0 | T1`, `ScopeTree(grid(...))`.
    include_str!("../data/gpu_ptx/asplos15/SB.litmus"),
];

/// Fragments of the dialect, valid and not, spliced into inputs.
const TOKENS: &[&str] = &[
    "PTX ",
    "PTX \"a b\"",
    "\"",
    "\"doc\"",
    "{",
    "}",
    "|",
    ";",
    ":",
    "::",
    ",",
    ".",
    "@",
    "(",
    ")",
    "~",
    "=",
    "==",
    "!=",
    "=>",
    "/\\",
    "\\/",
    "\n",
    " ",
    "\t",
    "exists",
    "~exists",
    "forall",
    "allowed",
    "forbidden",
    "terminates",
    "may hang",
    "may",
    "=> may hang",
    "true",
    "x",
    "y",
    "r0",
    "r1",
    "P0",
    "P1",
    "P9",
    "0:r0",
    "P1:r1",
    "7:r0",
    "ld",
    "ld.weak",
    "ld.acquire.gpu",
    "ld.release",
    "st.relaxed.sys",
    "st.weak.wt",
    "ld.weak.ca",
    "mov",
    "add",
    "fence.sc.cta",
    "fence.acq_rel.cluster",
    "membar.gl",
    "membar.cluster",
    "atom.acq_rel.gpu.cas",
    "atom.add",
    "red.relaxed.cta.add",
    "bar.cta.sync 1",
    "bar.cta.arrive 1, 1, 2",
    "bar.sync 0, 64",
    "bar.warp.sync",
    "aliases",
    " @ generic aliases ",
    "@ texture aliases x",
    "surface",
    "constant",
    "suld.weak",
    "sust.weak",
    "tld.weak",
    "cold.weak",
    "tld.relaxed.gpu",
    "fence.proxy.alias",
    "fence.proxy.texture",
    "fence.proxy",
    "fence.proxy.generic",
    "bar.warp.sync 0xffffffff",
    "LC00:",
    "goto LC00",
    "beq r0, 0, LC00",
    "bne r0, r1, L",
    "@cta 0,gpu 0",
    ",warp 1",
    ",cluster 0",
    "gpu 1",
    "shared ",
    "shared::cluster ",
    "global ",
    "host ",
    "@host",
    "host",
    // A location's home GPU, valid and not.
    "gpu 1 x=0;",
    "gpu 2 ",
    "gpu 1 shared ",
    "gpu 4294967296 ",
    "0",
    "1",
    "-1",
    "0x10",
    "4294967295",
    "4294967296",
    "-2147483649",
    "99999999999999999999",
    "12ab",
    "0x",
    "-",
    "((((((((((",
    "))))))",
    "~~~~~~~~",
    "é",
    "\u{feff}",
    "\u{0}",
    "\r\n",
    "💥",
    // herd7's GPU_PTX dialect.
    "GPU_PTX ",
    "GPU_PTX t\n{}\n P0 ;\n",
    "scopeTree",
    "scopeTree (device (cta P0) (cta P1))",
    "ScopeTree(grid(cta(warp T0) (warp T1)))",
    " T0 | T1 ;",
    "T1:r0",
    "(device",
    "(kernel",
    "(cta",
    "(block",
    "(warp",
    "(sub_group",
    "P0)",
    "P1 P2",
    "x: global",
    "y: shared, ",
    "z: local;",
    "0:.reg .s32 r0;",
    "1:.reg .b64 r1 = x;",
    "0:.reg .pred p0;",
    ".reg",
    ".b64",
    ".u64",
    ".pred",
    "[r1]",
    "[",
    "]",
    "!",
    "@p0 ",
    "@!p0 ",
    "ld.cg.s32 r0,[r1]",
    "ld.volatile.global.s32",
    "st.ca.s32",
    "st.wt.s32 [r1],r0",
    "ld.shared.cg.b32",
    "atom.cas.b32 r0,[r1],0,1",
    "atom.exch.b32",
    "atom.global.add.s32",
    "atom.min.s32",
    "setp.eq.s32 p0,r0,0",
    "setp.lt.u32",
    "bra L0",
    "L0:",
    "membar.cta",
    "membar.sys",
    "cvt.u32.s32",
    "mul.lo.s32",
    "mov.s32 r1,1",
    "(*",
    "*)",
    "(* c *)",
    "locations [x;]",
    "with",
    "0:r1=x",
];

/// One fuzz input: arbitrary bytes, a soup of dialect fragments, or (most
/// often) a seed with a few mutations.
pub fn input(rng: &mut Rng, seeds: &[String]) -> String {
    let bytes = match rng.below(10) {
        0 => (0..rng.below(400)).map(|_| rng.next_u64() as u8).collect(),
        1 => {
            let mut s = String::new();
            for _ in 0..rng.below(80) {
                s.push_str(TOKENS[rng.below(TOKENS.len())]);
                if rng.below(3) == 0 {
                    s.push(' ');
                }
            }
            s.into_bytes()
        }
        _ => {
            let mut b = seeds[rng.below(seeds.len())].clone().into_bytes();
            for _ in 0..1 + rng.below(4) {
                mutate(&mut b, rng);
            }
            b
        }
    };
    String::from_utf8_lossy(&bytes).into_owned()
}

fn mutate(b: &mut Vec<u8>, rng: &mut Rng) {
    let at = |rng: &mut Rng, b: &Vec<u8>| rng.below(b.len() + 1);
    match rng.below(9) {
        0 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] ^= 1 << rng.below(8);
        }
        1 if !b.is_empty() => {
            let i = rng.below(b.len());
            b[i] = rng.next_u64() as u8;
        }
        2 => {
            let i = at(rng, b);
            let len = rng.below(40).min(b.len() - i);
            b.drain(i..i + len);
        }
        3 | 4 => {
            let i = at(rng, b);
            let tok = TOKENS[rng.below(TOKENS.len())].as_bytes();
            b.splice(i..i, tok.iter().copied());
        }
        5 => {
            let mut lines: Vec<Vec<u8>> = b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect();
            let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
            lines.swap(i, j);
            *b = lines.join(&b'\n');
        }
        6 => {
            let i = at(rng, b);
            b.truncate(i);
        }
        7 => {
            let i = at(rng, b);
            let len = rng.below(200).min(b.len() - i);
            let chunk = b[i..i + len].to_vec();
            let j = at(rng, b);
            b.splice(j..j, chunk);
        }
        _ => {
            // Replace a digit run with an edge value.
            if let Some(i) = (0..b.len())
                .map(|_| rng.below(b.len()))
                .find(|&i| b[i].is_ascii_digit())
            {
                let edge = [
                    "4294967296",
                    "-2147483649",
                    "99999999999999999999",
                    "0",
                    "-0",
                ];
                let e = edge[rng.below(edge.len())].as_bytes();
                b.splice(i..i + 1, e.iter().copied());
            }
        }
    }
}

/// What one input did.
pub enum Outcome {
    /// It parsed and validated: the test, for a back end to be tried on.
    // Read by litmus-ptx's `tests/ptx_fuzz.rs`; the text fuzzers only count.
    #[allow(dead_code)]
    Parsed(Box<litmus_core::ir::Test>),
    Rejected,
}

/// Runs `src` through the reader and checks the properties that hold for
/// every input: an accepted test prints to text that reads back to the
/// same IR (and prints the same again); a rejected one has at least one
/// diagnostic, each with a position inside the text. Panics when a
/// property fails (the caller catches panics).
pub fn check(src: &str) -> Outcome {
    // Well-formed but invalid tests print and read back too (tools print
    // tests they are about to report as invalid).
    if let Ok(test) = text::parse_unvalidated(src) {
        let printed = text::print(&test);
        let again = text::parse_unvalidated(&printed)
            .unwrap_or_else(|e| panic!("printed text does not read: {e}\n--- printed\n{printed}"));
        assert_eq!(again, test, "round trip changed the IR:\n{printed}");
    }
    match text::parse(src) {
        Ok(test) => {
            let printed = text::print(&test);
            let again = text::parse(&printed).unwrap_or_else(|e| {
                panic!("printed text does not parse: {e}\n--- printed\n{printed}")
            });
            assert_eq!(again, test, "round trip changed the IR:\n{printed}");
            assert_eq!(
                text::print(&again),
                printed,
                "printing is not a fixed point"
            );
            Outcome::Parsed(Box::new(test))
        }
        Err(e) => {
            assert!(!e.diagnostics.is_empty(), "an error without diagnostics");
            for d in &e.diagnostics {
                let p = d.position.expect("a text diagnostic has a position");
                assert!(p.line >= 1 && p.column >= 1);
                assert!(d.offset.is_some_and(|o| o as usize <= src.len()));
            }
            let _ = e.render("fuzz.litmus");
            Outcome::Rejected
        }
    }
}
