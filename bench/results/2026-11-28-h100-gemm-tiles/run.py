"""The Llama layers' GEMMs (.devcarry/gemmtiles/graphs) as build.sh emitted them with each stdlib,
side by side in one process, alternating samples, CUDA-graph replay of ten calls, two runs, with
cuBLAS on the same layout (`nn`: torch.mm(a, b), b [K, N]) and on nn.Linear's (`tn`:
F.linear(a, w), w [N, K], what torch.compile runs). On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-28-h100-gemm-tiles/run.py --out DIR [NAME ...]

`--build SET` only builds SET's graphs (nvcc, in parallel); run.sh starts one such process per set.
"""
import argparse
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
from stdlib_sets import build_set, set_points, time_row, write_rows  # noqa: E402

TAG = ROOT / ".devcarry" / "gemmtiles"
SETS = os.environ.get("SETS", (TAG / "sets").read_text()).split()
SHAPES = {"gate1k": (1024, 4096, 14336), "down1k": (1024, 14336, 4096), "q1k": (1024, 4096, 4096),
          "kv1k": (1024, 4096, 1024), "gate512": (512, 4096, 11008), "down512": (512, 11008, 4096)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--build")
    ap.add_argument("names", nargs="*", default=list(SHAPES))
    args = ap.parse_args()
    if args.build:
        build_set(TAG, args.build, [TAG / "graphs" / f"mm_{n}.hds" for n in args.names], workers=3)
        return
    rows = []
    for run in (1, 2):
        for name in args.names:
            m, k, n = SHAPES[name]
            a = torch.randn(m, k, device="cuda", dtype=torch.float16)
            w = torch.randn(n, k, device="cuda", dtype=torch.float16) / k ** 0.5
            b = w.t().contiguous()
            ref = a @ b
            fns = {"nn": lambda s: torch.mm(a, b), "tn": lambda s: F.linear(a, w)}
            points = set_points(TAG, SETS, TAG / "graphs" / f"mm_{name}.hds", {"a": a, "b": b}, ref)
            fns.update({st: p.run for st, p in points.items()})
            rows.append(time_row({"run": run, "gemm": name}, fns, ("tn", "nn")))
    write_rows(args.out / "gemms.json", rows)


if __name__ == "__main__":
    main()
