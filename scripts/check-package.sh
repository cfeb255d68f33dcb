#!/usr/bin/env bash
# The crates as crates.io would get them: packages every crate of the
# workspace, checks what each package holds, unpacks them into a folder
# outside the checkout, and builds a new crate there against the unpacked
# packages alone: its `litmus!` tests must pass under `cargo test` (the
# model half runs; without a GPU the hardware half says it skipped).
#
#   scripts/check-package.sh            cargo package --workspace --no-verify
#   CHECK_PACKAGE_VERIFY=1 scripts/...  cargo package --workspace (builds each
#                                       package on its own first: slower)
#
# The packages are of the working tree as it is (--allow-dirty): commit or
# not, what would be published is what is checked.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
# A target folder of its own: cargo builds the sibling packages as registry
# crates there, and takes a registry crate of a given name and version to be
# immutable, so an artifact built from an older commit's package would be
# reused. Ours are deleted before each run (third-party ones stay cached).
target=${CARGO_TARGET_DIR:-$root/target}/package-check
export CARGO_TARGET_DIR=$target

say() { echo "check-package: $*" >&2; }
fail() { say "FAIL: $*"; exit 1; }

verify=--no-verify
[ "${CHECK_PACKAGE_VERIFY:-0}" = 1 ] && verify=
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
crates=(gpu-litmus litmus-core litmus-model litmus-gen litmus-macros litmus-hw
        litmus-evidence litmus-tune litmus-runner litmus-cli litmus-toolchain
        litmus-ptx litmus-text)

# 1. Package. cargo ≥ 1.89 packages the siblings together, resolving each
#    one's dependencies on the others through a temporary registry.
start=$SECONDS
rm -f "$target"/package/*.crate
# cargo unpacks the packages it verifies into its registry folder, keyed by
# name and version only, and reuses what an earlier run unpacked there:
# the sources of an older commit at the same version. Drop ours (never
# crates.io's: those registries' folders do not start with `-`).
cargo_home=${CARGO_HOME:-$HOME/.cargo}
for c in "${crates[@]}"; do
    rm -rf "$cargo_home"/registry/src/-*/"$c-$version" "$cargo_home"/registry/cache/-*/"$c-$version.crate"
    rm -rf "$target"/debug/.fingerprint/"$c"-* "$target"/debug/deps/lib"${c//-/_}"-* "$target"/debug/deps/"${c//-/_}"-*
done
# shellcheck disable=SC2086
cargo package --workspace --allow-dirty $verify 2>&1 |
    grep -v '^warning: ignoring \(test\|example\|bench\|binary\) .* is not included in the published package$' >&2
say "cargo package --workspace ${verify:-(verifying)}: $((SECONDS - start)) s"

# 2. What each package holds: its sources, README.md and the LICENSE (the
#    root's text), nothing else: no tests, examples, evidence/, models/,
#    .gpu/ or CI files; and nothing large.
for c in "${crates[@]}"; do
    crate=$target/package/$c-$version.crate
    [ -f "$crate" ] || fail "no package $crate"
    bytes=$(stat -c %s "$crate")
    [ "$bytes" -le $((512 * 1024)) ] || fail "$c: the package is $bytes bytes (more than 512 KiB)"
    files=$(tar tzf "$crate" | sed "s#^$c-$version/##" | grep -v '/$')
    # litmus-model also ships the cat twins it compiles in (models/*.cat).
    stray=$(grep -v -E '^(Cargo\.toml|Cargo\.toml\.orig|Cargo\.lock|\.cargo_vcs_info\.json|README\.md|LICENSE|src/.*\.rs)$' <<<"$files" |
        { [ "$c" = litmus-model ] && grep -v -E '^models/[a-z0-9.-]+\.cat$' || cat; } || true)
    [ -z "$stray" ] || fail "$c: the package holds files it does not need: $(echo $stray)"
    # gpu-litmus also ships the `gpu-litmus` binary (src/main.rs, over
    # litmus-cli's library); litmus-cli's own binary, which its tests run,
    # stays in the repository.
    wanted=(Cargo.toml README.md LICENSE src/lib.rs)
    [ "$c" = gpu-litmus ] && wanted+=(src/main.rs)
    for f in "${wanted[@]}"; do
        grep -qx "$f" <<<"$files" || fail "$c: the package has no $f"
    done
    if [ "$c" = litmus-cli ] && grep -qx src/main.rs <<<"$files"; then
        fail "litmus-cli: the package ships its test binary (src/main.rs); the tool is gpu-litmus's"
    fi
    tar xzOf "$crate" "$c-$version/LICENSE" | cmp -s - LICENSE ||
        fail "$c: its LICENSE differs from the root's (copy LICENSE to crates/$c/)"
    say "$c: $(wc -l <<<"$files") files, $bytes bytes"
done

# 3. Unpack, and build a new crate outside the repository against the
#    unpacked packages only: the siblings come from the packages by [patch],
#    the rest from crates.io.
# Outside the checkout, as a user's crate would be; one folder per checkout
# (left for a look afterwards), so that each run builds at the same paths
# and replaces its artifacts in the shared target folder rather than piling
# up new ones.
work=${CHECK_PACKAGE_DIR:-${TMPDIR:-/tmp}/gpu-litmus-check-package-$(printf %s "$root" | cksum | cut -d' ' -f1)}
rm -rf "$work"
mkdir -p "$work/packages"
for c in "${crates[@]}"; do
    tar xzf "$target/package/$c-$version.crate" -C "$work/packages"
done
user=$work/newuser
mkdir -p "$user/src" "$user/tests"
{
    cat <<EOF
[package]
name = "newuser"
version = "0.1.0"
edition = "2021"
publish = false

[workspace]

[dev-dependencies]
gpu-litmus = { path = "../packages/gpu-litmus-$version" }

[patch.crates-io]
EOF
    for c in "${crates[@]}"; do
        # Every sibling but the crate itself: litmus-cli too, which the
        # default feature `cli` pulls in for the binary.
        [ "$c" = gpu-litmus ] && continue
        echo "$c = { path = \"../packages/$c-$version\" }"
    done
} >"$user/Cargo.toml"
echo '//! A crate of a new user of gpu-litmus.' >"$user/src/lib.rs"
cat >"$user/tests/mp.rs" <<'EOF'
use gpu_litmus::litmus;

litmus! {
    /// Message passing between CTAs with block-scoped fences.
    mp_tfb_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St(x, 1); TFB; St(y, 1); }
    thread t1 @ cta 1 { r0 = Ld(y); TFB; r1 = Ld(x); }
    exists (t1.r0 == 1 && t1.r1 == 0) => allowed;
}

litmus! {
    /// Store buffering with gpu-scoped SC fences: forbidden.
    sb_fence_sc_gpu_inter_cta;
    global x = 0, y = 0;
    thread t0 @ cta 0 { St.relaxed.gpu(x, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(y); }
    thread t1 @ cta 1 { St.relaxed.gpu(y, 1); Fence.sc.gpu; r0 = Ld.relaxed.gpu(x); }
    exists (t0.r0 == 0 && t1.r0 == 0) => forbidden;
}
EOF
# The repository's lock file: the same versions of the dependencies as the
# workspace builds, so their artifacts in the shared target folder serve.
cp Cargo.lock "$user/Cargo.lock"
start=$SECONDS
# The test target alone: the empty lib and doc tests would close the output
# on a `0 passed` line.
(cd "$user" && cargo test --test mp 2>&1) | tee "$work/test.log" >&2 || fail "the new crate's cargo test failed"
grep -q '^test result: ok\. 2 passed' "$work/test.log" || fail "the new crate's two litmus tests did not both pass"
grep -q 'hardware: ' "$work/test.log" || fail "no hardware line in the new crate's test output"
say "new crate against the packages: cargo test --test mp passed ($((SECONDS - start)) s)"
