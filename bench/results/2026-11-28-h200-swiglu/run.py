"""The Llama MLP (bench/sweep/sweep_llama_mlp.hds, every size symbolic) with each stdlib set of
build.sh side by side with torch.compile, in one process, alternating samples: token counts
1 ... 4096 at D = 4096 and F = 11008 (Llama-2 7B) and 14336 (Llama-3 8B). On the GPU machine:

    python3 bench/results/2026-11-28-h200-swiglu/run.py --out DIR [--build SET]
"""
import argparse
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import Point, compiled, mlp_eager, rel_err  # noqa: E402
from stdlib_sets import build_set, time_row, write_rows  # noqa: E402
import harness  # noqa: E402

TAG = ROOT / ".devcarry" / "swiglu"
SRC = ROOT / "bench" / "sweep" / "sweep_llama_mlp.hds"
T = [16, 17, 64, 65, 128, 192, 256, 384, 512, 1024, 2048, 4096]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
args = ap.parse_args()
sets = (TAG / "sets").read_text().split()
if args.build:
    build_set(TAG, args.build, [SRC])
    sys.exit()
graphs = {}
for st in sets:
    import os
    os.environ["HDS_EMITTED_DIR"] = str(TAG / st)
    graphs[st] = harness.build_graph(SRC)
dt, d = torch.float16, 4096
rows = []
for f in (11008, 14336):
    g = torch.rand(d, device="cuda", dtype=dt) + 0.5
    wg, wu = (torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d) for _ in range(2))
    wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)
    eager = mlp_eager(g, wg, wu, wd)
    comp = compiled(eager)
    for t in T:
        x = torch.randn(t, d, device="cuda", dtype=dt)
        ref = eager(x)
        fns = {"compile": lambda s: comp(x)}
        for st in sets:
            out = torch.full_like(x, float("nan"))
            p = Point(graphs[st], {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd, "out": out}, {"T": t, "D": d, "F": f})
            p.run(torch.cuda.current_stream().cuda_stream)
            torch.cuda.synchronize()
            err = rel_err(out, ref)
            assert err < 5e-3, (st, f, t, err)
            fns[st] = p.run
        comp(x)
        rows.append(time_row({"F": f, "T": t}, fns, ("compile",)))
write_rows(args.out / "mlp.json", rows)
