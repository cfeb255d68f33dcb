#!/usr/bin/env bash
# Installs the pinned ptxas (CUDA 12.0.76, the oldest toolchain the project
# supports) and prints its path on stdout, for tests/ptx_portability.rs:
#
#     export LITMUS_PTXAS="$(bash scripts/pinned-ptxas.sh)"
#
# From PyPI's nvidia-cuda-nvcc-cu12==12.0.76, a wheel that carries ptxas,
# into a virtual environment in the target folder, reused when it already
# holds that version. A failed install is an error, never a skip: CI reads
# no ptxas as a portability check that did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
package=nvidia-cuda-nvcc-cu12
version=12.0.76
venv=${CARGO_TARGET_DIR:-$PWD/target}/ptxas-$version
find_ptxas() {
    find "$venv/lib" -path '*/nvidia/cuda_nvcc/bin/ptxas' -type f 2>/dev/null | head -n 1
}
if ! "$venv/bin/pip" show "$package" 2>/dev/null | grep -x "Version: $version" >/dev/null; then
    echo "pinned-ptxas: installing $package==$version (a wheel) into $venv" >&2
    rm -rf "$venv"
    if ! { python3 -m venv "$venv" &&
           "$venv/bin/pip" install --quiet --disable-pip-version-check \
               --only-binary=:all: "$package==$version"; }; then
        echo "pinned-ptxas: FAILED: $package==$version could not be installed from PyPI (python3 -m venv, pip) into $venv" >&2
        exit 1
    fi
fi
ptxas=$(find_ptxas)
if [ -z "$ptxas" ]; then
    echo "pinned-ptxas: FAILED: $package==$version is installed in $venv but holds no nvidia/cuda_nvcc/bin/ptxas" >&2
    exit 1
fi
# The wheel's zip loses nothing, but pip may: make sure it runs.
chmod +x "$ptxas"
if ! release=$("$ptxas" --version 2>&1 | grep -o "V$version"); then
    echo "pinned-ptxas: FAILED: $ptxas does not run or is not V$version" >&2
    exit 1
fi
echo "pinned-ptxas: $ptxas ($release)" >&2
echo "$ptxas"
