//! The toolchain as a knob, run as a user runs it: `gpu-litmus
//! toolchains`, `LITMUS_TOOLCHAIN`, `--toolchains`, and the one line each
//! bad choice gets.
//!
//! Unix only: the stand-in ptxas releases are shell scripts.
#![cfg(unix)]

mod cli_support;

use std::path::Path;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};

/// A stand-in ptxas of release `version` in `folder`'s layout: `--version`
/// is all `gpu-litmus toolchains` and the checks ask of it.
fn fake_ptxas(folder: &Path, version: &str) {
    let dir = folder.join(format!("ptxas-{version}"));
    std::fs::create_dir_all(&dir).unwrap();
    let (major, minor) = {
        let mut v = version.split('.');
        (v.next().unwrap(), v.next().unwrap())
    };
    let script = format!(
        "#!/bin/sh\necho 'ptxas: NVIDIA (R) Ptx optimizing assembler'\necho 'Cuda compilation tools, release {major}.{minor}, V{version}'\n"
    );
    let path = dir.join("ptxas");
    std::fs::write(&path, script).unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn toolchains_lists_the_installed_releases_and_says_how_to_install() {
    let dir = scratch("toolchains-list");
    let folder = dir.join("tc");
    let out = bin()
        .arg("toolchains")
        .env("LITMUS_TOOLCHAINS", &folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("jit "), "{text}");
    assert!(
        text.contains("no ptxas installed in") && text.contains("install-toolchain.sh"),
        "{text}"
    );
    fake_ptxas(&folder, "12.4.131");
    fake_ptxas(&folder, "12.0.76");
    // A folder whose ptxas is not the release its name says is listed as
    // broken, with why.
    fake_ptxas(&folder, "12.8.93");
    std::fs::rename(folder.join("ptxas-12.8.93"), folder.join("ptxas-12.9.86")).unwrap();
    let out = bin()
        .arg("toolchains")
        .env("LITMUS_TOOLCHAINS", &folder)
        .output()
        .unwrap();
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(
        lines[1].starts_with("ptxas-12.0.76 ") && lines[1].contains("(reads PTX 8.0)"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("ptxas-12.4.131 ") && lines[2].contains("(reads PTX 8.4)"),
        "{text}"
    );
    assert!(
        lines[3].contains("broken") && lines[3].contains("not 12.9.86"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_toolchain_that_is_not_ptxas_or_not_installed_is_one_line() {
    let dir = scratch("toolchains-bad");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let not_ptxas = write(&dir, "ptxas", "#!/bin/sh\necho hello\n");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&not_ptxas, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cases: [(&str, String, &str); 3] = [
        (
            "LITMUS_TOOLCHAIN",
            not_ptxas.display().to_string(),
            "not ptxas",
        ),
        (
            "LITMUS_TOOLCHAIN",
            "ptxas-12.4".into(),
            "is not installed in",
        ),
        (
            "LITMUS_TOOLCHAIN",
            "ptxas-twelve".into(),
            "expected `jit`, an installed release",
        ),
    ];
    for (var, value, says) in cases {
        let out = bin()
            .args(["run"])
            .arg(&mp)
            .env(var, &value)
            .env("LITMUS_TOOLCHAINS", dir.join("none"))
            .env_remove("LITMUS_PTXAS")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stderr(&out));
        let err = stderr(&out);
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.contains(says) && first.contains(var),
            "{value}: {err}"
        );
    }
    // The search's list: each entry checked, the bad one named.
    for args in [
        vec!["tune", "--toolchains", "jit,ptxas-9"],
        vec!["campaign", "--tune", "--toolchains", "jit,ptxas-9"],
    ] {
        let out = bin()
            .args(&args)
            .arg(&mp)
            .env("LITMUS_TOOLCHAINS", dir.join("none"))
            .env_remove("LITMUS_PTXAS")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.lines()
                .next()
                .unwrap_or_default()
                .contains("`ptxas-9`: toolchain ptxas-9 is not installed"),
            "{args:?}: {err}"
        );
    }
    // Without --tune, the list is refused in one line.
    let out = bin()
        .args(["campaign", "--toolchains", "jit"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("go with `--tune`"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_installed_release_is_a_toolchain_by_name() {
    let dir = scratch("toolchains-name");
    let folder = dir.join("tc");
    fake_ptxas(&folder, "12.4.131");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    // Named by a prefix of its release, checked before anything runs: the
    // run goes on. Without a GPU its hardware half skips; with one, the
    // stand-in is the compiler that runs, and fails on the module, naming
    // itself (it is no real ptxas).
    let out = bin()
        .args(["run"])
        .arg(&mp)
        .env("LITMUS_TOOLCHAIN", "ptxas-12.4")
        .env("LITMUS_TOOLCHAINS", &folder)
        .env_remove("LITMUS_PTXAS")
        .output()
        .unwrap();
    let text = format!("{}{}", stdout(&out), stderr(&out));
    if text.contains("hardware: skipped") {
        assert_eq!(out.status.code(), Some(0), "{text}");
    } else {
        assert_eq!(out.status.code(), Some(1), "{text}");
        assert!(
            text.contains("ptxas 12.4.131 failed on the module"),
            "{text}"
        );
    }
    // Named twice, two compilers: refused.
    let out = bin()
        .args(["run"])
        .arg(&mp)
        .env("LITMUS_TOOLCHAIN", "jit")
        .env("LITMUS_PTXAS", folder.join("ptxas-12.4.131/ptxas"))
        .env("LITMUS_TOOLCHAINS", &folder)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("names another compiler"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// A tuning entry won under a release that is not installed here: one line
/// naming the file, the toolchain and what to do, and the run goes on under
/// the driver's JIT and passes. Without a GPU the entry is never read (the
/// hardware half skips), and the run passes all the same.
#[test]
fn a_tuning_entry_naming_a_missing_toolchain_is_one_line_and_the_run_goes_on() {
    let dir = scratch("toolchains-entry");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let tuning = write(
        &dir,
        "tuning.toml",
        "[tests.\"MP-relacq\"]\nweak_per_s_low = 1.0\nweak = 1\ninstances = 1\n\n[tests.\"MP-relacq\".knobs]\nLITMUS_TOOLCHAIN = \"ptxas-12.4.131\"\nLITMUS_CTAS = \"256\"\n",
    );
    let out = bin()
        .args(["run", "--launches", "2", "--tuning"])
        .arg(&tuning)
        .arg(&mp)
        .env("LITMUS_TOOLCHAINS", dir.join("none"))
        .env_remove("LITMUS_TOOLCHAIN")
        .env_remove("LITMUS_PTXAS")
        .env_remove("LITMUS_REQUIRE_GPU")
        .output()
        .unwrap();
    let (text, err) = (stdout(&out), stderr(&out));
    assert_eq!(out.status.code(), Some(0), "{text}{err}");
    if text.contains("hardware: skipped") {
        return;
    }
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("LITMUS_TOOLCHAIN=ptxas-12.4.131"))
        .collect();
    assert_eq!(said.len(), 1, "{err}");
    assert!(
        said[0].contains("tuning.toml")
            && said[0].contains("not installed")
            && said[0].contains("run under the driver's JIT"),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}
