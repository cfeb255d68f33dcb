//! What crosses between the tests' process and the GPU's: a run's
//! result, its error, a job for the worker, as bytes. On Linux the bytes
//! cross a pipe from a child process (`isolate`, `worker`); the encoding
//! itself has no platform in it, so it is built and tested everywhere.

use std::time::Duration;

use super::{GpuError, HwResult, Knobs, PlacementReport};

/// Runs `f`, turning a panic into an error that carries its message: a
/// worker answers every job, even one that panicked.
pub(crate) fn caught<T>(f: impl FnOnce() -> Result<T, GpuError>) -> Result<T, GpuError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        Err(GpuError::Worker(format!("the GPU worker panicked: {msg}")))
    })
}

/// A value that crosses the pipe: written by the child, read by the parent.
pub(crate) trait Wire: Sized {
    fn put(&self, w: &mut Vec<u8>);
    fn get(r: &mut &[u8]) -> Option<Self>;
}

impl Wire for u64 {
    fn put(&self, w: &mut Vec<u8>) {
        w.extend_from_slice(&self.to_le_bytes());
    }
    fn get(r: &mut &[u8]) -> Option<u64> {
        let (head, rest) = r.split_first_chunk::<8>()?;
        *r = rest;
        Some(u64::from_le_bytes(*head))
    }
}

impl Wire for u32 {
    fn put(&self, w: &mut Vec<u8>) {
        u64::from(*self).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<u32> {
        u32::try_from(u64::get(r)?).ok()
    }
}

impl Wire for usize {
    fn put(&self, w: &mut Vec<u8>) {
        (*self as u64).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<usize> {
        usize::try_from(u64::get(r)?).ok()
    }
}

impl Wire for String {
    fn put(&self, w: &mut Vec<u8>) {
        put_bytes(self.as_bytes(), w);
    }
    fn get(r: &mut &[u8]) -> Option<String> {
        String::from_utf8(Bytes::get(r)?.0).ok()
    }
}

/// Bytes behind their length: a string's, an image's.
fn put_bytes(bytes: &[u8], w: &mut Vec<u8>) {
    bytes.len().put(w);
    w.extend_from_slice(bytes);
}

impl<T: Wire> Wire for Vec<T> {
    fn put(&self, w: &mut Vec<u8>) {
        self.len().put(w);
        for x in self {
            x.put(w);
        }
    }
    fn get(r: &mut &[u8]) -> Option<Vec<T>> {
        let len = usize::get(r)?;
        // Each element takes at least a byte: a corrupt length cannot make
        // us allocate more than the message holds.
        let mut out = Vec::with_capacity(len.min(r.len()));
        for _ in 0..len {
            out.push(T::get(r)?);
        }
        Some(out)
    }
}

/// Bytes as they are (a compiled image), not a word each as `Vec<u8>`'s
/// elements would go.
pub(crate) struct Bytes(pub Vec<u8>);

impl Wire for Bytes {
    fn put(&self, w: &mut Vec<u8>) {
        put_bytes(&self.0, w);
    }
    fn get(r: &mut &[u8]) -> Option<Bytes> {
        let len = usize::get(r)?;
        if len > r.len() {
            return None;
        }
        let (s, rest) = r.split_at(len);
        *r = rest;
        Some(Bytes(s.to_vec()))
    }
}

impl Wire for crate::Build {
    fn put(&self, w: &mut Vec<u8>) {
        for s in [&self.target, &self.version, &self.toolchain] {
            s.put(w);
        }
    }
    fn get(r: &mut &[u8]) -> Option<crate::Build> {
        Some(crate::Build {
            target: Wire::get(r)?,
            version: Wire::get(r)?,
            toolchain: Wire::get(r)?,
        })
    }
}

impl<A: Wire, B: Wire> Wire for (A, B) {
    fn put(&self, w: &mut Vec<u8>) {
        self.0.put(w);
        self.1.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<(A, B)> {
        Some((A::get(r)?, B::get(r)?))
    }
}

impl<T: Wire> Wire for Result<T, GpuError> {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            Ok(v) => {
                0u64.put(w);
                v.put(w);
            }
            Err(e) => {
                1u64.put(w);
                e.put(w);
            }
        }
    }
    fn get(r: &mut &[u8]) -> Option<Self> {
        match u64::get(r)? {
            0 => Some(Ok(T::get(r)?)),
            1 => Some(Err(GpuError::get(r)?)),
            _ => None,
        }
    }
}

impl Wire for HwResult {
    fn put(&self, w: &mut Vec<u8>) {
        self.histogram.put(w);
        self.unfinished.put(w);
        self.launches.put(w);
        self.instances.put(w);
        (self.wall.as_nanos() as u64).put(w);
        self.device.put(w);
        self.host_threads.put(w);
        self.build.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<HwResult> {
        Some(HwResult {
            histogram: Wire::get(r)?,
            unfinished: Wire::get(r)?,
            launches: Wire::get(r)?,
            instances: Wire::get(r)?,
            wall: Duration::from_nanos(Wire::get(r)?),
            device: Wire::get(r)?,
            host_threads: Wire::get(r)?,
            build: Wire::get(r)?,
            // The parent knows its knobs; see `gpu::run`.
            knobs: Knobs::default(),
        })
    }
}

impl Wire for PlacementReport {
    fn put(&self, w: &mut Vec<u8>) {
        self.instances.put(w);
        self.roles.put(w);
        self.sms.put(w);
        self.gpus.put(w);
        self.cpu_threads.put(w);
    }
    fn get(r: &mut &[u8]) -> Option<PlacementReport> {
        Some(PlacementReport {
            instances: Wire::get(r)?,
            roles: Wire::get(r)?,
            sms: Wire::get(r)?,
            gpus: Wire::get(r)?,
            cpu_threads: Wire::get(r)?,
        })
    }
}

impl Wire for GpuError {
    fn put(&self, w: &mut Vec<u8>) {
        let strings = |w: &mut Vec<u8>, tag: u64, fields: &[&String]| {
            tag.put(w);
            for f in fields {
                f.put(w);
            }
        };
        match self {
            GpuError::NoDriver => strings(w, 0, &[]),
            GpuError::NoDevice => strings(w, 1, &[]),
            GpuError::Driver { call, name, text } => strings(w, 2, &[call, name, text]),
            GpuError::Fault {
                test,
                call,
                name,
                text,
            } => strings(w, 3, &[test, call, name, text]),
            GpuError::Jit { code, target, log } => strings(w, 4, &[code, target, log]),
            GpuError::Ptx(e) => strings(w, 5, &[&e.to_string()]),
            GpuError::Knob {
                var,
                value,
                expected,
            } => strings(w, 6, &[var, value, expected]),
            GpuError::Lost { expected, counted } => {
                7u64.put(w);
                expected.put(w);
                counted.put(w);
            }
            GpuError::TableFull { entries, overflow } => {
                8u64.put(w);
                entries.put(w);
                overflow.put(w);
            }
            GpuError::Placement(m) => strings(w, 9, &[m]),
            GpuError::Worker(m) => strings(w, 10, &[m]),
            GpuError::Required { reason } => strings(w, 11, &[reason]),
            GpuError::Tuning(m) => strings(w, 12, &[m]),
            GpuError::TextureTooLarge { texels, max } => {
                13u64.put(w);
                texels.put(w);
                max.put(w);
            }
            GpuError::Host(m) => strings(w, 14, &[m]),
            GpuError::Unfaithful(m) => strings(w, 15, &[m]),
            GpuError::Toolchain(m) => strings(w, 16, &[m]),
        }
    }
    fn get(r: &mut &[u8]) -> Option<GpuError> {
        let s = |r: &mut &[u8]| String::get(r);
        Some(match u64::get(r)? {
            0 => GpuError::NoDriver,
            1 => GpuError::NoDevice,
            2 => GpuError::Driver {
                call: s(r)?,
                name: s(r)?,
                text: s(r)?,
            },
            3 => GpuError::Fault {
                test: s(r)?,
                call: s(r)?,
                name: s(r)?,
                text: s(r)?,
            },
            4 => GpuError::Jit {
                code: s(r)?,
                target: s(r)?,
                log: s(r)?,
            },
            5 => GpuError::Worker(s(r)?),
            6 => GpuError::Knob {
                var: s(r)?,
                value: s(r)?,
                expected: s(r)?,
            },
            7 => GpuError::Lost {
                expected: u64::get(r)?,
                counted: u64::get(r)?,
            },
            8 => GpuError::TableFull {
                entries: u32::get(r)?,
                overflow: u64::get(r)?,
            },
            9 => GpuError::Placement(s(r)?),
            10 => GpuError::Worker(s(r)?),
            11 => GpuError::Required { reason: s(r)? },
            12 => GpuError::Tuning(s(r)?),
            13 => GpuError::TextureTooLarge {
                texels: u64::get(r)?,
                max: u64::get(r)?,
            },
            14 => GpuError::Host(s(r)?),
            15 => GpuError::Unfaithful(s(r)?),
            16 => GpuError::Toolchain(s(r)?),
            _ => return None,
        })
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<T: Wire>(v: &T) -> Option<T> {
        let mut w = Vec::new();
        v.put(&mut w);
        let mut r = w.as_slice();
        let out = T::get(&mut r);
        assert!(r.is_empty(), "bytes left over");
        out
    }

    #[test]
    fn results_and_errors_cross_the_pipe() {
        let hist: Result<Vec<(Vec<u32>, u64)>, GpuError> = Ok(vec![(vec![1, 0], 7), (vec![], 1)]);
        assert_eq!(
            round_trip(&hist).unwrap().unwrap(),
            vec![(vec![1, 0], 7), (vec![], 1)]
        );
        let fault = GpuError::Fault {
            test: "MP".into(),
            call: "cuCtxSynchronize".into(),
            name: "CUDA_ERROR_ILLEGAL_ADDRESS".into(),
            text: "an illegal memory access was encountered".into(),
        };
        let text = fault.to_string();
        let back = round_trip(&Err::<u64, GpuError>(fault))
            .unwrap()
            .unwrap_err();
        assert_eq!(back.to_string(), text);
        let too_large = GpuError::TextureTooLarge {
            texels: 1 << 28,
            max: 1 << 27,
        };
        let text = too_large.to_string();
        let back = round_trip(&Err::<u64, GpuError>(too_large))
            .unwrap()
            .unwrap_err();
        assert!(
            matches!(back, GpuError::TextureTooLarge { texels, max } if texels == 1 << 28 && max == 1 << 27)
        );
        assert_eq!(back.to_string(), text);
        let host = GpuError::Host("a host thread panicked".into());
        let back = round_trip(&Err::<u64, GpuError>(host))
            .unwrap()
            .unwrap_err();
        assert!(matches!(&back, GpuError::Host(m) if m == "a host thread panicked"));
    }

    #[test]
    fn a_truncated_message_is_refused() {
        let mut w = Vec::new();
        Ok::<String, GpuError>("NVIDIA H100".into()).put(&mut w);
        w.truncate(w.len() - 3);
        let mut r = w.as_slice();
        assert!(Result::<String, GpuError>::get(&mut r).is_none());
    }
}
