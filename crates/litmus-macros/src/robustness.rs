//! No input makes the macro panic: a well-formed call, cut or salted at
//! every position, expands to code or to compile errors.

use proc_macro2::TokenStream;

use crate::{expand, Form};

const SEED: &str = r#"
    /// Doc.
    #[ignore]
    every_form;
    global x = 0, y = -1; shared s = 1; cluster_shared d;
    alias xa = generic(x), xs = surface(x), xt = texture(xa), xc = constant(x);
    thread t0 @ gpu 0, cta 0, cluster 0, warp 1 with r9 = 2 {
        St(x, 1); St.release.gpu(y, r9); r0 = Ld.acquire.gpu(x); r1 = Ld.ca(x);
        TFB; Fence.sc.cluster; Membar.gl; r2 = Atom.acq_rel.gpu.cas(x, 0, 1);
        Red.add(y, 1); BarSync(1, 64); Bar.sync(1, r9, 2); SyncWarp;
        r3 = r0 + 1; r4 = 5;
        Fence.proxy.alias; r5 = Ld(xa); Sust(xs, 1); Fence.proxy.surface; r6 = Suld(xs);
        Fence.proxy.texture; r7 = Tld.weak(xt); Fence.proxy.constant; r8 = Cold(xc);
    L0: beq(r3, 0, L0); bne(r3, r4, L1); goto L1;
    L1: St(s, r3); St(d, 1);
    }
    thread t1 @ cta 0, cluster 0 { r0 = Ld(s); r1 = Ld(d); }
    host hm = 0;
    thread h @ host { St(hm, 1); r0 = Ld.acquire(x); Fence.sc.sys; r1 = Atom.relaxed.sys.add(hm, 1); }
    ~exists (t1.r0 == 1 && !(x != -2) || t0.r3 == 0) => forbidden;
"#;

/// Words and punctuation a user could misplace.
const SALT: &[&str] = &[
    ";",
    ",",
    ".",
    ":",
    "=",
    "==",
    "=>",
    "@",
    "~",
    "!",
    "-",
    "+",
    "(",
    ")",
    "{}",
    "x",
    "r0",
    "t1",
    "1",
    "-1",
    "99999999999999999999999",
    "1u8",
    "Ld",
    "St",
    "Atom",
    "exists",
    "thread",
    "cta",
    "gpu",
    "global",
    "alias",
    "generic",
    "texture(x)",
    "Tld",
    "Sust",
    "proxy",
    "Fence.proxy",
    "L0",
    "with",
    "true",
    "false",
    "fn",
    "\"s\"",
    "#[doc = \"d\"]",
];

fn expand_both(src: &str) {
    // Texts that are not Rust tokens (an unclosed bracket) never reach a
    // macro.
    let Ok(tokens) = src.parse::<TokenStream>() else {
        return;
    };
    expand(tokens.clone(), Form::Test);
    expand(tokens, Form::Ir);
}

#[test]
fn the_seed_expands_without_errors() {
    let tokens: TokenStream = SEED.parse().unwrap();
    let out = expand(tokens, Form::Test).to_string();
    assert!(!out.contains("compile_error"), "{out}");
    assert!(out.contains("fn every_form"), "{out}");
}

#[test]
fn every_cut_and_every_salt_is_handled() {
    let positions: Vec<usize> = SEED.char_indices().map(|(i, _)| i).collect();
    let mut runs = 0;
    for (n, &i) in positions.iter().enumerate() {
        let next = positions.get(n + 1).copied().unwrap_or(SEED.len());
        expand_both(&format!("{}{}", &SEED[..i], &SEED[next..]));
        expand_both(&SEED[..i]);
        runs += 2;
        // Salting every position with every word is slow; every third
        // position meets every word.
        if n % 3 == 0 {
            for salt in SALT {
                expand_both(&format!("{} {salt} {}", &SEED[..i], &SEED[i..]));
                runs += 1;
            }
        }
    }
    assert!(runs > 5000, "{runs} inputs");
}
