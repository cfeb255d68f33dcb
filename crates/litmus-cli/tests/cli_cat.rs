//! A cat file as the model of `gpu-litmus check` and `explain`, by flag
//! and by `LITMUS_MODEL`; a broken one is an error that says where.

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_litmus-cli"));
    c.env_remove("LITMUS_MODEL");
    c
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gpu-litmus-cli-cat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn models(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../models/{name}"))
}

const MP: &str = "PTX MP-relacq
{ x=0; y=0; }
 P0@cta 0,gpu 0      | P1@cta 1,gpu 0       ;
 st.weak x, 1        | ld.acquire.gpu r0, y ;
 st.release.gpu y, 1 | ld.weak r1, x        ;
exists (P1:r0 == 1 /\\ P1:r1 == 0) => forbidden
";

#[test]
fn a_cat_file_is_a_model_by_flag_and_environment() {
    let dir = scratch();
    let mp = dir.join("mp.litmus");
    std::fs::write(&mp, MP).unwrap();
    let ptx = models("ptx.cat");
    let out = bin()
        .args(["check", "--format=json", "--model"])
        .arg(&ptx)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(v["model"], ptx.display().to_string());
    assert_eq!(v["condition_reachable"], false);

    // SC forbids it too; an explanation names the cat file's check.
    let out = bin()
        .env("LITMUS_MODEL", models("sc.cat"))
        .args(["explain"])
        .arg(&mp)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Sequential-consistency fails"), "{text}");

    let broken = dir.join("broken.cat");
    std::fs::write(&broken, "let a = po\nacyclic a | rff\n").unwrap();
    let out = bin()
        .args(["check", "--model"])
        .arg(&broken)
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let msg = String::from_utf8(out.stderr).unwrap();
    assert!(msg.contains("broken.cat:2:13: unknown name `rff`"), "{msg}");
    std::fs::remove_dir_all(dir).unwrap();
}
