//! PTX 7.5 aliases in the generated PTX, checked without a GPU: a generic
//! alias is its root's slot seen through a second mapping (a kernel
//! parameter), a texture alias a `tex.1d` fetch from a texture object (a
//! kernel parameter), and what CUDA cannot build is refused with the
//! reason.

use litmus_core::ir::Test;
use litmus_ptx::layout::{Reach, TextureAlias};
use litmus_ptx::{self as ptx, Layout, PtxError};
use litmus_text as text;

fn parse(src: &str) -> Test {
    text::parse(src).unwrap_or_else(|e| panic!("{}", e.render("inline")))
}

fn loc(test: &Test, name: &str) -> usize {
    test.locations
        .iter()
        .position(|l| l.name.text == name)
        .unwrap()
}

/// The kernel called `name` of a module: its header and body.
fn kernel<'a>(ptx: &'a str, name: &str) -> &'a str {
    let start = ptx
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("no kernel {name} in\n{ptx}"));
    let rest = &ptx[start..];
    &rest[..rest.find("\n}\n").unwrap_or(rest.len())]
}

/// The register an instruction `<prefix> <reg>, ...` writes, found by
/// its text before the register.
fn written_by<'a>(ptx: &'a str, prefix: &str) -> &'a str {
    let line = ptx
        .lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no `{prefix}` in\n{ptx}"));
    let rest = line.trim_start()[prefix.len()..].trim_start();
    &rest[..rest.find(',').unwrap()]
}

const MP_ALIAS: &str = "PTX MP-alias\n{ x=0; y @ generic aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | fence.proxy.alias ;\n | ld.weak r1, y ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";

const MP_TEXTURE: &str = "PTX MP-texture\n{ x=0; t @ texture aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | tld.weak r1, t ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";

#[test]
fn a_generic_alias_is_its_roots_slot_through_a_second_mapping() {
    let test = parse(MP_ALIAS);
    let layout = Layout::of(&test).unwrap();
    let (x, y, flag) = (loc(&test, "x"), loc(&test, "y"), loc(&test, "flag"));
    // The alias has no slot of its own: it is x's memory, x's permutation.
    assert_eq!(layout.global_locs, vec![x, flag]);
    assert_eq!(layout.slot_of[y], layout.slot_of[x]);
    assert_eq!(layout.views, vec![y]);
    assert_eq!(layout.aliases.len(), 1);
    assert_eq!(layout.aliases[0].loc, y);
    assert_eq!(layout.aliases[0].reach, Reach::View(1));
    assert!(layout.textures.is_empty());
    assert_eq!(
        layout.knob_words(),
        Layout::of(&parse(
            &MP_ALIAS
                .replace("y @ generic aliases x;", "")
                .replace("r1, y", "r1, x")
        ))
        .unwrap()
        .knob_words()
    );

    let p = ptx::generate(&test).unwrap();
    let test_kernel = kernel(&p, "litmus_test");
    let classify = kernel(&p, "litmus_classify");
    assert!(
        test_kernel.contains(
            "\t.param .u64 p_launch,\n\t.param .u64 p_view1,\n\t.param .align 4 .b8 p_knobw["
        ),
        "{test_kernel}"
    );
    assert!(!test_kernel.contains("p_tex"), "{test_kernel}");
    // The classifier never reaches the alias: it reads and resets roots.
    assert!(!classify.contains("p_view"), "{classify}");
    assert!(
        test_kernel.contains("\tfence.proxy.alias;\n"),
        "{test_kernel}"
    );

    // The alias's address: x's slot address plus (second base - first).
    let delta_line = test_kernel
        .lines()
        .find(|l| l.contains("sub.u64"))
        .unwrap_or_else(|| panic!("no delta of the views in\n{test_kernel}"));
    let delta = written_by(delta_line, "sub.u64");
    let load = test_kernel
        .lines()
        .find(|l| l.contains("ld.global.u32 %t1r1, ["))
        .unwrap_or_else(|| panic!("no weak load of y in\n{test_kernel}"));
    let addr = &load[load.find('[').unwrap() + 1..load.find(']').unwrap()];
    assert!(
        test_kernel.contains(&format!("add.u64 {addr}, {addr}, {delta};")),
        "the load of y does not add the views' delta {delta} to {addr}:\n{test_kernel}"
    );
    // The delta is the second base minus the first.
    let view_param = test_kernel
        .lines()
        .position(|l| l.contains("[p_view1]"))
        .unwrap();
    let lines: Vec<&str> = test_kernel.lines().collect();
    assert!(
        lines[view_param + 1].contains("cvta.to.global.u64"),
        "{}",
        lines[view_param + 1]
    );
    assert!(
        lines[view_param + 2].contains(&format!("sub.u64 {delta}, ")),
        "{}",
        lines[view_param + 2]
    );
    // x's own store goes through the first mapping, with no delta.
    let store = test_kernel
        .lines()
        .find(|l| l.contains("st.global.u32 ["))
        .unwrap();
    let x_addr = &store[store.find('[').unwrap() + 1..store.find(']').unwrap()];
    assert!(
        !test_kernel.contains(&format!("add.u64 {x_addr}, {x_addr}, {delta};")),
        "{test_kernel}"
    );
}

#[test]
fn a_texture_alias_is_a_tex_fetch_from_a_texture_parameter() {
    let test = parse(MP_TEXTURE);
    let layout = Layout::of(&test).unwrap();
    let (x, t, flag) = (loc(&test, "x"), loc(&test, "t"), loc(&test, "flag"));
    assert_eq!(layout.global_locs, vec![x, flag]);
    assert!(layout.views.is_empty());
    assert_eq!(layout.textures, vec![TextureAlias { loc: t, view: 0 }]);
    assert_eq!(layout.aliases[0].reach, Reach::Texture(0));
    assert_eq!(layout.aliases[0].slot, 0);
    assert!(layout.has_aliases());

    let p = ptx::generate(&test).unwrap();
    let k = kernel(&p, "litmus_test");
    assert!(
        k.contains(
            "\t.param .u64 p_launch,\n\t.param .u64 p_tex0,\n\t.param .align 4 .b8 p_knobw["
        ),
        "{k}"
    );
    // Unified texture mode: a .u64 texture object, no module directive.
    assert!(!p.contains(".texmode_independent"), "{p}");
    let handle = k
        .lines()
        .find(|l| l.contains("[p_tex0]"))
        .map(|l| written_by(l, "ld.param.u64"))
        .unwrap_or_else(|| panic!("p_tex0 is never loaded in\n{k}"));
    let fetch = k
        .lines()
        .find(|l| l.contains("tex.1d.v4.u32.s32"))
        .unwrap_or_else(|| panic!("no tex.1d in\n{k}"));
    assert!(
        fetch.contains("{%t1r1, ") && fetch.contains(&format!("[{handle}, {{")),
        "{fetch}"
    );
    // The texel is x's slot index times the stride: the slot's word.
    let texel = &fetch[fetch.rfind('{').unwrap() + 1..fetch.rfind("}]").unwrap()];
    assert!(
        k.contains(&format!("mul.lo.u32 {texel}, ")),
        "the texel {texel} is not computed in\n{k}"
    );
    assert!(!kernel(&p, "litmus_classify").contains("p_tex"));
}

#[test]
fn a_texture_over_a_generic_alias_reads_through_its_mapping() {
    let src = MP_TEXTURE.replace(
        "t @ texture aliases x;",
        "y @ generic aliases x; t @ texture aliases y;",
    );
    let test = parse(&src);
    let layout = Layout::of(&test).unwrap();
    let (y, t) = (loc(&test, "y"), loc(&test, "t"));
    assert_eq!(layout.views, vec![y]);
    assert_eq!(layout.textures, vec![TextureAlias { loc: t, view: 1 }]);
    let p = ptx::generate(&test).unwrap();
    assert!(
        p.contains("\t.param .u64 p_view1,\n\t.param .u64 p_tex0,\n\t.param .align 4 .b8 p_knobw["),
        "{p}"
    );
}

#[test]
fn a_condition_on_an_alias_reads_its_root() {
    let on_alias = MP_ALIAS.replace("P1:r1 != 2)", "y == 2)");
    let on_root = MP_ALIAS.replace("P1:r1 != 2)", "x == 2)");
    let (a, r) = (parse(&on_alias), parse(&on_root));
    assert_eq!(Layout::of(&a).unwrap().slot_of[loc(&a, "y")], Some(0));
    assert_eq!(ptx::generate(&a).unwrap(), ptx::generate(&r).unwrap());
}

#[test]
fn an_unused_alias_changes_nothing() {
    let plain = "PTX MP\n{ x=0; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";
    let declared = plain.replace(
        "{ x=0; flag=0; }",
        "{ x=0; y @ generic aliases x; t @ texture aliases y; s @ surface aliases x; flag=0; }",
    );
    let p = ptx::generate(&parse(plain)).unwrap();
    assert!(!p.contains("p_view") && !p.contains("p_tex"), "{p}");
    assert_eq!(ptx::generate(&parse(&declared)).unwrap(), p);
}

#[test]
fn what_cuda_cannot_alias_is_refused_with_the_reason() {
    let refused = |src: &str, needles: &[&str]| {
        let e = ptx::generate(&parse(src)).unwrap_err();
        assert!(matches!(e, PtxError::Unsupported(_)), "{e}");
        for needle in needles {
            assert!(e.to_string().contains(needle), "{needle:?} not in: {e}");
        }
    };
    let surface = "PTX MP-surface\n{ x=0; s @ surface aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n sust.weak s, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";
    refused(
        surface,
        &[
            "`sust` in thread `P0`",
            "`s` is a surface alias of `x`",
            "CUDA surfaces bind only CUDA arrays, which have no global address",
        ],
    );
    refused(
        &MP_TEXTURE.replace(
            "tld.weak r1, t ;",
            "fence.proxy.texture ;\n | tld.weak r1, t ;",
        ),
        &[
            "`fence.proxy.texture` in thread `P1`",
            "PTX has no such instruction",
            "fence.proxy.alias",
        ],
    );
    for kind in ["surface", "constant"] {
        refused(
            &MP_ALIAS.replace("fence.proxy.alias", &format!("fence.proxy.{kind}")),
            &[
                &format!("`fence.proxy.{kind}`"),
                "PTX has no such instruction",
            ],
        );
    }
    let constant = "PTX MP-constant\n{ x=0; c @ constant aliases x; flag=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | ld.acquire.gpu r0, flag ;\n st.release.gpu flag, 1 | cold.weak r1, c ;\nexists (P1:r0 == 1 /\\ P1:r1 != 2)\n";
    refused(
        constant,
        &[
            "`cold` in thread `P1`",
            "`c`",
            "constant bank",
            "cannot alias global memory",
        ],
    );
}

/// A final condition on an alias and its root reads their one slot once:
/// the classifier resets a location's slot as it reads it (an exchange),
/// so a second read would see the initial value, not the final one.
#[test]
fn an_alias_and_its_root_in_the_final_condition_share_one_read_and_reset() {
    let src = "PTX alias-final\n{ x=3; y @ generic aliases x; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 2 | st.weak y, 1 ;\nexists (x == 2 /\\ y == 2)\n";
    let code = ptx::generate(&parse(src)).expect("generates");
    let classify = kernel(&code, "litmus_classify");
    let exchanges: Vec<&str> = classify
        .lines()
        .filter(|l| l.contains("atom.global.exch.b32"))
        .collect();
    assert_eq!(exchanges.len(), 1, "{classify}");
    // It puts back x's initial value, and no plain store resets x again.
    assert!(
        exchanges[0].trim_end().ends_with(", 3;"),
        "{}",
        exchanges[0]
    );
    assert!(
        !classify
            .lines()
            .any(|l| l.contains("st.global.u32") && l.ends_with(", 3;")),
        "{classify}"
    );
}
