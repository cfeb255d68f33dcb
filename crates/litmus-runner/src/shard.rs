//! Splitting a set of tests across machines: `--shard K/N` gives job K of
//! N the tests whose relaxation hashes to K, so the N jobs of a Slurm array
//! or a CI matrix run disjoint parts whose union is the whole set.
//!
//! Why by a stable hash of what the test is: each job lists its files on
//! its own machine, perhaps in another order or with a file more or less;
//! a split by position would move every test after the difference, while
//! the test itself puts it in the same shard wherever and whenever it is
//! listed. Why its relaxation ([`litmus_gen::relaxation`]) and not its
//! name: the variants of one relaxation are what a search learns from
//! together (`campaign --tune` climbs from the weaker variants that showed
//! to the stronger ones, and a family-wide search shares its pool), so
//! they go to one job. FNV-1a (as the evidence's IR hash) rather than
//! Rust's `Hasher`, whose values may change between builds and so between
//! the jobs' binaries.

use litmus_evidence::record::fnv1a;

/// Part `k` (from 1) of `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: u64,
    n: u64,
}

/// Why a `--shard` value was refused: one line naming the option.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`--shard` takes K/N, part K of N with 1 <= K <= N, not `{text}`: {why}")]
pub struct ShardError {
    text: String,
    why: &'static str,
}

impl Shard {
    /// Reads `K/N`.
    pub fn parse(text: &str) -> Result<Shard, ShardError> {
        let refuse = |why| ShardError {
            text: text.to_string(),
            why,
        };
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| refuse("no `/` between K and N"))?;
        let whole = |s: &str| s.trim().parse::<u64>().ok();
        let (Some(k), Some(n)) = (whole(k), whole(n)) else {
            return Err(refuse("K and N are whole numbers"));
        };
        if n == 0 {
            return Err(refuse("N is at least 1"));
        }
        if k == 0 {
            return Err(refuse("K counts from 1"));
        }
        if k > n {
            return Err(refuse("K is at most N"));
        }
        Ok(Shard { k, n })
    }

    /// Whether the test called `name` is this shard's.
    pub fn contains(&self, name: &str) -> bool {
        fnv1a(name.as_bytes()) % self.n == self.k - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// The files a command runs, after its `--shard` (if any) took its part.
#[derive(Clone, Debug)]
pub struct Selection {
    /// The files kept, in the order given.
    pub files: Vec<String>,
    /// How many files there were before the split.
    pub total: usize,
    /// The shard, when there is one.
    pub shard: Option<Shard>,
}

impl Selection {
    /// Keeps the files of `shard` (all of them without one). A file is
    /// placed by its test's relaxation; one that cannot be read or parsed
    /// by its path, so that it still falls in exactly one shard, whose job
    /// reports it.
    pub fn of(shard: Option<Shard>, files: Vec<String>) -> Selection {
        let total = files.len();
        let files = match shard {
            None => files,
            Some(s) => files.into_iter().filter(|f| s.contains(&key(f))).collect(),
        };
        Selection {
            files,
            total,
            shard,
        }
    }

    /// `shard 2/4: 31 of 125 tests`, or `125 tests` without a shard.
    pub fn describe(&self) -> String {
        match self.shard {
            Some(s) => format!("shard {s}: {} of {} tests", self.files.len(), self.total),
            None => format!("{} tests", self.total),
        }
    }
}

/// What places `file`: its test's relaxation key, else its path.
fn key(file: &str) -> String {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|src| litmus_text::parse(&src).ok())
        .map_or_else(
            || file.to_string(),
            |t| litmus_gen::relaxation::relaxation_key(&t),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_is_in_exactly_one_shard() {
        let names: Vec<String> = (0..500).map(|i| format!("MP+fence.{i}")).collect();
        for n in 1..=8u64 {
            let shards: Vec<Shard> = (1..=n)
                .map(|k| Shard::parse(&format!("{k}/{n}")).unwrap())
                .collect();
            for name in &names {
                let owners = shards.iter().filter(|s| s.contains(name)).count();
                assert_eq!(owners, 1, "{name} in {owners} of {n} shards");
            }
            // No shard is starved: 500 names over at most 8 shards.
            for s in &shards {
                assert!(names.iter().filter(|x| s.contains(x)).count() > 20, "{s}");
            }
        }
    }

    #[test]
    fn the_split_is_the_same_on_every_run_and_build() {
        // Fixed by FNV-1a: a change here moves tests between the jobs of
        // an array already running, so it must be deliberate.
        let of4 = |name: &str| {
            (1..=4)
                .find(|k| Shard::parse(&format!("{k}/4")).unwrap().contains(name))
                .unwrap()
        };
        let names = [
            "MP",
            "SB",
            "LB",
            "IRIW",
            "2+2W",
            "R",
            "WRC+fence.acq_rel.cta",
        ];
        let got: Vec<u64> = names.into_iter().map(of4).collect();
        assert_eq!(got, [1, 1, 4, 3, 2, 2, 3], "{names:?}");
    }

    #[test]
    fn the_variants_of_one_relaxation_go_to_one_shard() {
        let dir = std::env::temp_dir().join(format!("litmus-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let sb = |name: &str, fence: &str, p1: &str| {
            format!(
                "PTX {name}\n{{ x=0; y=0; }}\n P0@cta 0,gpu 0 | P1@{p1},gpu 0 ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu y, 1 ;\n{fence} ld.relaxed.gpu r0, y | ld.relaxed.gpu r1, x ;\nexists (P0:r0 == 0 /\\ P1:r1 == 0)\n"
            )
        };
        // Eight variants of each of two placements: each placement's
        // variants share a relaxation; the names all differ.
        let mut files = Vec::new();
        for (p, p1) in ["cta 1", "cta 0"].into_iter().enumerate() {
            for (v, fence) in [
                "",
                " fence.sc.cta | ;\n",
                " | fence.sc.gpu ;\n",
                " fence.sc.gpu | fence.sc.gpu ;\n",
            ]
            .into_iter()
            .enumerate()
            {
                for w in 0..2 {
                    let f = dir.join(format!("t{p}{v}{w}.litmus"));
                    std::fs::write(&f, sb(&format!("SB-{p}-{v}-{w}"), fence, p1)).unwrap();
                    files.push(f.display().to_string());
                }
            }
        }
        let (first, second) = files.split_at(8);
        for n in [2, 3, 5] {
            for k in 1..=n {
                let shard = Shard::parse(&format!("{k}/{n}")).unwrap();
                let kept = Selection::of(Some(shard), files.clone()).files;
                for group in [first, second] {
                    let here = group.iter().filter(|f| kept.contains(f)).count();
                    assert!(
                        here == 0 || here == group.len(),
                        "{shard}: {here} of {group:?}"
                    );
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_values_are_one_line_naming_the_option() {
        for (text, why) in [
            ("0/4", "K counts from 1"),
            ("5/4", "K is at most N"),
            ("a/b", "K and N are whole numbers"),
            ("3", "no `/` between K and N"),
            ("1/0", "N is at least 1"),
            ("-1/4", "K and N are whole numbers"),
        ] {
            let e = Shard::parse(text).unwrap_err().to_string();
            assert!(e.starts_with("`--shard` takes K/N"), "{e}");
            assert!(e.contains(&format!("not `{text}`: {why}")), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
        assert_eq!(Shard::parse("2/4").unwrap().to_string(), "2/4");
        assert_eq!(Shard::parse("1/1").unwrap().to_string(), "1/1");
    }
}
