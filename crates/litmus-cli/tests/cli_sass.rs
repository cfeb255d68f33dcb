//! `gpu-litmus sass` (and `ptx --arch`), run as a user runs it. The tests
//! that need the real tools read LITMUS_PTXAS and LITMUS_NVDISASM and say
//! they skipped without them; the rest use stand-in scripts.
// The stand-ins are shell scripts.
#![cfg(unix)]

mod cli_support;

use std::path::{Path, PathBuf};
use std::process::Command;

use cli_support::{bin, scratch, stderr, stdout, write, MP_RELACQ};

/// herd7's LB+ctrls: each store after a branch on the load to the very
/// next instruction, which ptxas folds away.
const LB_CTRLS: &str = "PTX LB+ctrls
{ x=0; y=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 ld.relaxed.gpu r0, x   | ld.relaxed.gpu r0, y   ;
 beq r0, 1, L0          | beq r0, 1, L1          ;
 L0:                    | L1:                    ;
 st.relaxed.gpu y, 1    | st.relaxed.gpu x, 1    ;
exists (P0:r0 == 1 /\\ P1:r0 == 1)
";

/// A cluster test: its instructions need sm_90.
fn cluster_test() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/litmus/equal/mp_cluster_cache.litmus")
}

/// An executable script `name` in `dir` that says it is ptxas (or
/// nvdisasm) 12.4 and fails on anything else with ptxas's messages.
fn fake(dir: &Path, name: &str, banner: &str) -> PathBuf {
    let script = format!(
        "#!/bin/sh\nif [ \"$1\" = --version ]; then\n  echo '{name}: NVIDIA (R) {banner}'\n  echo 'Cuda compilation tools, release 12.4, V12.4.131'\n  exit 0\nfi\necho \"ptxas $4, line 5; error   : Unknown symbol 'bogus'\" >&2\necho 'ptxas fatal   : Ptx assembly aborted due to errors' >&2\nexit 255\n"
    );
    let path = write(dir, name, &script);
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// `gpu-litmus sass` with stand-in tools and no cache.
fn with_fakes(dir: &Path) -> Command {
    let mut c = bin();
    c.arg("sass")
        .arg("--ptxas")
        .arg(fake(dir, "ptxas", "Ptx optimizing assembler"))
        .arg("--nvdisasm")
        .arg(fake(dir, "nvdisasm", "CUDA disassembler"))
        .env("LITMUS_CACHE", "0");
    c
}

#[test]
fn command_line_errors_are_one_line_and_exit_2() {
    for (args, message) in [
        (&["sass"][..], "error: no file given"),
        (&["sass", "a.litmus", "--arch", "sm_61"], "error: unknown architecture `sm_61` for `--arch` (known: sm_70, sm_72, sm_75, sm_80, sm_86, sm_87, sm_89, sm_90, sm_100, sm_103, sm_110, sm_120, sm_121)"),
        (&["sass", "a.litmus", "--check=yes"], "error: `--check` takes no value"),
        (&["sass", "a.litmus", "--model", "ptx"], "error: unknown option `--model`"),
        (&["ptx", "a.litmus", "--arch", "volta"], "error: unknown architecture `volta` for `--arch`"),
        (&["sass", "a.litmus", "--jit", "--ptxas", "/x/ptxas"], "error: `--jit` and `--ptxas` name two compilers: give one"),
    ] {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with(message), "{args:?}: {}", stderr(&out));
    }
    let help = bin().args(["sass", "--help"]).output().unwrap();
    assert_eq!(help.status.code(), Some(0));
    assert!(stdout(&help).contains("gpu-litmus sass FILE... [--arch sm_XX]"));
}

#[test]
fn a_ptxas_that_is_not_ptxas_is_refused_by_its_path() {
    let dir = scratch("sass-not-ptxas");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let nvdisasm = fake(&dir, "nvdisasm", "CUDA disassembler");
    for (ptxas, why) in [
        (
            PathBuf::from("/bin/true"),
            "/bin/true: not ptxas: its --version does not say `Ptx optimizing assembler`",
        ),
        (dir.join("none"), "none: not ptxas: cannot read it"),
        (
            nvdisasm.clone(),
            "nvdisasm: not ptxas: its --version does not say",
        ),
    ] {
        let out = bin()
            .args(["sass", "--ptxas"])
            .arg(&ptxas)
            .arg("--nvdisasm")
            .arg(&nvdisasm)
            .arg(&mp)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{ptxas:?}");
        let err = stderr(&out);
        assert!(err.starts_with("error: ") && err.contains(why), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let out = with_fakes(&dir)
        .arg("--nvdisasm")
        .arg(dir.join("gone"))
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("gone: not nvdisasm: cannot read it"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_ptxas_that_fails_shows_its_first_error_and_the_rest_go_on() {
    let dir = scratch("sass-fails");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = with_fakes(&dir)
        .arg(&mp)
        .arg(dir.join("nope.litmus"))
        .args(["--arch", "sm_80"])
        .arg(cluster_test())
        .arg("--check")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(&format!(
            "{}: ptxas 12.4.131 failed on the module for sm_80: ptxas ",
            mp.display()
        )) && lines[0].ends_with(", line 5; error   : Unknown symbol 'bogus'"),
        "{err}"
    );
    assert_eq!(
        lines[1],
        format!(
            "{}: no such file or folder",
            dir.join("nope.litmus").display()
        )
    );
    let text = stdout(&out);
    assert!(
        text.contains("mp_cluster_cache.litmus: not compiled: clusters (.reqnctapercluster) needs sm_90 and the module targets sm_80\n"),
        "{text}"
    );
    assert!(
        text.ends_with("3 files: 0 clean, 0 flagged, 1 not compiled, 2 failed\n"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_test_that_does_not_fit_fails_nothing() {
    let dir = scratch("sass-unfit");
    let out = with_fakes(&dir)
        .args(["--arch", "sm_86", "--check"])
        .arg(cluster_test())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).ends_with("1 files: 0 clean, 0 flagged, 1 not compiled\n"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn ptx_arch_retargets_or_says_why_not() {
    let dir = scratch("ptx-arch");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = bin()
        .args(["ptx", "--arch", "sm_86"])
        .arg(&mp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("\n.version 7.1\n.target sm_86\n"),
        "{}",
        stdout(&out)
    );
    let out = bin()
        .args(["ptx", "--arch=sm_80"])
        .arg(cluster_test())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).ends_with("mp_cluster_cache.litmus: not for sm_80: clusters (.reqnctapercluster) needs sm_90 and the module targets sm_80\n"),
        "{}",
        stderr(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// `gpu-litmus sass` with the real tools, or `None` after a skip line.
fn with_tools(dir: &Path) -> Option<Command> {
    let (Some(p), Some(n)) = (
        std::env::var_os("LITMUS_PTXAS"),
        std::env::var_os("LITMUS_NVDISASM"),
    ) else {
        println!("skipped: no ptxas (set LITMUS_PTXAS and LITMUS_NVDISASM)");
        return None;
    };
    let mut c = bin();
    c.arg("sass")
        .env("LITMUS_PTXAS", p)
        .env("LITMUS_NVDISASM", n)
        .env("LITMUS_CACHE_DIR", dir.join("cache"));
    Some(c)
}

#[test]
fn prints_the_sass_beside_each_ptx_line_and_mp_passes_the_check() {
    let dir = scratch("sass-mp");
    let Some(mut c) = with_tools(&dir) else {
        return;
    };
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = c
        .arg(&mp)
        .args(["--arch", "sm_80", "--check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(": ptxas "), "{text}");
    assert!(
        text.contains(" for sm_80 ==\nrole 0 (P0)\n  t0.0: st.weak x, 1\n"),
        "{text}"
    );
    assert!(text.contains("  t1.0: ld.acquire.gpu r0, y\n"), "{text}");
    assert!(text.contains("ld.acquire.gpu.global.u32 %t1r0"), "{text}");
    assert!(text.contains("*/ LDG.E"), "{text}");
    assert!(text.contains("*/ STG.E"), "{text}");
    assert!(!text.contains("warning"), "{text}");
    assert!(
        text.ends_with("1 files: 1 clean, 0 flagged, 0 not compiled\n"),
        "{text}"
    );
    // Again, from the cache: the same listing.
    let again = with_tools(&dir)
        .unwrap()
        .arg(&mp)
        .args(["--arch", "sm_80", "--check"])
        .output()
        .unwrap();
    assert_eq!(stdout(&again), text);
    assert!(std::fs::read_dir(dir.join("cache")).unwrap().count() == 1);
    std::fs::remove_dir_all(dir).unwrap();
}

/// A test of the catalogue's async-proxy folder.
fn async_test(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/async")
        .join(format!("{name}.litmus"))
}

#[test]
fn the_async_proxy_is_refused_below_sm_90_in_one_line() {
    let out = bin()
        .args(["ptx", "--arch", "sm_80"])
        .arg(async_test("mp_bulk_store_wait"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    assert!(
        stderr(&out).ends_with("mp_bulk_store_wait.litmus: not for sm_80: fence.proxy.async (the async proxy) needs sm_90 and the module targets sm_80\n")
            && stderr(&out).lines().count() == 1,
        "{}",
        stderr(&out)
    );
    let out = bin()
        .args(["ptx", "--arch", "sm_90"])
        .arg(async_test("mp_bulk_store_wait"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("\n.version 8.0\n.target sm_90\n"));
}

#[test]
fn the_sass_of_async_instructions_sits_beside_their_ptx() {
    let dir = scratch("sass-async");
    let Some(mut c) = with_tools(&dir) else {
        return;
    };
    let out = c
        .arg(async_test("mp_bulk_store_wait"))
        .arg(async_test("tma_load_wait_read"))
        .arg(async_test("mbarrier_remote_arrive_cluster"))
        .args(["--arch", "sm_90", "--check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    // Each async instruction of a role is listed with the SASS made of
    // its line: the proxy fence, the bulk copies, the group's commit and
    // wait, the mbarrier's arrivals and wait.
    for (ptx, sass) in [
        ("fence.proxy.async.shared::cta;", "FENCE.VIEW.ASYNC.S"),
        (
            "cp.async.bulk.global.shared::cta.bulk_group [",
            "UBLKCP.G.S",
        ),
        ("cp.async.bulk.commit_group;", "UTMACMDFLUSH"),
        ("cp.async.bulk.wait_group 0;", "DEPBAR"),
        (
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [",
            "UBLKCP.S.G",
        ),
        (
            "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 _, [",
            "SYNCS.ARRIVE",
        ),
        (
            "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p",
            "SYNCS.PHASECHK",
        ),
        (
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [",
            "SYNCS.ARRIVE",
        ),
    ] {
        // Its PTX line (a line number, then the instruction; not the test
        // instruction's `tK.I:` line, which may read alike), and the SASS
        // lines under it, up to the next line of another kind.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| {
                let t = l.trim_start();
                t.starts_with(|c: char| c.is_ascii_digit()) && t.contains(ptx)
            })
            .unwrap_or_else(|| panic!("no `{ptx}` in\n{text}"));
        let below: String = lines[at + 1..]
            .iter()
            .take_while(|l| l.trim_start().starts_with("/*"))
            .copied()
            .collect();
        assert!(below.contains(sass), "`{ptx}` without `{sass}`:\n{text}");
    }
    assert!(
        text.ends_with("3 files: 3 clean, 0 flagged, 0 not compiled\n"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_check_flags_lb_ctrls_folded_branch() {
    let dir = scratch("sass-lb-ctrls");
    let Some(mut c) = with_tools(&dir) else {
        return;
    };
    let lb = write(&dir, "lb.litmus", LB_CTRLS);
    let out = c.arg(&lb).arg("--check").output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    let warnings: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  warning: "))
        .collect();
    assert_eq!(warnings.len(), 2, "{text}");
    assert!(warnings[0].contains("role 0 (P0), line "), "{text}");
    assert!(
        warnings[0].contains("(t0.1: beq r0, 1, L0): folded: "),
        "{text}"
    );
    assert!(
        warnings[1].contains("(t1.1: beq r0, 1, L1): folded: "),
        "{text}"
    );
    assert!(
        text.ends_with("1 files: 0 clean, 1 flagged, 0 not compiled\n"),
        "{text}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn jit_lists_the_drivers_sass_or_says_it_needs_a_gpu() {
    let dir = scratch("sass-jit");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let mut cmd = bin();
    cmd.args(["sass", "--jit", "--check"])
        .arg(&mp)
        .arg("--nvdisasm")
        .arg(fake(&dir, "nvdisasm", "CUDA disassembler"));
    // With a real nvdisasm on a GPU machine the listing is the driver's.
    if let Ok(real) = std::env::var("LITMUS_NVDISASM") {
        cmd.arg("--nvdisasm").arg(real);
    }
    let out = cmd.output().unwrap();
    let (text, errors) = (stdout(&out), stderr(&out));
    if errors.contains("--jit needs a GPU") {
        assert_eq!(out.status.code(), Some(1), "{errors}");
        assert!(
            errors.starts_with(&format!("{}: --jit needs a GPU: no CUDA", mp.display())),
            "{errors}"
        );
        assert_eq!(errors.trim().lines().count(), 1, "{errors}");
        println!("skipped the listing: no GPU ({})", errors.trim());
    } else if std::env::var("LITMUS_NVDISASM").is_ok() {
        assert_eq!(out.status.code(), Some(0), "{text}{errors}");
        assert!(text.contains(" via driver JIT "), "{text}");
        assert!(text.contains("STG") && text.contains("LDG"), "{text}");
    } else {
        println!("skipped: a GPU but no LITMUS_NVDISASM");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn an_unusable_cache_folder_or_value_is_one_line_and_the_command_goes_on() {
    let dir = scratch("sass-bad-cache");
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let file = write(&dir, "not-a-folder", "x");
    for (var, value, want) in [
        (
            "LITMUS_CACHE_DIR",
            file.display().to_string(),
            file.display().to_string(),
        ),
        (
            "LITMUS_CACHE",
            "yes".to_string(),
            "LITMUS_CACHE".to_string(),
        ),
    ] {
        let out = with_fakes(&dir)
            .env_remove("LITMUS_CACHE")
            .env(var, &value)
            .arg(&mp)
            .output()
            .unwrap();
        let errors = stderr(&out);
        let warning: Vec<&str> = errors
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .collect();
        assert_eq!(warning.len(), 1, "{var}={value}: {errors}");
        assert!(
            warning[0].contains(&want) && warning[0].ends_with("going on without the module cache"),
            "{var}={value}: {errors}"
        );
        // It went on: the (stand-in) ptxas ran and failed on the module.
        assert!(errors.contains("Unknown symbol 'bogus'"), "{errors}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_damaged_cache_entry_is_said_and_compiled_again() {
    let dir = scratch("sass-corrupt-cache");
    let Some(mut first) = with_tools(&dir) else {
        return;
    };
    let mp = write(&dir, "mp.litmus", MP_RELACQ);
    let out = first.arg(&mp).args(["--arch", "sm_80"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let entries: Vec<_> = std::fs::read_dir(dir.join("cache"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(entries.len(), 1);
    // One flipped byte in the image, then a cut-off file: each is said once
    // and compiled again, and the listing is the same.
    let mut bytes = std::fs::read(&entries[0]).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&entries[0], &bytes).unwrap();
    for (damage, want) in [("flipped", "checksum"), ("truncated", "truncated")] {
        if damage == "truncated" {
            let whole = std::fs::read(&entries[0]).unwrap();
            std::fs::write(&entries[0], &whole[..whole.len() / 3]).unwrap();
        }
        let again = with_tools(&dir)
            .unwrap()
            .arg(&mp)
            .args(["--arch", "sm_80"])
            .output()
            .unwrap();
        let errors = stderr(&again);
        assert_eq!(again.status.code(), Some(0), "{damage}: {errors}");
        assert_eq!(stdout(&again), stdout(&out), "{damage}");
        assert_eq!(errors.lines().count(), 1, "{damage}: {errors}");
        assert!(
            errors.starts_with("warning: module cache: ") && errors.contains(want),
            "{damage}: {errors}"
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// A folder is read for every .litmus file under it, as the other
/// commands that take tests read one.
#[test]
fn a_folder_is_every_test_under_it() {
    let dir = scratch("sass-folder");
    let tests = dir.join("tests");
    std::fs::create_dir_all(tests.join("sub")).unwrap();
    let cluster = std::fs::read_to_string(cluster_test()).unwrap();
    write(&tests, "a.litmus", &cluster);
    write(&tests.join("sub"), "b.litmus", &cluster);
    let out = with_fakes(&dir)
        .args(["--arch", "sm_86", "--check"])
        .arg(&tests)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).ends_with("2 files: 0 clean, 0 flagged, 2 not compiled\n"),
        "{}",
        stdout(&out)
    );
    std::fs::remove_dir_all(dir).unwrap();
}
