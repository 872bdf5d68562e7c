"""The f16 GEMM sweep graph (bench/sweep/sweep_gemm_f16.hds, every size symbolic) with each stdlib
set of build.sh side by side with cuBLAS, in one process, alternating samples (CUDA-graph replay),
where the swapped product has 67 to 132 tiles of 64 columns: decoding (M = 1, 16) and 129-192
rows at N = 5120, 6144 (Llama-3's q, k, v as one), 8192. On the GPU machine:

    python3 bench/results/2026-11-28-h200-swap-wide/run.py --out DIR [--build SET] [--tag TAG] [--points M,K,N ...]

--tag, --points: another build.sh's sets (.devcarry/TAG) at other sizes (../2026-11-28-h200-swap-split88).
"""
import argparse
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import Point, copy_gbps, rel_err  # noqa: E402
from stdlib_sets import build_set, time_row, write_rows  # noqa: E402
import harness  # noqa: E402

SRC = ROOT / "bench" / "sweep" / "sweep_gemm_f16.hds"
POINTS = [(m, k, n) for k, n in ((4096, 5120), (4096, 6144), (4096, 8192), (8192, 8192), (4096, 4096))
          for m in (1, 16, 129, 160, 192)]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
ap.add_argument("--tag", default="wide")
ap.add_argument("--points", nargs="*", default=[",".join(map(str, p)) for p in POINTS])
args = ap.parse_args()
TAG = ROOT / ".devcarry" / args.tag
sets = (TAG / "sets").read_text().split()
if args.build:
    build_set(TAG, args.build, [SRC])
    sys.exit()
graphs = {}
for st in sets:
    os.environ["HDS_EMITTED_DIR"] = str(TAG / st)
    graphs[st] = harness.build_graph(SRC)
rows = []
for m, k, n in (tuple(int(v) for v in p.split(",")) for p in args.points):
    a = torch.randn(m, k, device="cuda", dtype=torch.float16)
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    ref = a.double() @ b.double()
    fns = {"cublas": lambda s: torch.matmul(a, b)}
    for st in sets:
        out = torch.full((m, n), float("nan"), device="cuda", dtype=torch.float16)
        p = Point(graphs[st], {"a": a, "b": b, "out": out}, {"M": m, "K": k, "N": n})
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < 1e-2, (st, m, k, n, err)
        fns[st] = p.run
    row = time_row({"M": m, "K": k, "N": n}, fns, ("cublas",))
    if m <= 16:
        for st in sets:
            row[f"{st}_of_copy_bw"] = k * n * 2 / row[f"{st}_us"] / 1e3 / copy_gbps()
        print("  of copy bandwidth: " + " ".join(f"{st} {row[f'{st}_of_copy_bw']:.2f}" for st in sets), flush=True)
    rows.append(row)
write_rows(args.out / "gemm.json", rows)
