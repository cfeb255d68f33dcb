#!/usr/bin/env bash
# Installs the pinned nvdisasm (CUDA 13.5.37) and prints its path on
# stdout, for the SASS check of tests/ptx_portability.rs (`gpu-litmus sass
# --check` on the catalogue):
#
#     export LITMUS_NVDISASM="$(bash scripts/pinned-nvdisasm.sh)"
#
# From PyPI's nvidia-cuda-nvdisasm==13.5.37, a wheel that carries nvdisasm,
# into target/nvdisasm-13.5.37 (scripts/pinned-tool.sh: a failed install is
# an error, never a skip). CUDA 13's nvdisasm reads the images of every
# target from sm_75 (sm_70's it refuses, and the test counts those as not
# read); it reads ptxas 12.0's images as well as 13's.
set -euo pipefail
exec bash "$(dirname "$0")/pinned-tool.sh" nvidia-cuda-nvdisasm 13.5.37 nvidia/cu13/bin/nvdisasm
