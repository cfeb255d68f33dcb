//! The per-launch draws of the environment: hashes of the launch's seed,
//! so that a run is reproduced by its seed and knobs alone.

use crate::emit::Emitter;

/// A 32-bit hash of `seed ^ salt` (the murmur3 finaliser): cheap, and
/// every bit of the seed reaches every bit of the draw.
pub(crate) fn draw(out: &mut Emitter, seed: &str, salt: u32) -> String {
    let h = out.r32();
    let t = out.r32();
    out.ins(format!("xor.b32 {h}, {seed}, {salt}"));
    for (shift, mult) in [
        (16, Some(0x85eb_ca6bu32)),
        (13, Some(0xc2b2_ae35)),
        (16, None),
    ] {
        out.ins(format!("shr.u32 {t}, {h}, {shift}"));
        out.ins(format!("xor.b32 {h}, {h}, {t}"));
        if let Some(m) = mult {
            out.ins(format!("mul.lo.u32 {h}, {h}, {m}"));
        }
    }
    h
}

/// A predicate that holds in `pct` percent of launches (`pct` is the
/// register holding the percentage), drawn from the launch seed with
/// `salt`.
pub(crate) fn chance_of(out: &mut Emitter, launch: &str, salt: u32, pct: &str) -> String {
    let h = draw(out, launch, salt);
    let r = out.r32();
    let p = out.pred();
    out.ins(format!("rem.u32 {r}, {h}, 100"));
    out.ins(format!("setp.lt.u32 {p}, {r}, {pct}"));
    p
}
