#!/usr/bin/env bash
# Kills a campaign with SIGKILL at random moments and resumes it, 20 times
# (KILLS), then checks that every test is in the evidence exactly once as
# a campaign record and that `gate` and `report` read it: issue 33's "a
# campaign that dies loses nothing", on the GPU machine.
#
#   scripts/kill-resume.sh [GPU_LITMUS] DIR|FILE...
#
# GPU_LITMUS defaults to target/release/gpu-litmus. Without a GPU a
# campaign records nothing, so the script says so and exits 1 rather than
# loop. Exit 0: every test once; 1: something lost, doubled or unreadable.
set -euo pipefail

bin=target/release/gpu-litmus
if [[ $# -gt 0 && -x $1 && ! -d $1 ]]; then
    bin=$1
    shift
fi
if [[ $# -eq 0 ]]; then
    echo "usage: $0 [GPU_LITMUS] DIR|FILE..." >&2
    exit 2
fi
kills=${KILLS:-20}
budget=${BUDGET_MS:-200}
work=$(mktemp -d)
ev=$work/evidence
trap 'rm -rf "$work"' EXIT

# The campaign's expected duration, from one whole run into a scratch folder:
# also the check that a GPU is there (without one nothing is recorded).
start=$(date +%s%N)
LITMUS_REQUIRE_GPU=1 "$bin" campaign --budget-ms "$budget" --evidence "$work/probe" "$@" \
    >"$work/probe.out" 2>&1 || true
took_ms=$((($(date +%s%N) - start) / 1000000))
if ! compgen -G "$work/probe/*.jsonl" >/dev/null; then
    echo "kill-resume: needs a GPU: the campaign recorded nothing ($(tail -n 1 "$work/probe.out"))" >&2
    exit 1
fi
window_ms=$((took_ms / 5 + 1000))
echo "kill-resume: a whole campaign takes ${took_ms} ms; killing it $kills times, each within ${window_ms} ms"

for ((i = 1; i <= kills; i++)); do
    "$bin" campaign --budget-ms "$budget" --evidence "$ev" --resume "$@" >"$work/run.out" 2>&1 &
    pid=$!
    # A random moment, at least 50 ms in, within a window that lets each
    # resume do about a tenth of the whole before it dies (start-up
    # included), so the kills fall all along the campaign rather than
    # after a first run that finished.
    sleep "$(awk -v r="$RANDOM" -v w="$window_ms" 'BEGIN { printf "%.3f", (50 + r % (w + 1)) / 1000 }')"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    echo "kill $i: $(grep -m1 '^resume:' "$work/run.out" || echo 'killed before its resume line')"
done
# The last resume runs to the end.
"$bin" campaign --budget-ms "$budget" --evidence "$ev" --resume "$@" >"$work/run.out" 2>&1 || true
grep -m1 '^resume:' "$work/run.out"

# Every test exactly once as a campaign record (by name and IR hash), the
# same set as the whole run's.
python3 - "$ev" "$work/probe" <<'PY'
import json, pathlib, sys
from collections import Counter
def campaign(d):
    c = Counter()
    for f in sorted(pathlib.Path(d).rglob("*.jsonl")):
        lines = f.read_bytes().split(b"\n")
        for n, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            try:
                r = json.loads(raw)
            except ValueError:
                if n == len(lines):  # a cut-off last line: ignored
                    continue
                sys.exit(f"{f}:{n}: not a record")
            if r.get("kind") == "campaign":
                c[(r["test"], r["ir_hash"])] += 1
    return c
got, want = campaign(sys.argv[1]), campaign(sys.argv[2])
twice = sorted(k for k, v in got.items() if v > 1)
lost = sorted(set(want) - set(got))
print(f"kill-resume: {len(got)} tests recorded, {len(want)} expected; twice: {len(twice)}; lost: {len(lost)}")
if twice or lost:
    for t in twice: print(f"  twice: {t[0]}")
    for t in lost: print(f"  lost: {t[0]}")
    sys.exit(1)
PY
# gate and report read the evidence, a cut-off line included: gate may
# fail on a finding (a forbidden outcome), never on reading.
"$bin" gate --model ptx --evidence "$ev" "$@" >"$work/gate.out" 2>&1 || {
    if grep -q '^error:' "$work/gate.out"; then
        grep '^error:' "$work/gate.out" >&2
        exit 1
    fi
}
"$bin" report --evidence "$ev" --html "$work/report.html" >"$work/report.out" 2>&1 || {
    cat "$work/report.out" >&2
    exit 1
}
echo "kill-resume: every test once; gate and report read the evidence"
