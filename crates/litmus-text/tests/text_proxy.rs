//! PTX 7.5 proxies in the text format: alias declarations, `suld`/`sust`,
//! `tld`, `cold` and `fence.proxy.<kind>` read, print back, and every
//! misuse is an error at its `line:column`.

use litmus_core::instr::InstrKind;
use litmus_core::proxy::{Proxy, ProxyFenceKind};
use litmus_text as text;

#[path = "text_support/errors.rs"]
mod support;
use support::errors;

/// A one-thread test with `x` and the aliases `decls`; instruction rows
/// start on line 4, column 2.
fn test(decls: &str, body: &str) -> String {
    let rows: String = body.lines().map(|l| format!(" {l} ;\n")).collect();
    format!("PTX t\n{{ x=0; {decls} }}\n P0@cta 0,gpu 0 ;\n{rows}exists (x == 0)")
}

const ALIASES: &str =
    "y @ generic aliases x; s @ surface aliases x; t @ texture aliases y; c @ constant aliases x;";

#[test]
fn every_form_reads_and_prints_back() {
    let src = test(
        ALIASES,
        "st.weak x, 1\nfence.proxy.alias\nld.weak r0, y\nsust.weak s, 2\nfence.proxy.surface\n\
         suld.weak r1, s\nfence.proxy.texture\ntld.weak r2, t\nfence.proxy.constant\ncold.weak r3, c",
    );
    let t = text::parse(&src).unwrap();
    let aliases: Vec<(&str, Proxy, &str)> = t
        .locations
        .iter()
        .filter_map(|l| {
            l.alias
                .as_ref()
                .map(|a| (l.name.text.as_str(), a.proxy, a.target.text.as_str()))
        })
        .collect();
    assert_eq!(
        aliases,
        [
            ("y", Proxy::Generic, "x"),
            ("s", Proxy::Surface, "x"),
            ("t", Proxy::Texture, "y"),
            ("c", Proxy::Constant, "x")
        ]
    );
    let body: Vec<&InstrKind> = t.threads[0].body.iter().map(|i| &i.kind).collect();
    assert!(matches!(
        body[1],
        InstrKind::ProxyFence(ProxyFenceKind::Alias)
    ));
    assert!(matches!(
        body[3],
        InstrKind::ProxyStore {
            proxy: Proxy::Surface,
            ..
        }
    ));
    let loads: Vec<Proxy> = body
        .iter()
        .filter_map(|k| match k {
            InstrKind::ProxyLoad { proxy, .. } => Some(*proxy),
            _ => None,
        })
        .collect();
    assert_eq!(loads, [Proxy::Surface, Proxy::Texture, Proxy::Constant]);
    let printed = text::print(&t);
    assert!(printed.contains("t @ texture aliases y;"), "{printed}");
    assert!(printed.contains("fence.proxy.constant"), "{printed}");
    assert_eq!(text::parse(&printed).unwrap(), t);
}

#[test]
fn alias_declaration_mistakes() {
    assert_eq!(
        errors(&test("y @ generic aliases q;", "ld.weak r0, y")),
        "2:28: `y` aliases unknown location `q`: declare `q` with the other locations"
    );
    assert_eq!(
        errors(&test("y @ generic aliases z; z @ generic aliases y;", "ld.weak r0, y")),
        "2:8: alias cycle: following the aliases of `y` leads back to it (an alias needs memory of its own at the end of the chain)\n\
         2:31: alias cycle: following the aliases of `z` leads back to it (an alias needs memory of its own at the end of the chain)"
    );
    assert_eq!(
        errors(&test("y @ virtual aliases x;", "ld.weak r0, y")),
        "2:12: expected a proxy (`generic`, `surface`, `texture` or `constant`) after `@`, found `virtual`"
    );
    assert_eq!(
        errors(&test("y @ generic alias x;", "ld.weak r0, y")),
        "2:20: expected `aliases` and the location aliased (`y @ generic aliases x`), found `alias`"
    );
    assert_eq!(
        errors(&test("shared y @ generic aliases x;", "ld.weak r0, y")),
        "2:17: an alias takes no memory space: it is memory of the location it aliases"
    );
    assert_eq!(
        errors("PTX t\n{ shared x=0; y @ generic aliases x; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, y ;\nexists (x == 0)"),
        "2:35: `x` is shared memory: only global locations can be aliased"
    );
}

#[test]
fn proxy_access_mistakes() {
    assert_eq!(
        errors(&test(ALIASES, "sust.weak t, 1")),
        "4:12: `sust` writes `t`, but texture memory is read-only"
    );
    assert_eq!(
        errors(&test(
            ALIASES,
            "st.weak t, 1\nst.weak c, 1\natom.relaxed.gpu.add r0, t, 1"
        )),
        "4:10: `st` writes `t`, but texture memory is read-only\n\
         5:10: `st` writes `c`, but constant memory is read-only\n\
         6:27: `atom` writes `t`, but texture memory is read-only"
    );
    assert_eq!(
        errors(&test(ALIASES, "ld.weak r0, t\nld.weak r1, s")),
        "4:14: `ld` is a generic access, but `t` is declared a texture alias: reach it with `tld`\n\
         5:14: `ld` is a generic access, but `s` is declared a surface alias: reach it with `suld`"
    );
    assert_eq!(
        errors(&test(
            ALIASES,
            "tld.weak r0, x\nsuld.weak r1, y\ncold.weak r2, t"
        )),
        "4:15: `tld` goes through the texture proxy, but `x` is not declared a texture alias\n\
         5:16: `suld` goes through the surface proxy, but `y` is not declared a surface alias\n\
         6:16: `cold` goes through the constant proxy, but `t` is not declared a constant alias"
    );
    assert_eq!(
        errors(&test(ALIASES, "tld.relaxed.gpu r0, t\nsust.weak.cta s, 1")),
        "4:2: `tld` does not take `.relaxed` semantics; surface, texture and constant accesses are .weak only\n\
         5:2: `sust.weak` takes no scope, found `.cta`"
    );
}

#[test]
fn proxy_fence_mistakes() {
    assert_eq!(
        errors(&test(ALIASES, "fence.proxy.generic\nfence.proxy\nfence.proxy.alias.cta\nfence.proxy.alias r0")),
        "4:14: unknown qualifier `.generic` on `fence`: expected a proxy kind (.alias, .surface, .texture or .constant)\n\
         5:2: `fence` needs a proxy kind (.alias, .surface, .texture or .constant)\n\
         6:20: unknown qualifier `.cta` on `fence`: expected nothing after the proxy kind\n\
         7:2: `fence` takes no operands, found 1"
    );
}

/// The fuzzers' proxy seed is itself a valid test that round-trips, so
/// that mutating it exercises the accepting paths too.
#[test]
fn the_fuzz_seed_reads() {
    let t = text::parse(include_str!("data/proxies.litmus")).unwrap();
    assert_eq!(t.locations.iter().filter(|l| l.alias.is_some()).count(), 4);
    assert_eq!(text::parse(&text::print(&t)).unwrap(), t);
}
