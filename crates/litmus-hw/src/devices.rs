//! The GPUs a test runs on: the physical device of each of the test's
//! logical GPUs (through the device map, `LITMUS_GPU_MAP`, read in
//! `knobs.rs`), a context per physical device, peer access between them,
//! and a stream per logical GPU.
//!
//! Every buffer lives in logical GPU 0's memory, but for the locations a
//! test puts in another GPU's memory (`gpu 1 x = 0`); the other GPUs'
//! kernels reach them by peer access, through the unified addresses the
//! driver gives every allocation. With a map that puts two logical GPUs on
//! one device (`0,0`), that device runs both launches, on two streams of
//! one context, so that the kernels can overlap: the way to exercise a
//! test on several GPUs on a machine with one.

use litmus_ptx::Layout;

use super::driver::{device_count, Context, Event, Function, Stream};
use super::kernels::Kernels;
use super::knobs::{format_gpu_map, Knobs, GPU_MAP_ENV};
use super::GpuError;

/// The physical device of each logical GPU a launch of `layout` uses
/// (index: logical GPU), checked against the machine's `count` devices. An
/// error says, in one line, why this machine cannot run the test (the
/// runner reports the hardware half as not run).
pub(crate) fn physical_devices(layout: &Layout, k: &Knobs, count: u32) -> Result<Vec<u32>, String> {
    let gpus = layout.gpus;
    let mut out = Vec::with_capacity(gpus as usize);
    for g in 0..gpus {
        let Some(d) = k.device_of(g) else {
            return Err(format!(
                "the test places threads on {gpus} GPUs and {GPU_MAP_ENV}={} maps {}",
                format_gpu_map(k.gpu_map.as_deref().unwrap_or_default()),
                plural(k.gpu_map.as_ref().map_or(0, Vec::len) as u32, "logical GPU")
            ));
        };
        if d >= count {
            return Err(match &k.gpu_map {
                None => format!(
                    "the test places threads on {gpus} GPUs and this machine has {count} ({GPU_MAP_ENV}={} runs them all on device 0)",
                    format_gpu_map(&vec![0; gpus as usize])
                ),
                Some(map) => format!(
                    "{GPU_MAP_ENV}={} puts logical GPU {g} on device {d} and this machine has {}",
                    format_gpu_map(map),
                    plural(count, "device")
                ),
            });
        }
        out.push(d);
    }
    Ok(out)
}

fn plural(n: u32, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// A context the run opened itself (a physical device other than the
/// worker's), with the test's kernels loaded in it. The kernels first, so
/// that they are unloaded before the context goes.
struct Opened {
    kernels: Kernels,
    ctx: Context,
}

impl Drop for Opened {
    fn drop(&mut self) {
        // A module unloads from the current context: make it this one's
        // before the fields go (the kernels first, then the context).
        let _ = self.ctx.bind();
    }
}

/// The contexts, kernels and streams of one run on the test's logical
/// GPUs. Streams and events are declared before the contexts they belong
/// to, so that they are destroyed first.
pub(crate) struct Devices<'a> {
    /// One stream per logical GPU, on its device's context.
    streams: Vec<Stream>,
    /// Recorded on logical GPU 0's stream before a launch's test kernels:
    /// the other GPUs' kernels wait for it (the previous launch's
    /// classifier reset the memory they use).
    ready: Event,
    /// Per logical GPU past 0: recorded after its test kernel, waited for
    /// by logical GPU 0's classifier.
    done: Vec<Event>,
    /// The worker's context (logical GPU 0's device) and its kernels.
    primary: &'a Context,
    primary_kernels: &'a Kernels,
    /// Per logical GPU: `None` on the worker's context, else an index into
    /// `opened`.
    of_logical: Vec<Option<usize>>,
    /// The physical device of each logical GPU.
    ordinals: Vec<u32>,
    opened: Vec<Opened>,
    /// How the distinct devices are joined ([`peer_links`]).
    links: Vec<String>,
}

impl<'a> Devices<'a> {
    /// Opens what a run of `layout` needs: a context per physical device
    /// the map names (the worker's for device 0), the kernels in each,
    /// peer access both ways between every two devices ([`peer_pairs`]),
    /// a stream per logical GPU. [`GpuError::Unfaithful`] when the
    /// machine has too few devices for the map, or two of them cannot
    /// reach each other's memory.
    pub(crate) fn open(
        primary: &'a Context,
        primary_kernels: &'a Kernels,
        ptx: &str,
        layout: &Layout,
        k: &Knobs,
    ) -> Result<Devices<'a>, GpuError> {
        let ordinals = if layout.gpus == 1 && k.gpu_map.is_none() {
            // The common case asks the driver nothing.
            vec![primary.ordinal]
        } else {
            physical_devices(layout, k, device_count()?).map_err(GpuError::Unfaithful)?
        };
        let mut opened: Vec<Opened> = Vec::new();
        let mut of_logical = Vec::with_capacity(ordinals.len());
        for &d in &ordinals {
            if d == primary.ordinal {
                of_logical.push(None);
                continue;
            }
            let i = match opened.iter().position(|o| o.ctx.ordinal == d) {
                Some(i) => i,
                None => {
                    let ctx = Context::open_device(d)?;
                    let kernels = Kernels::build(&ctx, ptx, k)?;
                    opened.push(Opened { kernels, ctx });
                    opened.len() - 1
                }
            };
            of_logical.push(Some(i));
        }
        let ctx_of = |g: usize| match of_logical[g] {
            None => primary,
            Some(i) => &opened[i].ctx,
        };
        let home = ctx_of(0);
        for (ga, gb) in peer_pairs(ordinals.len()) {
            let (one, other) = (ctx_of(ga), ctx_of(gb));
            if other.ordinal == one.ordinal {
                continue;
            }
            for (a, b) in [(one, other), (other, one)] {
                if !a.can_access_peer(b)? {
                    return Err(GpuError::Unfaithful(format!(
                        "device {} cannot reach device {}'s memory (cuDeviceCanAccessPeer): the test's GPUs share its locations by peer access",
                        a.ordinal, b.ordinal
                    )));
                }
                a.enable_peer_access(b)?;
            }
        }
        let streams = (0..ordinals.len())
            .map(|g| ctx_of(g).stream())
            .collect::<Result<Vec<_>, _>>()?;
        let done = (0..ordinals.len())
            .map(|g| ctx_of(g).event())
            .collect::<Result<Vec<_>, _>>()?;
        let ready = home.event()?;
        let links = peer_links(&|g| (ordinals[g], ctx_of(g)), ordinals.len());
        Ok(Devices {
            streams,
            ready,
            done,
            primary,
            primary_kernels,
            of_logical,
            ordinals,
            opened,
            links,
        })
    }

    /// Logical GPUs.
    pub(crate) fn gpus(&self) -> usize {
        self.ordinals.len()
    }

    /// Logical GPU `g`'s context.
    pub(crate) fn ctx(&self, g: usize) -> &Context {
        match self.of_logical[g] {
            None => self.primary,
            Some(i) => &self.opened[i].ctx,
        }
    }

    fn kernels(&self, g: usize) -> &Kernels {
        match self.of_logical[g] {
            None => self.primary_kernels,
            Some(i) => &self.opened[i].kernels,
        }
    }

    /// The test kernel as loaded in logical GPU `g`'s context.
    pub(crate) fn test_fn(&self, g: usize) -> Function {
        self.kernels(g).test_fn
    }

    /// Whether logical GPU 0's kernels wait for the grid before them
    /// (`Kernels::waits`).
    pub(crate) fn kernels_wait(&self) -> bool {
        self.kernels(0).waits
    }

    /// The classifier, which runs on logical GPU 0.
    pub(crate) fn classify_fn(&self) -> Function {
        self.kernels(0).classify_fn
    }

    /// Logical GPU `g`'s stream.
    pub(crate) fn stream(&self, g: usize) -> &Stream {
        &self.streams[g]
    }

    /// Orders the test kernels the other logical GPUs queue next after
    /// what logical GPU 0's stream holds now (the fills and the previous
    /// classifier).
    pub(crate) fn line_up(&self) -> Result<(), GpuError> {
        if self.gpus() == 1 {
            return Ok(());
        }
        self.streams[0].record(&self.ready)?;
        for s in &self.streams[1..] {
            s.wait(&self.ready)?;
        }
        Ok(())
    }

    /// Orders what logical GPU 0 queues next (the classifier) after the
    /// test kernels the other logical GPUs queued.
    pub(crate) fn join(&self) -> Result<(), GpuError> {
        for g in 1..self.gpus() {
            self.streams[g].record(&self.done[g])?;
            self.streams[0].wait(&self.done[g])?;
        }
        Ok(())
    }

    /// Waits for everything queued on every logical GPU; a kernel fault
    /// shows up here.
    pub(crate) fn synchronize(&self) -> Result<(), GpuError> {
        for s in &self.streams {
            s.synchronize()?;
        }
        // The copies that follow (histogram, records) run in the current
        // context: logical GPU 0's, where the buffers are.
        self.ctx(0).bind()
    }

    /// The device line of a result: the GPU's name and its ordinal, or on
    /// several GPUs the physical device of each logical one; so that a
    /// record of a campaign spread over a node's GPUs says which one ran
    /// it ([`device_kind`] reads the name back).
    pub(crate) fn describe(&self) -> String {
        let names: Vec<&str> = (0..self.gpus())
            .map(|g| self.ctx(g).name.as_str())
            .collect();
        let line = describe(&names, &self.ordinals);
        match self.links.is_empty() {
            true => line,
            false => format!("{}; {})", line.trim_end_matches(')'), self.links.join("; ")),
        }
    }
}

/// The pairs of logical GPUs (of `gpus`) that reach each other's memory:
/// every two. Every GPU reaches logical GPU 0's buffers; each launch's
/// start relay counts in at every launching GPU's relay word (in that
/// GPU's memory); and a location may live in any GPU's memory
/// ([`Layout::remote_homes`]). Enabling only the pairs with GPU 0 made a
/// test on three or four H200s fault at its first start.
fn peer_pairs(gpus: usize) -> Vec<(usize, usize)> {
    (0..gpus)
        .flat_map(|a| (a + 1..gpus).map(move |b| (a, b)))
        .collect()
}

/// How each two of the distinct physical devices a run uses are joined
/// (`0-1 NVLink, P2P rank 0`), for the device line: a record of a run on
/// several GPUs says what joined them. A driver that cannot say leaves
/// the pair out, never fails the run.
fn peer_links<'c>(ctx_of: &dyn Fn(usize) -> (u32, &'c Context), gpus: usize) -> Vec<String> {
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut out = Vec::new();
    for a in 0..gpus {
        for b in a + 1..gpus {
            let ((da, ca), (db, cb)) = (ctx_of(a), ctx_of(b));
            let pair = (da.min(db), da.max(db));
            if da == db || seen.contains(&pair) {
                continue;
            }
            seen.push(pair);
            if let Ok(link) = ca.peer_link(cb) {
                out.push(format!("{}-{} {link}", pair.0, pair.1));
            }
        }
    }
    out
}

/// [`Devices::describe`] of logical GPUs with these names on these
/// physical devices.
fn describe(names: &[&str], ordinals: &[u32]) -> String {
    let names = names_part(names);
    if ordinals.len() == 1 {
        return format!("{names} (device {})", ordinals[0]);
    }
    format!(
        "{names} (logical GPUs on devices {})",
        format_gpu_map(ordinals)
    )
}

/// The names part of a device line: the logical GPUs' device names, a
/// run of one name said once.
fn names_part(names: &[&str]) -> String {
    let mut names = names.to_vec();
    names.dedup();
    names.join(" + ")
}

/// The kind of device a result's device line names (its GPUs' names,
/// without the ordinals): what results are kept by when any of a node's
/// GPUs of one kind may have run a test (a tuning entry's `device`).
pub fn device_kind(line: &str) -> &str {
    line.split_once(" (").map_or(line, |(kind, _)| kind)
}

/// The kind a run on devices with these names (one per logical GPU) gets
/// from [`device_kind`] of its device line, worked out before the run.
pub(crate) fn kind_of(names: &[&str]) -> String {
    device_kind(&names_part(names)).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_text as text;

    const MP_TWO: &str = "PTX MP-two\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n st.relaxed.sys x, 1 | ld.relaxed.sys r0, y ;\n st.relaxed.sys y, 1 | ld.relaxed.sys r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n";

    fn layout(src: &str) -> Layout {
        Layout::of(&text::parse(src).unwrap()).unwrap()
    }

    #[test]
    fn the_device_line_names_the_ordinals_and_gives_back_the_kind() {
        let one = describe(&["NVIDIA H100 80GB HBM3"], &[2]);
        assert_eq!(one, "NVIDIA H100 80GB HBM3 (device 2)");
        let two = describe(&["NVIDIA H100 80GB HBM3"; 2], &[3, 1]);
        assert_eq!(two, "NVIDIA H100 80GB HBM3 (logical GPUs on devices 3,1)");
        for line in [&one, &two] {
            assert_eq!(device_kind(line), "NVIDIA H100 80GB HBM3");
        }
        assert_eq!(device_kind("NVIDIA A100"), "NVIDIA A100");
        // Worked out before a run, the kind is the one its line gives.
        for (names, ordinals) in [(&["A", "A"][..], &[0, 1][..]), (&["A", "B"], &[0, 2])] {
            assert_eq!(kind_of(names), device_kind(&describe(names, ordinals)));
        }
    }

    /// Each launch's start relay adds to every launching GPU's relay
    /// word, so every GPU must reach every other's memory, not only GPU
    /// 0's: with the pairs to GPU 0 alone, IRIW on four GPUs faulted.
    #[test]
    fn every_two_gpus_reach_each_other() {
        assert_eq!(peer_pairs(1), vec![]);
        assert_eq!(peer_pairs(2), vec![(0, 1)]);
        assert_eq!(
            peer_pairs(4),
            vec![(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
    }

    #[test]
    fn the_map_sends_each_logical_gpu_to_its_device_or_says_why_not() {
        let two = layout(MP_TWO);
        let k = |map: Option<Vec<u32>>| Knobs {
            gpu_map: map,
            ..Knobs::default()
        };
        // Identity: two devices needed.
        assert_eq!(physical_devices(&two, &k(None), 2).unwrap(), vec![0, 1]);
        assert_eq!(
            physical_devices(&two, &k(None), 1).unwrap_err(),
            "the test places threads on 2 GPUs and this machine has 1 (LITMUS_GPU_MAP=0,0 runs them all on device 0)"
        );
        // Both logical GPUs on device 0.
        assert_eq!(
            physical_devices(&two, &k(Some(vec![0, 0])), 1).unwrap(),
            vec![0, 0]
        );
        assert_eq!(
            physical_devices(&two, &k(Some(vec![1, 0])), 2).unwrap(),
            vec![1, 0]
        );
        assert_eq!(
            physical_devices(&two, &k(Some(vec![0, 1])), 1).unwrap_err(),
            "LITMUS_GPU_MAP=0,1 puts logical GPU 1 on device 1 and this machine has 1 device"
        );
        assert_eq!(
            physical_devices(&two, &k(Some(vec![0])), 4).unwrap_err(),
            "the test places threads on 2 GPUs and LITMUS_GPU_MAP=0 maps 1 logical GPU"
        );
        // A test on one GPU uses the map's first entry.
        let one = layout(&MP_TWO.replace("P1@cta 0,gpu 1", "P1@cta 1,gpu 0"));
        assert_eq!(
            physical_devices(&one, &k(Some(vec![1, 0])), 2).unwrap(),
            vec![1]
        );
    }
}
