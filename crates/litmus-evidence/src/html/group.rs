//! Where a test belongs in the page's summary: its family, how its threads
//! are placed and what fences it has. The IR says the last two exactly, so
//! it is read when the evidence holds the test's text; a test known only by
//! name falls back on what a `gpu-litmus gen` name says
//! (`IRIW+cta01_2_3+rel_acq.gpu+fence.sc.cta@1,3`).

use std::collections::BTreeSet;

use litmus_core::instr::InstrKind;
use litmus_core::ir::{Placement, Test};

/// A test's row and column in the summary.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Group {
    /// `MP`, `IRIW`, `PodWR-Fre-PodWR-Fre`, `ATOM`.
    pub family: String,
    /// `cta0_1`, `gpu01_2`, `cta0_1 cluster01`, `host01`.
    pub placement: String,
    /// `no fence`, `fence.sc.gpu`, `fence.sc.cta + fence.sc.gpu`.
    pub fences: String,
}

/// Said of a placement or fences that neither the IR nor the name gives.
pub(super) const UNKNOWN: &str = "unknown";

/// Said of a test with no fence.
pub(super) const NO_FENCE: &str = "no fence";

impl Group {
    /// The group of the test called `name`, with its IR when known.
    pub fn of(name: &str, test: Option<&Test>) -> Group {
        let family = family(name);
        match test {
            Some(t) => Group {
                family,
                placement: placement(t),
                fences: fences(t),
            },
            None => {
                let parts: Vec<&str> = name.split('+').collect();
                let placement = parts.iter().find(|p| is_placement(p));
                // Only a generated name says "no fence" by leaving it out.
                let fences: Vec<&str> = parts
                    .iter()
                    .filter(|p| p.starts_with("fence."))
                    .map(|p| p.split('@').next().unwrap_or(p))
                    .collect();
                Group {
                    family,
                    placement: placement.map_or(UNKNOWN, |p| p).to_string(),
                    fences: match (placement, fences.is_empty()) {
                        (_, false) => fences.join(" + "),
                        (Some(_), true) => NO_FENCE.to_string(),
                        (None, true) => UNKNOWN.to_string(),
                    },
                }
            }
        }
    }
}

/// Orders fence columns from none to the widest scope, so that a row of
/// the summary reads as fences getting stronger.
pub(super) fn fence_order(fences: &str) -> (u8, u8, &str) {
    let widest = ["cta", "cluster", "gpu", "sys"]
        .iter()
        .rposition(|s| fences.contains(&format!(".{s}")))
        .map_or(0, |i| i as u8 + 1);
    let kind = match fences {
        NO_FENCE => 0,
        UNKNOWN => 2,
        _ => 1,
    };
    (kind, widest, fences)
}

/// A `gpu-litmus gen` placement part: `cta01_2_3`, `gpu0_1`.
fn is_placement(part: &str) -> bool {
    ["cta", "gpu"].iter().any(|prefix| {
        part.strip_prefix(prefix).is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_digit())
                && rest.chars().all(|c| c.is_ascii_digit() || c == '_')
        })
    })
}

/// A test's family. A generated name's shape is everything before its
/// placement part (`2+2W+cta0_1+gpu` is `2+2W`, a diy7 cycle keeps its
/// edges); any other name's family is its first word, upper-cased, so that
/// `MP+fences` and `mp_tfb` are both `MP`.
pub(super) fn family(name: &str) -> String {
    let parts: Vec<&str> = name.split('+').collect();
    if let Some(i) = parts
        .iter()
        .position(|p| is_placement(p))
        .filter(|&i| i > 0)
    {
        return parts[..i].join("+");
    }
    let head = name.split(['_', '+', '-', '.', ' ']).next().unwrap_or(name);
    if head.is_empty() {
        name.to_uppercase()
    } else {
        head.to_uppercase()
    }
}

/// How the test's threads are spread, in `gpu-litmus gen`'s notation:
/// thread numbers grouped by what they share (`cta01_2`: threads 0 and 1
/// share a CTA). Several GPUs group by GPU (`gpu01_2`); a finer level is
/// added only when it says more: CTAs shared within a GPU, clusters that
/// hold several CTAs, warps that split a CTA. Host threads come last
/// (`host2`).
pub(super) fn placement(test: &Test) -> String {
    let on_gpu: Vec<(usize, &Placement)> = test
        .threads
        .iter()
        .enumerate()
        .filter(|(_, t)| !t.placement.host)
        .map(|(i, t)| (i, &t.placement))
        .collect();
    let host: Vec<usize> = test
        .threads
        .iter()
        .enumerate()
        .filter(|(_, t)| t.placement.host)
        .map(|(i, _)| i)
        .collect();
    let mut parts = Vec::new();
    if !on_gpu.is_empty() {
        let gpus = grouping(&on_gpu, |p| (p.gpu, 0, 0));
        let ctas = grouping(&on_gpu, |p| (p.gpu, p.cta, 0));
        if gpus.len() > 1 {
            parts.push(written("gpu", &gpus));
            if ctas.len() < on_gpu.len() {
                parts.push(written("cta", &ctas));
            }
        } else {
            parts.push(written("cta", &ctas));
        }
        if on_gpu.iter().all(|(_, p)| p.cluster.is_some()) {
            let clusters = grouping(&on_gpu, |p| (p.gpu, p.cluster.unwrap_or(0), 0));
            if clusters.len() < ctas.len() {
                parts.push(written("cluster", &clusters));
            }
        }
        let warps = grouping(&on_gpu, |p| {
            (p.gpu, p.cta, p.warp.map_or(0, |w| w.saturating_add(1)))
        });
        if warps.len() > ctas.len() {
            parts.push(written("warp", &warps));
        }
    }
    if !host.is_empty() {
        parts.push(written("host", &[host]));
    }
    parts.join(" ")
}

/// The threads grouped by `key`, groups in order of their first thread.
fn grouping(
    threads: &[(usize, &Placement)],
    key: impl Fn(&Placement) -> (u32, u32, u32),
) -> Vec<Vec<usize>> {
    let mut keys: Vec<(u32, u32, u32)> = Vec::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, p) in threads {
        let k = key(p);
        match keys.iter().position(|x| *x == k) {
            Some(g) => groups[g].push(*i),
            None => {
                keys.push(k);
                groups.push(vec![*i]);
            }
        }
    }
    groups
}

/// `cta01_2`: the prefix, then each group's thread numbers, `_` between.
fn written(prefix: &str, groups: &[Vec<usize>]) -> String {
    let groups: Vec<String> = groups
        .iter()
        .map(|g| g.iter().map(|t| t.to_string()).collect())
        .collect();
    format!("{prefix}{}", groups.join("_"))
}

/// The kinds of fence in the test, narrowest scope first, as PTX spells
/// them (`membar.gl` is `fence.sc.gpu`: the same fence).
pub(super) fn fences(test: &Test) -> String {
    let kinds: BTreeSet<(u8, String)> = test
        .threads
        .iter()
        .flat_map(|t| &t.body)
        .filter_map(|i| match &i.kind {
            InstrKind::Fence { sem, scope, .. } => Some((
                *scope as u8,
                format!("fence.{}.{}", sem.as_str(), scope.as_str()),
            )),
            InstrKind::ProxyFence(k) => Some((u8::MAX, format!("fence.proxy.{}", k.as_str()))),
            _ => None,
        })
        .collect();
    if kinds.is_empty() {
        return NO_FENCE.to_string();
    }
    kinds
        .into_iter()
        .map(|(_, k)| k)
        .collect::<Vec<_>>()
        .join(" + ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn test(header: &str, fence: &str) -> Test {
        let cells = header
            .split('|')
            .map(|_| " st.relaxed.sys x, 1 ")
            .collect::<Vec<_>>();
        let fences = header.split('|').map(|_| fence).collect::<Vec<_>>();
        let fence_row = if fence.is_empty() {
            String::new()
        } else {
            format!("{};\n", fences.join("|"))
        };
        litmus_text::parse(&format!(
            "PTX t\n{{ x=0; }}\n{header};\n{};\n{fence_row}exists (x == 1)",
            cells.join("|")
        ))
        .unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn host_threads_are_named_in_the_placement() {
        assert_eq!(placement(&test("P0@host | P1@host", "")), "host01");
        assert_eq!(
            placement(&test("P0@cta 0,gpu 1 | P1@host", "")),
            "cta0 host1"
        );
        assert_eq!(
            placement(&test("P0@cta 0,gpu 1 | P1@cta 0,gpu 0", "")),
            "gpu0_1"
        );
    }

    #[test]
    fn the_ir_placement_is_written_as_gen_names_write_it() {
        let t = test(
            "P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 | P3@cta 2,gpu 0",
            "",
        );
        assert_eq!(placement(&t), "cta01_2_3");
        // Two GPUs, two threads sharing a CTA on the first.
        let t = test("P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 0,gpu 1", "");
        assert_eq!(placement(&t), "gpu01_2 cta01_2");
        let t = test("P0@cta 0,gpu 0,cluster 0 | P1@cta 1,gpu 0,cluster 0", "");
        assert_eq!(placement(&t), "cta0_1 cluster01");
    }

    #[test]
    fn fences_are_read_from_the_ir_narrowest_first() {
        assert_eq!(fences(&test("P0@cta 0,gpu 0", "")), "no fence");
        assert_eq!(
            fences(&test("P0@cta 0,gpu 0 | P1@cta 1,gpu 0", "membar.gl")),
            "fence.sc.gpu"
        );
        let t = litmus_text::parse(
            "PTX t\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n fence.sc.gpu | fence.acq_rel.cta ;\n st.relaxed.gpu x, 1 | st.relaxed.gpu x, 2 ;\nexists (x == 1)",
        )
        .unwrap();
        assert_eq!(fences(&t), "fence.acq_rel.cta + fence.sc.gpu");
    }

    #[test]
    fn families_come_from_names() {
        assert_eq!(family("MP+cta0_1+gpu+fence.sc.gpu@0,1"), "MP");
        assert_eq!(family("2+2W+cta0_1+gpu"), "2+2W");
        assert_eq!(
            family("DpDatadW-Rfe-DpCtrldW-Rfe+cta0_1+gpu"),
            "DpDatadW-Rfe-DpCtrldW-Rfe"
        );
        assert_eq!(family("mp_tfb"), "MP");
        assert_eq!(family("MP+rel-acq"), "MP");
        assert_eq!(family("sb_sc"), "SB");
    }

    #[test]
    fn a_name_alone_gives_the_placement_and_fences_it_says() {
        let g = Group::of("IRIW+cta01_2_3+rel_acq.gpu+fence.sc.cta@1,3", None);
        assert_eq!(
            (g.family.as_str(), g.placement.as_str(), g.fences.as_str()),
            ("IRIW", "cta01_2_3", "fence.sc.cta")
        );
        let g = Group::of("SB+gpu0_1+sys", None);
        assert_eq!(
            (g.placement.as_str(), g.fences.as_str()),
            ("gpu0_1", NO_FENCE)
        );
        let g = Group::of("corr_shared_cta", None);
        assert_eq!(
            (g.placement.as_str(), g.fences.as_str()),
            (UNKNOWN, UNKNOWN)
        );
    }

    #[test]
    fn the_ir_wins_over_the_name() {
        let t = test("P0@cta 0,gpu 0 | P1@cta 0,gpu 0", "fence.sc.cta");
        let g = Group::of("MP+cta0_1+gpu", Some(&t));
        assert_eq!(
            (g.placement.as_str(), g.fences.as_str()),
            ("cta01", "fence.sc.cta")
        );
    }

    #[test]
    fn fence_columns_go_from_none_to_the_widest() {
        let mut kinds = vec![
            "fence.sc.sys",
            UNKNOWN,
            "fence.sc.cta",
            NO_FENCE,
            "fence.sc.gpu",
        ];
        kinds.sort_by_key(|k| fence_order(k));
        assert_eq!(
            kinds,
            [
                NO_FENCE,
                "fence.sc.cta",
                "fence.sc.gpu",
                "fence.sc.sys",
                UNKNOWN
            ]
        );
    }
}
