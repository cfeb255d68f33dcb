//! Splitting a set of tests across machines: `--shard K/N` gives job K of
//! N the tests whose name hashes to K, so the N jobs of a Slurm array or a
//! CI matrix run disjoint parts whose union is the whole set.
//!
//! Why by test name and a stable hash: each job lists its files on its own
//! machine, perhaps in another order or with a file more or less; a split
//! by position would move every test after the difference, while a test's
//! own name puts it in the same shard wherever and whenever it is listed.
//! FNV-1a (as the evidence's IR hash) rather than Rust's `Hasher`, whose
//! values may change between builds and so between the jobs' binaries.

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
    /// placed by its test's name; one that cannot be read or parsed by its
    /// path, so that it still falls in exactly one shard, whose job reports
    /// it.
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

/// What places `file`: its test's name, else its path.
fn key(file: &str) -> String {
    std::fs::read_to_string(file)
        .ok()
        .and_then(|src| litmus_text::parse(&src).ok())
        .map_or_else(|| file.to_string(), |t| t.name.text)
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
