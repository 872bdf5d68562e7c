"""The f16 sweep graph with each stdlib set named on the command line at one size, twice each
between cudaProfilerStart and Stop (for `ncu --profile-from-start off`, run_ncu.sh):

    python3 bench/results/2026-11-28-h200-skinny-unaligned/prof.py M K N SET...
"""
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import Point  # noqa: E402
from stdlib_sets import profile_points  # noqa: E402
import harness  # noqa: E402

m, k, n = (int(v) for v in sys.argv[1:4])
a = torch.randn(m, k, device="cuda", dtype=torch.float16)
b = torch.randn(k, n, device="cuda", dtype=torch.float16)
points = []
for st in sys.argv[4:]:
    os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "skinny" / st)
    g = harness.build_graph(ROOT / "bench" / "sweep" / "sweep_gemm_f16.hds")
    out = torch.empty(m, n, device="cuda", dtype=torch.float16)
    points.append(Point(g, {"a": a, "b": b, "out": out}, {"M": m, "K": k, "N": n}))
profile_points(points)
