#!/usr/bin/env bash
# Installs the pinned ptxas (CUDA 12.0.76, the oldest toolchain the project
# supports) and prints its path on stdout, for tests/ptx_portability.rs:
#
#     export LITMUS_PTXAS="$(bash scripts/pinned-ptxas.sh)"
#
# From PyPI's nvidia-cuda-nvcc-cu12==12.0.76, a wheel that carries ptxas,
# into target/ptxas-12.0.76 (scripts/pinned-tool.sh: a failed install is an
# error, never a skip).
set -euo pipefail
exec bash "$(dirname "$0")/pinned-tool.sh" nvidia-cuda-nvcc-cu12 12.0.76 nvidia/cuda_nvcc/bin/ptxas
