//! Atomics on another GPU's memory. An `atom` that reaches a peer's
//! memory across PCIe need not be atomic with that peer's own accesses
//! (as an `atom` on host memory need not be with the host's: see
//! `host_threads::gpu_atomic_racing_the_host`); NVLink makes them native.
//! A test whose GPU thread's `atom` on a location homed on another GPU
//! races a write of a thread on that GPU runs only where the driver
//! reports native peer atomics between the two devices
//! (`CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED`); elsewhere its
//! hardware half says in one line why it did not run.

use cudarc::driver::sys;
use litmus_core::instr::InstrKind;
use litmus_core::ir::Test;

use super::devices::Devices;
use super::driver::check;
use super::GpuError;

/// A GPU thread's `atom` on a location in another logical GPU's memory
/// that a thread on that GPU writes.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct PeerRace {
    /// The logical GPU of the thread that runs the `atom`.
    pub atom_gpu: u32,
    /// The logical GPU whose memory holds the location.
    pub home: u32,
    /// Says which threads and location, for the one-line reason.
    pub what: String,
}

/// The first such race in `test`, if any.
pub(crate) fn gpu_atomic_racing_a_peer(test: &Test) -> Option<PeerRace> {
    let home = |loc: &str| test.location(loc).map(|l| l.gpu);
    let writer_on = |gpu: u32, loc: &str| {
        test.threads
            .iter()
            .filter(|t| !t.placement.host && t.placement.gpu == gpu)
            .find(|t| t.writes(loc))
    };
    test.threads
        .iter()
        .filter(|t| !t.placement.host)
        .find_map(|t| {
            t.body.iter().find_map(|i| {
                let loc = i.kind.loc().filter(|_| matches!(i.kind, InstrKind::Atom { .. }))?;
                let h = home(&loc.text).filter(|h| *h != t.placement.gpu)?;
                let peer = writer_on(h, &loc.text)?;
                Some(PeerRace {
                    atom_gpu: t.placement.gpu,
                    home: h,
                    what: format!(
                        "thread `{}`'s atom on GPU {}'s location `{}` races thread `{}`'s write of it on GPU {h}",
                        t.name, h, loc, peer.name
                    ),
                })
            })
        })
}

/// Refuses a test whose peer atomics the two devices do not make native:
/// logical GPUs on one device are native to each other.
pub(crate) fn refuse_racing_peer_atomics(devices: &Devices, test: &Test) -> Result<(), GpuError> {
    let Some(race) = gpu_atomic_racing_a_peer(test) else {
        return Ok(());
    };
    let (a, h) = (race.atom_gpu as usize, race.home as usize);
    if a >= devices.gpus() || h >= devices.gpus() {
        return Ok(());
    }
    let (da, dh) = (devices.ctx(a), devices.ctx(h));
    if da.ordinal == dh.ordinal {
        return Ok(());
    }
    let mut native = 0;
    // SAFETY: valid out-pointer and devices of open contexts.
    check("cuDeviceGetP2PAttribute", unsafe {
        sys::cuDeviceGetP2PAttribute(
            &mut native,
            sys::CUdevice_P2PAttribute::CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED,
            da.dev,
            dh.dev,
        )
    })?;
    if native == 0 {
        return Err(GpuError::Unfaithful(format!(
            "{}, and devices {} and {} have no native atomics between them (CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED is 0, as over PCIe)",
            race.what, da.ordinal, dh.ordinal
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use litmus_text as text;

    fn parse(src: &str) -> Test {
        text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("t")))
    }

    #[test]
    fn a_gpu_atom_on_a_peers_memory_that_the_peer_writes_is_a_race() {
        let race = parse("PTX r\n{ gpu 1 c=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n atom.relaxed.sys.add r0, c, 1 | st.relaxed.sys c, 2 ;\nexists (P0:r0 == 0)\n");
        let r = gpu_atomic_racing_a_peer(&race).expect("a race");
        assert_eq!((r.atom_gpu, r.home), (0, 1));
        assert!(
            r.what.contains("`P0`") && r.what.contains("`c`") && r.what.contains("`P1`"),
            "{}",
            r.what
        );
        // The location in the atom's own GPU's memory: no peer atomic.
        let local = parse("PTX r\n{ c=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n atom.relaxed.sys.add r0, c, 1 | st.relaxed.sys c, 2 ;\nexists (P0:r0 == 0)\n");
        assert_eq!(gpu_atomic_racing_a_peer(&local), None);
        // No thread on the home GPU writes it: nothing races there.
        let read_only = parse("PTX r\n{ gpu 1 c=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 1 ;\n atom.relaxed.sys.add r0, c, 1 | ld.relaxed.sys r1, c ;\nexists (P0:r0 == 0)\n");
        assert_eq!(gpu_atomic_racing_a_peer(&read_only), None);
    }
}
