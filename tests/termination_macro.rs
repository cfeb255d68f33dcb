//! `litmus!` declares termination after the verdict: `=> terminates` or
//! `=> may hang`, as the text format does.

use gpu_litmus::litmus_ir;
use gpu_litmus::text;
use litmus_model::{check_termination, model_by_name, Options};

#[test]
fn a_declared_termination_reads_as_the_text_format_does_and_holds() {
    let from_macro = litmus_ir! {
        spin_forever;
        global f = 0;
        thread P0 @ cta 0 { L0: r0 = Ld.relaxed.gpu(f); beq(r0, 0, L0); }
        exists (P0.r0 == 1) => forbidden => may hang;
    };
    let src = "PTX spin_forever\n{ f=0; }\n P0@cta 0,gpu 0 ;\n L0: ;\n ld.relaxed.gpu r0, f ;\n beq r0, 0, L0 ;\n\
               exists (P0:r0 == 1) => forbidden => may hang";
    let from_text = text::parse(src).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(from_macro, from_text);
    assert_eq!(from_macro.termination.map(|t| t.terminates), Some(false));
    let t = check_termination(
        &from_macro,
        model_by_name("ptx").unwrap(),
        &Options::default(),
    )
    .unwrap();
    assert!(!t.terminates());

    let waits = litmus_ir! {
        waits;
        global f = 0;
        thread P0 @ cta 0 { St.relaxed.gpu(f, 1); }
        thread P1 @ cta 1 { L0: r0 = Ld.relaxed.gpu(f); beq(r0, 0, L0); }
        exists (P1.r0 == 1) => allowed => terminates;
    };
    assert_eq!(waits.termination.map(|t| t.terminates), Some(true));
    let t = check_termination(&waits, model_by_name("ptx").unwrap(), &Options::default()).unwrap();
    assert!(t.terminates(), "{:?}", t.hang);
}
