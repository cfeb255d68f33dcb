#!/usr/bin/env bash
# Issue 33's figures on one machine with several GPUs, in one device call,
# after ../shared/tools/gpu-pack (binaries in .gpu/bin):
#
#   scripts/cluster-figures.sh OUT VARIANTS_DIR [TUNE_DIR] [KILL_DIR]
#
# VARIANTS_DIR is scripts/cuda-litmus-variants.py's output (its four-gpus/
# folder holds IRIW with one thread a GPU, run with the rest).
#   1. The campaign over every variant at 250 ms a test, on every GPU and
#      with LITMUS_DEVICES=0, timed, and the tests whose weak outcome only
#      one of the two saw (the weak-seen counts to compare).
#   2. `campaign --tune --evidence` over TUNE_DIR (default: the first 36
#      files of VARIANTS_DIR/unseen; with TUNE_NAMES=FILE, the variants
#      that file names, one a line, as scripts/marginal-variants.txt), the
#      campaign's own runs CAMPAIGN_MS long (default 250), then `gate` and
#      `report` on the evidence: instances and records by kind (campaign
#      run, search trial), and the tests the report marks seen that only a
#      trial saw.
#   3. scripts/kill-resume.sh over KILL_DIR (default: every third file of
#      VARIANTS_DIR/seen, 160 at most, and the four-GPU test).
# Without TUNE_DIR or KILL_DIR the sets are made in OUT. About 8 minutes on
# four H200s (the one-GPU campaign is most of it). PARTS=1 (or 2, 3, 12...)
# runs only those parts.
set -uo pipefail
out=${1:?usage: scripts/cluster-figures.sh OUT VARIANTS_DIR [TUNE_DIR] [KILL_DIR]}
variants=${2:?usage: scripts/cluster-figures.sh OUT VARIANTS_DIR [TUNE_DIR] [KILL_DIR]}
mkdir -p "$out"
bin=$PWD/.gpu/bin
litmus=$bin/gpu-litmus
nvidia-smi -L
tune=${3:-}
if [ -z "$tune" ]; then
    tune=$out/tune-set
    mkdir -p "$tune"
    if [ -n "${TUNE_NAMES:-}" ]; then
        grep -v '^#' "$TUNE_NAMES" | while read -r name; do
            [ -n "$name" ] && find "$variants" -name "$name.litmus" -exec cp {} "$tune/" \;
        done
    else
        find "$variants/unseen" -name '*.litmus' | sort | head -36 | xargs -I{} cp {} "$tune/"
    fi
fi
kill=${4:-}
if [ -z "$kill" ]; then
    kill=$out/kill-set
    mkdir -p "$kill"
    find "$variants/seen" -name '*.litmus' | sort | awk 'NR % 3 == 1' | head -160 | xargs -I{} cp {} "$kill/"
    cp "$variants"/four-gpus/*.litmus "$kill/" 2>/dev/null
fi

parts=${PARTS:-123}
if [[ $parts == *1* ]]; then
echo "== 1. campaign over $variants at 250 ms a test: every GPU, then LITMUS_DEVICES=0"
for devices in all 0; do
    s=$(date +%s)
    LITMUS_DEVICES=$devices LITMUS_SEED=35 "$litmus" campaign --format json --budget-ms 250 "$variants" \
        >"$out/campaign-$devices.jsonl" 2>"$out/campaign-$devices.err"
    echo "LITMUS_DEVICES=$devices: rc=$? wall $(($(date +%s) - s)) s"
    tail -1 "$out/campaign-$devices.jsonl"
done
python3 - "$out/campaign-all.jsonl" "$out/campaign-0.jsonl" <<'PY'
import json, sys
def seen(path):
    tests = {}
    for line in open(path):
        r = json.loads(line)
        if "test" in r and r.get("condition_allowed") and "weak" in r:
            tests[r["test"]] = r["weak"] > 0
    return tests
every, one = seen(sys.argv[1]), seen(sys.argv[2])
both = set(every) & set(one)
only_every = sorted(t for t in both if every[t] and not one[t])
only_one = sorted(t for t in both if one[t] and not every[t])
print(f"allowed tests run by both: {len(both)}; weak seen on every GPU {sum(every[t] for t in both)},"
      f" on one {sum(one[t] for t in both)}; only on every GPU {len(only_every)}, only on one {len(only_one)}")
for t in only_every: print(f"  only on every GPU: {t}")
for t in only_one: print(f"  only on one GPU: {t}")
PY

fi

if [[ $parts == *2* ]]; then
echo "== 2. campaign --tune --evidence over $tune, then gate and report"
ev=$out/evidence-tune
LITMUS_SEED=47 "$litmus" campaign --tune --tune-budget-ms 500 --tune-configs 16 --budget-ms "${CAMPAIGN_MS:-250}" \
    --tuning "$out/tuning.toml" --evidence "$ev" "$tune" >"$out/tune.log" 2>&1
echo "rc=$?"; grep -E "^(tune|campaign):" "$out/tune.log"
"$litmus" gate --model ptx --evidence "$ev" "$tune" 2>&1 | tail -1
"$litmus" report --evidence "$ev" --html "$out/report.html" 2>&1 | tail -1
# Records and instances by kind (campaign run, search trial), the tests
# the campaign's own runs saw, and those the report marks seen that only a
# search trial saw.
python3 - "$ev" "$out/report.html" "$out/tune.log" <<'PY'
import collections, json, pathlib, re, sys
records, instances = collections.Counter(), collections.Counter()
for f in pathlib.Path(sys.argv[1]).rglob("*.jsonl"):
    for raw in f.read_bytes().split(b"\n"):
        try:
            r = json.loads(raw)
        except ValueError:
            continue
        kind = r.get("kind", "run")
        records[kind] += 1
        instances[kind] += int(r.get("instances", 0))
print("records by kind:", dict(records))
print("instances by kind:", dict(instances), "total", sum(instances.values()))
# A campaign line starts with the test's file; the report names the test,
# which the variants name after their file.
seen = {pathlib.Path(l.split(": weak ")[0]).stem for l in open(sys.argv[3]) if re.search(r"\.litmus: weak [1-9][0-9]*/", l)}
try:
    page = open(sys.argv[2]).read()
except OSError:
    print(f"tests whose campaign run saw the weak outcome: {len(seen)}")
    sys.exit("no report page (nothing was recorded)")
marked = set(re.findall(r"<i class=s>seen</i><b>([^<]*)</b>", page[page.find('<section id="tests">'):]))
print(f"tests the report marks seen: {len(marked)}")
print(f"tests whose campaign run saw the weak outcome: {len(seen)}")
for t in sorted(marked - seen):
    print(f"  seen only in the search, marked seen by the report: {t}")
PY

fi

if [[ $parts == *3* ]]; then
echo "== 3. 20 SIGKILLs, each resumed, over $kill"
KILLS=20 BUDGET_MS=200 bash scripts/kill-resume.sh "$litmus" "$kill" 2>&1 | tail -24
fi
