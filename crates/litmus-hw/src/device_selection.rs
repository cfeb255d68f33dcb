//! Which devices this process runs tests on: every device the driver
//! shows, or those `LITMUS_DEVICES` lists. `CUDA_VISIBLE_DEVICES` comes
//! first and needs nothing here: the driver applies it itself, so the
//! ordinals below (and `LITMUS_DEVICES`'s, and `LITMUS_GPU_MAP`'s) count
//! the devices it leaves visible.

use std::sync::OnceLock;

use litmus_core::ir::Test;
use litmus_ptx::isa::SmArch;
use litmus_ptx::Layout;

use super::devices::kind_of;
use super::driver;
use super::knobs::{format_gpu_map, Knobs, GPU_MAP_ENV};
use super::{GpuError, SETUP_TIME};

/// The variable that lists the devices to use (`0,2`, or `all`).
pub const DEVICES_ENV: &str = "LITMUS_DEVICES";

/// What [`DEVICES_ENV`] accepts, for its error.
const DEVICES_SYNTAX: &str =
    "`all`, or device ordinals separated by commas, each at most once (e.g. `0,2`)";

/// A device this process may run tests on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// The driver's ordinal (after `CUDA_VISIBLE_DEVICES`).
    pub ordinal: u32,
    /// The device's name, as the driver reports it: its kind (four H100s
    /// share one name).
    pub name: String,
}

/// Reads a [`DEVICES_ENV`] value: `None` for every device (`all`, or
/// nothing), else the ordinals in the order given. Only the syntax is
/// checked here, so that a bad value fails on any machine, GPU or none;
/// [`devices`] checks the ordinals against the machine.
pub fn parse_devices(text: &str) -> Result<Option<Vec<u32>>, GpuError> {
    let list = text.trim();
    if list.is_empty() || list == "all" {
        return Ok(None);
    }
    let mut out: Vec<u32> = Vec::new();
    for part in list.split(',') {
        match part.trim().parse::<u32>() {
            Ok(d) if !out.contains(&d) => out.push(d),
            _ => return Err(GpuError::knob(DEVICES_ENV, text, DEVICES_SYNTAX)),
        }
    }
    Ok(Some(out))
}

/// [`DEVICES_ENV`] as the environment holds it, read by [`parse_devices`].
pub fn devices_var() -> Result<Option<Vec<u32>>, GpuError> {
    match crate::process_env::lookup(DEVICES_ENV) {
        Some(v) => parse_devices(&v),
        None => Ok(None),
    }
}

/// The devices of `names` (by ordinal) that `wanted` picks (`None`:
/// every one), in its order; an ordinal the machine lacks is the
/// variable's error, saying which it has.
pub(crate) fn select(wanted: Option<&[u32]>, names: &[String]) -> Result<Vec<Gpu>, GpuError> {
    let gpu = |d: u32| Gpu {
        ordinal: d,
        name: names[d as usize].clone(),
    };
    let Some(wanted) = wanted else {
        return Ok((0..names.len() as u32).map(gpu).collect());
    };
    if wanted.iter().any(|&d| d as usize >= names.len()) {
        let value = wanted
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(",");
        let has = match names.len() {
            1 => "device 0: this machine has 1 device (after CUDA_VISIBLE_DEVICES)".to_string(),
            n => format!(
                "ordinals 0 to {}: this machine has {n} devices (after CUDA_VISIBLE_DEVICES)",
                n - 1
            ),
        };
        return Err(GpuError::knob(DEVICES_ENV, value, &has));
    }
    Ok(wanted.iter().map(|&d| gpu(d)).collect())
}

/// The devices this process runs tests on: those [`DEVICES_ENV`] lists,
/// else every device the driver shows, with their names.
/// [`GpuError::NoDriver`] or [`GpuError::NoDevice`] without a GPU; a bad
/// [`DEVICES_ENV`] is [`GpuError::Knob`].
///
/// The driver is asked once per process, in a child (the process that
/// forks the GPU workers never initialises CUDA itself: see `isolate`;
/// off Linux, on a thread: `in_process`).
pub fn devices() -> Result<Vec<Gpu>, GpuError> {
    let wanted = devices_var()?;
    select(wanted.as_deref(), &names()?)
}

/// The name of every device the driver shows (index: ordinal), asked
/// once per process, in a child; [`GpuError::NoDevice`] when there is
/// none.
fn names() -> Result<Vec<String>, GpuError> {
    Ok(shown()?.into_iter().map(|(name, _)| name).collect())
}

/// Every device the driver shows (index: ordinal): its name and its
/// architecture's number (90 for `sm_90`), asked once per process, in a
/// child; [`GpuError::NoDevice`] when there is none.
fn shown() -> Result<Vec<(String, u32)>, GpuError> {
    static SHOWN: OnceLock<Result<Vec<(String, u32)>, GpuError>> = OnceLock::new();
    let shown = SHOWN
        .get_or_init(|| crate::apart(SETUP_TIME, driver::device_names))
        .clone()?;
    if shown.is_empty() {
        return Err(GpuError::NoDevice);
    }
    Ok(shown)
}

/// The architecture of the device of ordinal `device`; a device the
/// driver does not show is [`GpuError::NoDevice`].
pub(crate) fn arch_of(device: u32) -> Result<SmArch, GpuError> {
    let shown = shown()?;
    let (_, arch) = shown.get(device as usize).ok_or(GpuError::NoDevice)?;
    Ok(SmArch::new(*arch))
}

/// The kind of device a run of `test` with `knobs` on the devices of
/// `claim` goes to (see [`crate::run_on`]): the names of the devices of
/// its logical GPUs, as [`crate::device_kind`] reads them back from the
/// result's device line, so that a tuning entry written from a result is
/// found again by the run that asks here. An error when the test cannot
/// be laid out or placed (the run then says the same), or without a GPU.
pub fn kind_on(claim: &[u32], test: &Test, knobs: &Knobs) -> Result<String, GpuError> {
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    kind_among(layout.gpus, claim, knobs, &names()?, selected)
}

/// [`kind_on`] for a test on `gpus` logical GPUs, with the machine's
/// device names and the selected devices from `selected`.
fn kind_among(
    gpus: u32,
    claim: &[u32],
    knobs: &Knobs,
    names: &[String],
    selected: impl FnOnce() -> Result<Vec<u32>, GpuError>,
) -> Result<String, GpuError> {
    let (first, map) = place_among(gpus, claim, knobs, selected)?;
    // Logical GPU `g` runs on the map's `g`th device (`devices.rs`).
    let ordinals = map.map_or_else(
        || vec![first],
        |m| m.into_iter().take(gpus.max(1) as usize).collect(),
    );
    let of_logical = ordinals
        .iter()
        .map(|&d| names.get(d as usize).map(String::as_str))
        .collect::<Option<Vec<&str>>>()
        .ok_or(GpuError::NoDevice)?;
    Ok(kind_of(&of_logical).to_string())
}

/// Where a run of a test on `gpus` logical GPUs goes: the device whose
/// worker runs it (logical GPU 0's), and the device map that worker is
/// sent (`None`: the test is on one GPU, which is the worker's own). See
/// `run_on`: the claim's devices, else those of [`devices`]; an explicit
/// map in the knobs wins over both.
pub(crate) fn place(
    gpus: u32,
    claim: &[u32],
    knobs: &Knobs,
) -> Result<(u32, Option<Vec<u32>>), GpuError> {
    place_among(gpus, claim, knobs, selected)
}

/// [`place`] for `test`: the device whose worker runs it, and `knobs`
/// with the device map that worker is sent.
pub(crate) fn placed(test: &Test, claim: &[u32], knobs: &Knobs) -> Result<(u32, Knobs), GpuError> {
    let layout = Layout::of(test).map_err(GpuError::Ptx)?;
    let (device, map) = place(layout.gpus, claim, knobs)?;
    Ok((
        device,
        Knobs {
            gpu_map: map,
            ..knobs.clone()
        },
    ))
}

/// The ordinals of the selected devices ([`devices`]).
fn selected() -> Result<Vec<u32>, GpuError> {
    Ok(devices()?.iter().map(|g| g.ordinal).collect())
}

/// [`place`], with the selected devices from `selected` (asked only when
/// the claim is empty).
fn place_among(
    gpus: u32,
    claim: &[u32],
    knobs: &Knobs,
    selected: impl FnOnce() -> Result<Vec<u32>, GpuError>,
) -> Result<(u32, Option<Vec<u32>>), GpuError> {
    if let Some(map) = &knobs.gpu_map {
        // The worker checks the map against the machine (`devices.rs`),
        // with the message that names the map.
        return Ok((map.first().copied().unwrap_or(0), Some(map.clone())));
    }
    let devs = match claim {
        [] => selected()?,
        _ => claim.to_vec(),
    };
    let Some(&first) = devs.first() else {
        return Err(GpuError::NoDevice);
    };
    let gpus = gpus.max(1) as usize;
    if gpus == 1 {
        return Ok((first, None));
    }
    if devs.len() < gpus {
        let what = match (claim.is_empty(), devices_var()) {
            (false, _) => format!("it was given {}", devs.len()),
            (true, Ok(Some(list))) => format!(
                "{DEVICES_ENV}={} selects {}",
                format_gpu_map(&list),
                devs.len()
            ),
            (true, _) => format!("this machine has {}", devs.len()),
        };
        return Err(GpuError::Unfaithful(format!(
            "the test places threads on {gpus} GPUs and {what} ({GPU_MAP_ENV}={} runs them all on device {first})",
            format_gpu_map(&vec![first; gpus])
        )));
    }
    Ok((first, Some(devs[..gpus].to_vec())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_distinct_ordinals_or_all_is_read_in_its_order() {
        assert_eq!(parse_devices("all").unwrap(), None);
        assert_eq!(parse_devices(" ").unwrap(), None);
        assert_eq!(parse_devices("2").unwrap(), Some(vec![2]));
        assert_eq!(parse_devices(" 3, 1 ,0").unwrap(), Some(vec![3, 1, 0]));
    }

    #[test]
    fn a_bad_list_is_one_line_naming_the_variable_and_the_value() {
        for bad in ["x", "0,0", "1,,2", "-1", "0;1", "all,1", "1.5"] {
            let e = parse_devices(bad).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("bad value `{bad}` for LITMUS_DEVICES: expected {DEVICES_SYNTAX}")
            );
        }
    }

    #[test]
    fn the_selection_keeps_the_listed_devices_and_refuses_missing_ones() {
        let names: Vec<String> = ["H100", "H100", "A100"].map(String::from).to_vec();
        let all = select(None, &names).unwrap();
        assert_eq!(
            all.iter().map(|g| g.ordinal).collect::<Vec<_>>(),
            vec![0, 1, 2]
        );
        assert_eq!(all[2].name, "A100");
        let some = select(Some(&[2, 0]), &names).unwrap();
        assert_eq!(
            some,
            vec![
                Gpu {
                    ordinal: 2,
                    name: "A100".into()
                },
                Gpu {
                    ordinal: 0,
                    name: "H100".into()
                }
            ]
        );
        assert_eq!(
            select(Some(&[0, 3]), &names).unwrap_err().to_string(),
            "bad value `0,3` for LITMUS_DEVICES: expected ordinals 0 to 2: this machine has 3 devices (after CUDA_VISIBLE_DEVICES)"
        );
        assert_eq!(
            select(Some(&[1]), &names[..1]).unwrap_err().to_string(),
            "bad value `1` for LITMUS_DEVICES: expected device 0: this machine has 1 device (after CUDA_VISIBLE_DEVICES)"
        );
    }

    #[test]
    fn a_run_goes_to_its_claim_and_a_test_on_several_gpus_gets_them_as_its_map() {
        let none = Knobs::default();
        let unasked = || -> Result<Vec<u32>, GpuError> { panic!("the claim was enough") };
        assert_eq!(place_among(1, &[2], &none, unasked).unwrap(), (2, None));
        assert_eq!(
            place_among(2, &[3, 1], &none, unasked).unwrap(),
            (3, Some(vec![3, 1]))
        );
        // No claim: the selected devices, the first for a test on one GPU.
        assert_eq!(
            place_among(1, &[], &none, || Ok(vec![1, 2])).unwrap(),
            (1, None)
        );
        assert_eq!(
            place_among(2, &[], &none, || Ok(vec![1, 2, 3])).unwrap(),
            (1, Some(vec![1, 2]))
        );
        assert!(matches!(
            place_among(1, &[], &none, || Err(GpuError::NoDriver)),
            Err(GpuError::NoDriver)
        ));
        // An explicit map wins over the claim.
        let mapped = Knobs {
            gpu_map: Some(vec![0, 0]),
            ..Knobs::default()
        };
        assert_eq!(
            place_among(2, &[3, 1], &mapped, unasked).unwrap(),
            (0, Some(vec![0, 0]))
        );
    }

    #[test]
    fn the_kind_of_a_run_is_the_names_of_its_logical_gpus_devices() {
        let names: Vec<String> = ["H100", "H100", "A100", "A100"].map(String::from).to_vec();
        let none = Knobs::default();
        let unasked = || -> Result<Vec<u32>, GpuError> { panic!("the claim was enough") };
        assert_eq!(kind_among(1, &[2], &none, &names, unasked).unwrap(), "A100");
        assert_eq!(
            kind_among(2, &[0, 1], &none, &names, unasked).unwrap(),
            "H100"
        );
        assert_eq!(
            kind_among(2, &[1, 2], &none, &names, unasked).unwrap(),
            "H100 + A100"
        );
        // No claim: the first selected device.
        assert_eq!(
            kind_among(1, &[], &none, &names, || Ok(vec![3, 0])).unwrap(),
            "A100"
        );
        // An explicit map wins, and only its logical GPUs' devices count.
        let mapped = Knobs {
            gpu_map: Some(vec![2, 0]),
            ..Knobs::default()
        };
        assert_eq!(
            kind_among(1, &[0], &mapped, &names, unasked).unwrap(),
            "A100"
        );
        assert!(kind_among(1, &[7], &none, &names, unasked).is_err());
    }

    #[test]
    fn a_test_on_more_gpus_than_given_is_not_run_saying_why() {
        let none = Knobs::default();
        let e = place_among(4, &[2, 3], &none, || panic!("the claim was given"));
        assert_eq!(
            e.unwrap_err().to_string(),
            "the test places threads on 4 GPUs and it was given 2 (LITMUS_GPU_MAP=2,2,2,2 runs them all on device 2)"
        );
        let e = place_among(2, &[], &none, || Ok(vec![0]));
        assert!(matches!(e, Err(GpuError::Unfaithful(_))), "{e:?}");
    }
}
