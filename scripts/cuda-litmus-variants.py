#!/usr/bin/env python3
"""The cuda-litmus campaign's variants as gpu-litmus .litmus files.

    scripts/cuda-litmus-variants.py CUDA_LITMUS_CHECKOUT OUT

Reads the kernels (kernels/*.cu) and the campaign's verdicts
(pldi26-output/results.csv) from a git checkout of cuda-litmus (PLDI 2026)
and writes each of its 1,306 tests as one of ours: the 1,302 variants of
IRIW, ISA2, RWC, WRC, WWC, WRW+2W, Z6.3, 2+2W and 3.2W, and the paper's two
examples (its Figure 2 and the variant, each relaxed and DISALLOWED):
OUT/seen/ for those whose weak outcome that campaign saw on an H100,
OUT/unseen/ for the allowed rest, OUT/forbidden/ for those its model
forbids; OUT/index.csv maps our names to theirs. This is how
docs/tuning-and-campaigns.md measures discovery against what the published
campaign saw: `discovery_bench OUT/seen`. Nothing of cuda-litmus is copied
into this repository; the script reads a checkout you provide.

Why a script and not `gen`: the variants are defined by the kernels'
preprocessor blocks (a memory order per access, a fence macro per thread),
and libcu++ lowers them as follows (sm_70 and later): a relaxed, acquire or
release access is ld/st of that order at the atomic's scope; a seq_cst load
is fence.sc then ld.acquire, a seq_cst store fence.sc then st.relaxed; an
acq_rel thread fence is fence.acq_rel at the fence's scope. Every variant's
verdict under gpu-litmus's `ptx` model agrees with the campaign's base model
(`gpu-litmus check OUT/*/*.litmus`).
"""
import csv, os, re, subprocess, sys

if len(sys.argv) != 3:
    sys.exit("usage: cuda-litmus-variants.py CUDA_LITMUS_CHECKOUT OUT")
REPO, OUT = sys.argv[1], sys.argv[2]
def show(p):
    return subprocess.run(["git", "-C", REPO, "show", "HEAD:" + p], capture_output=True, text=True, check=True).stdout

KERNEL = {"iriw": "iriw", "isa2": "isa2", "rwc": "rwc", "wrc": "wrc", "wwc": "wwc",
          "wrw_2w": "wrw+2w", "z6_3": "z6-3", "two_2w": "2+2w", "three_2w": "3.2w",
          "paper_example1": "paper-example1", "paper_example2": "paper-example2"}

def blocks(src):
    """The variant blocks inside the testing branch: name -> (orders, fences), plus defaults."""
    body = src[src.index("testing_workgroups) {"):src.index("DEFINE_IDS();")]
    res, cur, stack = {}, None, []
    defaults = {}
    for line in body.splitlines():
        s = line.strip()
        m = re.match(r"#ifdef (\w+)|#elif defined\((\w+)\)", s)
        if m:
            cur = m.group(1) or m.group(2); res[cur] = ({}, {}); continue
        if s.startswith("#else"):
            cur = "__else__"; res[cur] = ({}, {}); continue
        if s.startswith("#endif"):
            # a second, independent ifdef group (rwc's THREAD_0_STORE_RELEASE): its #else gives defaults
            if "__else__" in res and cur == "__else__":
                pass
            cur = None; continue
        m = re.match(r"cuda::memory_order (\w+) = cuda::memory_order_(\w+);", s)
        if m and cur:
            res[cur][0][m.group(1)] = m.group(2)
        m = re.match(r"#define (FENCE_?\d)\(\)\s*(.*)", s)
        if m and cur:
            f = re.search(r"atomic_thread_fence\(cuda::memory_order_(\w+), FENCE_SCOPE\)", m.group(2))
            res[cur][1][m.group(1).replace("_", "")] = f.group(1) if f else None
    return res

def thread_ops(src):
    body = src[src.index("if (id_0 != id_1"):]
    ends = [i for i in (body.find("cuda::atomic_thread_fence(cuda::memory_order_seq_cst)"), body.find("\n    }")) if i >= 0]
    body = body[:min(ends)]
    ops = []
    for line in body.splitlines():
        s = line.split("//")[0].strip()
        m = re.match(r"test_locations\[(\w)_(\d)\]\.store\((\d), (?:cuda::memory_order_)?(\w+)\);", s)
        if m: ops.append(("st", int(m.group(2)), m.group(1), int(m.group(3)), m.group(4))); continue
        m = re.match(r"uint (r\d) = test_locations\[(\w)_(\d)\]\.load\((?:cuda::memory_order_)?(\w+)\);", s)
        if m: ops.append(("ld", int(m.group(3)), m.group(2), m.group(1), m.group(4))); continue
        m = re.match(r"(FENCE_?(\d))\(\)", s)
        if m: ops.append(("fence", int(m.group(2)), m.group(1).replace("_", ""))); continue
        if s and not s.startswith("if ") and s not in ("{", "}"):
            raise SystemExit(f"unparsed: {s}")
    return ops

def weak(src):
    m = re.search(r"else if \(([^)]*)\) \{[^}]*?\n?\s*test_results->weak", src) or re.search(r"if \(([^)]*)\) \{\s*\n\s*test_results->weak", src)
    return m.group(1)

def order(name, orders, glob):
    if name in ("relaxed", "release", "acquire", "seq_cst"): return name
    if name in orders: return orders[name]
    if name in glob: return glob[name]
    raise SystemExit(f"no order for {name}")

def translate(shape, variant, tb, scope, fscope):
    src = show(f"kernels/{KERNEL[shape]}.cu")
    bl = blocks(src)
    vname = variant
    # The paper's examples have one block, DISALLOWED; RELAXED is its #else.
    if vname not in bl and "__else__" in bl and shape.startswith("paper"): vname = "__else__"
    if vname not in bl: raise SystemExit(f"{shape}: no block {vname}")
    orders, fences = bl[vname]
    glob = {}
    for k, (o, f) in bl.items():
        if k == "__else__": glob.update(o)
    sc = {"BLOCK": "cta", "DEVICE": "gpu"}[scope]
    # The paper's examples name no fence scope; their fences take the
    # accesses' (the other kernels' NO_FENCE variants have no fences).
    fs = {"BLOCK": "cta", "DEVICE": "gpu", None: None}[fscope] or sc
    ops = thread_ops(src)
    nthreads = max(o[1] for o in ops) + 1
    lines = [[] for _ in range(nthreads)]
    regs = {}
    for op in ops:
        t = op[1]
        if op[0] == "fence":
            sem = fences.get(op[2])
            if sem: lines[t].append(f"fence.{'sc' if sem == 'seq_cst' else sem}.{fs}")
        elif op[0] == "st":
            o = order(op[4], orders, glob)
            if o == "seq_cst": lines[t] += [f"fence.sc.{sc}", f"st.relaxed.{sc} {op[2]}, {op[3]}"]
            else: lines[t].append(f"st.{o}.{sc} {op[2]}, {op[3]}")
        else:
            o = order(op[4], orders, glob)
            if o == "seq_cst": lines[t] += [f"fence.sc.{sc}", f"ld.acquire.{sc} {op[3]}, {op[2]}"]
            else: lines[t].append(f"ld.{o}.{sc} {op[3]}, {op[2]}")
            regs[op[3]] = t
    groups = tb.split("_")
    cta = {}
    for i, g in enumerate(groups):
        for ch in g: cta[int(ch)] = i
    cond = weak(src)
    terms = []
    for c in cond.split("&&"):
        l, r = [x.strip() for x in c.split("==")]
        terms.append(f"P{regs[l]}:{l} == {r}" if l in regs else f"{l} == {r}")
    locs = sorted({op[2] for op in ops if op[0] != "fence"})
    width = [max(len(x) for x in col) if col else 0 for col in lines]
    heads = [f"P{t}@cta {cta[t]},gpu 0" for t in range(nthreads)]
    width = [max(w, len(h)) for w, h in zip(width, heads)]
    rows = max(len(c) for c in lines)
    out = [f"PTX {NAME}", f'"cuda-litmus {shape} {tb} SCOPE_{scope} {variant}"', "{", " ".join(f"{l}=0;" for l in locs), "}"]
    out.append(" " + " | ".join(h.ljust(w) for h, w in zip(heads, width)) + " ;")
    for i in range(rows):
        out.append(" " + " | ".join((c[i] if i < len(c) else "").ljust(w) for c, w in zip(lines, width)) + " ;")
    out.append("exists (" + " /\\ ".join(terms) + ")")
    return "\n".join(out) + "\n"

for d in ("seen", "unseen", "forbidden"):
    os.makedirs(os.path.join(OUT, d), exist_ok=True)
rows = list(csv.DictReader(show("pldi26-output/results.csv").splitlines()))
idx = open(os.path.join(OUT, "index.csv"), "w")
idx.write("name,cuda_litmus,base,h100\n")
for r in rows:
    n = r["test"]
    m = re.match("(" + "|".join(KERNEL) + r")_TB_([0-9_]+?)_SCOPE_(BLOCK|DEVICE)_(?:FENCE_SCOPE_(BLOCK|DEVICE)_|NO_FENCE_)(\w+)$", n)
    if not m: raise SystemExit(f"name? {n}")
    shape, tb, scope, fscope, variant = m.groups()
    SHAPE = {"iriw": "IRIW", "isa2": "ISA2", "rwc": "RWC", "wrc": "WRC", "wwc": "WWC", "wrw_2w": "WRW+2W",
             "z6_3": "Z6.3", "two_2w": "2+2W", "three_2w": "3.2W",
             "paper_example1": "PaperExample1", "paper_example2": "PaperExample2"}[shape]
    # gen-style names, so that discovery_bench groups them by family and fence kind
    NAME = f"{SHAPE}+cta{tb}+{ {'BLOCK': 'cta', 'DEVICE': 'gpu'}[scope] }"
    if fscope:
        NAME += f"+fence.acq_rel.{ {'BLOCK': 'cta', 'DEVICE': 'gpu'}[fscope] }@{variant}"
    else:
        NAME += f"+{variant}"
    text = translate(shape, variant, tb, scope, fscope)
    where = "forbidden" if r["base"] != "INSTANCE" else ("seen" if r["h100"] == "seen" else "unseen")
    open(os.path.join(OUT, where, NAME + ".litmus"), "w").write(text)
    idx.write(f"{NAME},{n},{r['base']},{r['h100']}\n")
