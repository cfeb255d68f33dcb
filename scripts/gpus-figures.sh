#!/usr/bin/env bash
# The figures of tests across GPUs (docs/host-and-gpus.md, "Why tests across
# GPUs did not race"), in one run on a machine with two or more GPUs, after
# ../shared/tools/gpu-pack (binaries in .gpu/bin) and with nvcc on PATH:
#
#   scripts/gpus-figures.sh OUT [VARIANTS_DIR]
#
# `sys_probe.cu` (../shared/reference/probe) beside `gpus_bench` at the
# defaults (message passing in the probe's placements, SB, IRIW), their
# `fence.sc.sys` versions for 12 s each, `catalogue_gpus` with its evidence
# in OUT/evidence, the scope edge (the `.gpu`-fence tests for 8 s each), and
# `gen --placements inter-gpu --scopes sys` as a campaign, and on one GPU
# `gpu_bench` (with the default lanes and with aligned ones) beside
# `litmus_probe_multi.cu` at both shapes issue 32 names.
# With four GPUs, IRIW with one thread a GPU too; with VARIANTS_DIR
# (scripts/cuda-litmus-variants.py's output), the campaign over it on every
# GPU and on one, timed.
set -uo pipefail
out=${1:?usage: scripts/gpus-figures.sh OUT [VARIANTS_DIR]}
variants=${2:-}
mkdir -p "$out"
bin=$PWD/.gpu/bin
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi -L; nvidia-smi topo -m | head -$((gpus + 1))
bash .gpu/run.sh --list >/dev/null 2>&1 # the links the test binaries expect
probe=$(dirname "$(cat .gpu/origin)")/shared/reference/probe
nvcc -O3 -arch=sm_90 "$probe/sys_probe.cu" -o "$out/sys_probe" -lpthread || exit 1
echo "== sys_probe"; "$out/sys_probe" 200 | head -6
for seed in 11 13; do
    echo "== gpus_bench, defaults, LITMUS_SEED=$seed"
    LITMUS_SEED=$seed "$bin/gpus_bench" --budget-ms 1000 "2 GPUs" | grep -v fenced
done
echo "== message passing's placements under other knobs, 500 ms each"
for e in "LITMUS_PERM=fixed" "LITMUS_PERM=fixed LITMUS_CTAS=4096 LITMUS_THREADS=256" \
    "LITMUS_PERM=identity LITMUS_STRIDE=1 LITMUS_CTAS=8192 LITMUS_THREADS=256" "LITMUS_STRESS=512:256" \
    "LITMUS_PERM=fixed LITMUS_CTAS=4096 LITMUS_THREADS=256 LITMUS_CTAS_PER_SM=4" \
    "LITMUS_GPU_JITTER=10000" "LITMUS_GPU_STAGGER=-15000" "LITMUS_GPU_STAGGER=15000" "LITMUS_GPU_START=relay"; do
    echo "-- $e"; env $e LITMUS_SEED=14 "$bin/gpus_bench" --budget-ms 500 "MP 2 GPUs" | grep -v "fenced\|^test\|^knobs"
done
echo "== fenced, 12 s each (1e10 instances at 1e9 a second)"; LITMUS_SEED=12 "$bin/gpus_bench" --budget-ms 12000 "2 GPUs fenced"
if [ "$gpus" -ge 4 ]; then
    echo "== IRIW with one thread a GPU, 5 s each: the defaults, then the relay start at the profile's shape"
    LITMUS_SEED=31 "$bin/gpus_bench" --budget-ms 5000 "4 GPUs"
    LITMUS_SEED=31 LITMUS_GPU_START=relay LITMUS_CTAS=2048 LITMUS_THREADS=1024 "$bin/gpus_bench" --budget-ms 5000 "4 GPUs"
fi
orig=$(cat .gpu/origin)
cat=$(ls "$bin"/test-catalogue_gpus-* | grep -v '\.dir$')
echo "== catalogue_gpus, defaults"
(cd "$orig$(cat "$cat.dir")" && LITMUS_EVIDENCE=$out/evidence LITMUS_SEED=21 "$cat" --nocapture --test-threads 1) \
    >"$out/catalogue.log" 2>&1
grep -oE "^test [a-z_0-9]+|hardware: [0-9]+ instances|condition outcome [a-z ]+|not run, .*|the kernel faulted" "$out/catalogue.log" |
    paste -sd' ' | sed 's/ test /\ntest /g'
echo "== the scope edge, 8 s each"
(cd "$orig$(cat "$cat.dir")" && LITMUS_EVIDENCE=$out/evidence LITMUS_SEED=34 LITMUS_BUDGET_MS=8000 "$cat" fence_sc_gpu --nocapture --test-threads 1 2>&1) |
    grep -oE "litmus [a-z_0-9]+|hardware: [0-9]+ instances|condition outcome [a-z ]+" | paste -sd' '
echo "== gen --placements inter-gpu --scopes sys, 2 s a test"
"$bin/gpu-litmus" gen --out "$out/inter-gpu" --placements inter-gpu --scopes sys --fences none,sc IRIW MP SB WRC | tail -1
LITMUS_SEED=32 "$bin/gpu-litmus" campaign --budget-ms 2000 --evidence "$out/evidence" "$out/inter-gpu" 2>&1 | tail -9
nvcc -O3 -arch=sm_90 "$probe/litmus_probe_multi.cu" -o "$out/probe_multi" || exit 1
for shape in "2048 64 4 5000" "32768 64 1 400"; do
    set -- $shape
    # Twice each: the probe's 5,000 launches at the small shape last 0.1 s,
    # and its rate moved 20% from one call to the next.
    for round in 1 2; do
        echo "== one GPU: gpu_bench and litmus_probe_multi at $1x$2 stride $3, round $round"
        LITMUS_SEED=5 LITMUS_CTAS=$1 LITMUS_THREADS=$2 LITMUS_STRIDE=$3 "$bin/gpu_bench" --budget-ms 500 |
            grep -E "^(test|MP |SB |2\+2W|WRC|IRIW) "
        # The published harnesses' lanes, which beat the default on every
        # classic test in call 33 (docs/running-on-gpus.md).
        echo "-- LITMUS_LANES=aligned"
        LITMUS_SEED=5 LITMUS_LANES=aligned LITMUS_CTAS=$1 LITMUS_THREADS=$2 LITMUS_STRIDE=$3 "$bin/gpu_bench" --budget-ms 500 |
            grep -E "^(MP |SB |2\+2W|WRC|IRIW|MP-cluster-global) "
        "$out/probe_multi" "$4" "$1" "$2" "$3" | head -6
    done
done
if [ -n "$variants" ]; then
    for devices in all 0; do
        echo "== campaign over $variants at 250 ms, LITMUS_DEVICES=$devices"
        s=$(date +%s)
        LITMUS_DEVICES=$devices LITMUS_SEED=35 "$bin/gpu-litmus" campaign --budget-ms 250 "$variants" >"$out/campaign-$devices.log" 2>&1
        echo "rc=$? wall $(($(date +%s) - s)) s"; tail -1 "$out/campaign-$devices.log"
    done
fi
