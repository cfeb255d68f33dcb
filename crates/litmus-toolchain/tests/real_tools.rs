//! The listing and the check on what a real ptxas makes of generated
//! modules. ptxas and nvdisasm come from LITMUS_PTXAS and LITMUS_NVDISASM;
//! without them each test says it skipped.

use litmus_ptx::isa::{retarget, SmArch};
use litmus_toolchain::{check, lineinfo, Listing, Nvdisasm, Ptxas, Sass, What};

/// Message passing with relaxed accesses: nothing for ptxas to drop,
/// reorder or fold.
const MP: &str = "PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 st.relaxed.gpu x, 1    | ld.relaxed.gpu r0, y   ;
 st.relaxed.gpu y, 1    | ld.relaxed.gpu r1, x   ;
exists (P1:r0 == 1 /\\ P1:r1 == 0)
";

/// herd7's LB+ctrls: each store after a branch on the load to the very
/// next instruction, a dependency ptxas does not keep.
const LB_CTRLS: &str = "PTX LB+ctrls
{ x=0; y=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 ld.relaxed.gpu r0, x   | ld.relaxed.gpu r0, y   ;
 beq r0, 1, L0          | beq r0, 1, L1          ;
 L0:                    | L1:                    ;
 st.relaxed.gpu y, 1    | st.relaxed.gpu x, 1    ;
exists (P0:r0 == 1 /\\ P1:r0 == 1)
";

/// LB where each store is skipped unless the load read 1: a dependency
/// the compiler must keep.
const LB_SKIPS: &str = "PTX LB+skips
{ x=0; y=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 ld.relaxed.gpu r0, x   | ld.relaxed.gpu r0, y   ;
 bne r0, 1, L0          | bne r0, 1, L1          ;
 st.relaxed.gpu y, 1    | st.relaxed.gpu x, 1    ;
 L0:                    | L1:                    ;
exists (P0:r0 == 1 /\\ P1:r0 == 1)
";

fn tools() -> Option<(Ptxas, Nvdisasm)> {
    let (Some(p), Some(n)) = (
        std::env::var_os("LITMUS_PTXAS"),
        std::env::var_os("LITMUS_NVDISASM"),
    ) else {
        println!("skipped: no ptxas (set LITMUS_PTXAS and LITMUS_NVDISASM)");
        return None;
    };
    Some((Ptxas::at(p).unwrap(), Nvdisasm::at(n).unwrap()))
}

fn listing(src: &str, ptxas: &Ptxas, nvdisasm: &Nvdisasm) -> Listing {
    let test = litmus_text::parse(src).unwrap();
    let module = retarget(&litmus_ptx::generate(&test).unwrap(), SmArch::new(80)).unwrap();
    let cubin = ptxas
        .compile(&lineinfo::annotate(&module), SmArch::new(80), true)
        .unwrap();
    let sass = Sass::parse(&nvdisasm.disassemble(&cubin).unwrap());
    Listing::new(&module, &sass).unwrap()
}

#[test]
fn mp_lists_each_access_beside_its_sass_and_passes() {
    let Some((ptxas, nvdisasm)) = tools() else {
        return;
    };
    let l = listing(MP, &ptxas, &nvdisasm);
    assert_eq!(l.roles.len(), 2);
    for role in &l.roles {
        let accesses: Vec<_> = role.lines().filter(|(_, p)| p.kind.is_memory()).collect();
        assert_eq!(accesses.len(), 2, "{role}");
        for (_, p) in accesses {
            let want = if p.text.starts_with("ld") {
                "LDG"
            } else {
                "STG"
            };
            assert!(p.sass.iter().any(|s| s.base() == want), "{role}");
        }
    }
    assert_eq!(check(&l), [], "{l}");
}

#[test]
fn lb_ctrls_branch_to_the_next_instruction_is_folded() {
    let Some((ptxas, nvdisasm)) = tools() else {
        return;
    };
    let l = listing(LB_CTRLS, &ptxas, &nvdisasm);
    let found = check(&l);
    let folded: Vec<_> = found
        .iter()
        .filter(|f| matches!(f.what, What::Folded { .. }))
        .collect();
    assert_eq!(folded.len(), 2, "{l}\n{found:?}");
    assert!(
        folded[0].to_string().starts_with("role 0 (P0), line "),
        "{}",
        folded[0]
    );
    assert!(folded[0]
        .to_string()
        .contains("(t0.1: beq r0, 1, L0): folded: "));
}

#[test]
fn a_branch_that_skips_the_store_is_kept() {
    let Some((ptxas, nvdisasm)) = tools() else {
        return;
    };
    let l = listing(LB_SKIPS, &ptxas, &nvdisasm);
    assert_eq!(l.roles[0].deps.len(), 1, "{l}");
    assert_eq!(check(&l), [], "{l}");
}

#[test]
fn a_module_ptxas_refuses_names_ptxas_and_the_target() {
    let Some((ptxas, _)) = tools() else { return };
    let e = ptxas
        .compile(
            ".version 7.0\n.target sm_80\n.address_size 64\n.entry k() { bogus; }\n",
            SmArch::new(80),
            false,
        )
        .unwrap_err();
    let line = e.to_string();
    assert!(
        line.starts_with(&format!(
            "{} failed on the module for sm_80: ",
            ptxas.name()
        )),
        "{line}"
    );
    assert!(!line.contains('\n'), "{line}");
}
