//! How each kind of knob value crosses to the worker (`Wire`): numbers as
//! themselves, a choice by its name (read back by the same reader as its
//! variable's value, so that a new choice needs no new code here), and an
//! optional value behind a flag.

use litmus_ptx::isa::SmArch;
use litmus_ptx::layout::StressPattern;
use litmus_ptx::Addressing;

use super::Perm;
use crate::arrangement::{CtaSpread, GpuPartners, Lanes, LocLayout};
use crate::codegen::{addressing_name, parse_addressing, PtxTarget};
use crate::environment::{Assign, SpinScope};
use crate::gpu_start::GpuStart;
use crate::wire::Wire;

impl Wire for i32 {
    fn put(&self, w: &mut Vec<u8>) {
        u64::from(*self as u32).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<i32> {
        u32::get(r).map(|n| n as i32)
    }
}

impl Wire for bool {
    fn put(&self, w: &mut Vec<u8>) {
        u64::from(*self).put(w);
    }
    fn get(r: &mut &[u8]) -> Option<bool> {
        match u64::get(r)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

impl<T: Wire> Wire for Option<T> {
    fn put(&self, w: &mut Vec<u8>) {
        self.is_some().put(w);
        if let Some(v) = self {
            v.put(w);
        }
    }
    fn get(r: &mut &[u8]) -> Option<Option<T>> {
        match bool::get(r)? {
            false => Some(None),
            true => T::get(r).map(Some),
        }
    }
}

/// A target by its number (0: the device's own), so that any architecture
/// crosses, known to this build's list or not.
impl Wire for PtxTarget {
    fn put(&self, w: &mut Vec<u8>) {
        match self {
            PtxTarget::Native => 0u32,
            PtxTarget::Arch(a) => a.number(),
        }
        .put(w);
    }
    fn get(r: &mut &[u8]) -> Option<PtxTarget> {
        Some(match u32::get(r)? {
            0 => PtxTarget::Native,
            n => PtxTarget::Arch(SmArch::new(n)),
        })
    }
}

/// Choices that cross by name: `$name` writes it, `$parse` reads it.
macro_rules! by_name {
    ($($t:ty: $name:expr, $parse:expr;)*) => {$(
        impl Wire for $t {
            fn put(&self, w: &mut Vec<u8>) {
                String::from(($name)(*self)).put(w);
            }
            fn get(r: &mut &[u8]) -> Option<$t> {
                ($parse)(String::get(r)?.as_str()).ok()
            }
        }
    )*};
}

by_name! {
    Perm: Perm::as_str, Perm::parse;
    Lanes: Lanes::as_str, Lanes::parse;
    CtaSpread: CtaSpread::as_str, CtaSpread::parse;
    LocLayout: LocLayout::as_str, LocLayout::parse;
    GpuPartners: GpuPartners::as_str, GpuPartners::parse;
    GpuStart: GpuStart::as_str, GpuStart::parse;
    Addressing: addressing_name, parse_addressing;
    Assign: Assign::as_str, Assign::parse;
    SpinScope: SpinScope::as_str, SpinScope::parse;
    StressPattern: StressPattern::as_str, |t: &str| StressPattern::from_name(t).ok_or(());
}
