"""The f16 GEMM sweep graph and the Llama MLP (bench/sweep/*.hds, every size symbolic) with each
stdlib set of build.sh side by side with cuBLAS / torch.compile, in one process, alternating
samples (CUDA-graph replay): GEMMs of 129 to 192 rows against long K, the MLP at those token
counts (D = 4096; F = 11008 and 14336). On the GPU machine:

    python3 bench/results/2026-11-28-h200-split-192/run.py --out DIR [--build SET] [--tag TAG] [--ms M...]

--tag: the sets of another build.sh (.devcarry/TAG; ../2026-11-28-h200-swap-192 uses --tag swap192).
--kn K,N ...: other GEMM shapes, --no-mlp: GEMMs only (../2026-11-29-h200-swap-one-192).
"""
import argparse
import math
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import Point, compiled, mlp_eager, rel_err  # noqa: E402
from stdlib_sets import build_set, time_row, write_rows  # noqa: E402
import harness  # noqa: E402

SRC = {name: ROOT / "bench" / "sweep" / f"sweep_{name}.hds" for name in ("gemm_f16", "llama_mlp")}

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
ap.add_argument("--tag", default="s192")
ap.add_argument("--ms", type=int, nargs="*", default=[129, 160, 192])
ap.add_argument("--kn", nargs="*", default=["14336,4096", "11008,4096", "4096,4096", "4096,6144"],
                help="the GEMMs' K,N pairs")
ap.add_argument("--no-mlp", action="store_true", help="GEMMs only")
args = ap.parse_args()
TAG = ROOT / ".devcarry" / args.tag
sets = (TAG / "sets").read_text().split()
if args.build:
    build_set(TAG, args.build, list(SRC.values()))
    sys.exit()
graphs = {}
for st in sets:
    os.environ["HDS_EMITTED_DIR"] = str(TAG / st)
    graphs[st] = {name: harness.build_graph(src) for name, src in SRC.items()}
dt, rows = torch.float16, []


def side_by_side(label, graph, tensors, sizes, ref, refs):
    fns = dict(refs)
    for st in sets:
        out = torch.full_like(ref, float("nan"))
        p = Point(graphs[st][graph], {**tensors, "out": out}, sizes)
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < 1e-2, (st, label, err)
        fns[st] = p.run
    rows.append(time_row(label, fns, tuple(refs)))


for k, n in (tuple(int(v) for v in kn.split(",")) for kn in args.kn):
    b = torch.randn(k, n, device="cuda", dtype=dt)
    for m in args.ms:
        a = torch.randn(m, k, device="cuda", dtype=dt)
        side_by_side({"graph": "gemm", "M": m, "K": k, "N": n}, "gemm_f16", {"a": a, "b": b}, {"M": m, "K": k, "N": n},
                     (a.double() @ b.double()).to(dt), {"cublas": lambda s: torch.matmul(a, b)})
d = 4096
for f in () if args.no_mlp else (11008, 14336):
    g = torch.rand(d, device="cuda", dtype=dt) + 0.5
    wg, wu = (torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d) for _ in range(2))
    wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)
    eager = mlp_eager(g, wg, wu, wd)
    comp = compiled(eager)
    for t in args.ms:
        x = torch.randn(t, d, device="cuda", dtype=dt)
        comp(x)
        side_by_side({"graph": "mlp", "F": f, "T": t}, "llama_mlp", {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd},
                     {"T": t, "D": d, "F": f}, eager(x), {"compile": lambda s: comp(x)})
write_rows(args.out / "split.json", rows)
