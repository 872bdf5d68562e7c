"""The f16 GEMM sweep graph at K = N = 4096 (and K = 11008, N = 4096) for M from 64 to 128, per
kernel (torch.profiler, mean of 20 runs): where the split 64 x 128 tiles lose at M = 77.
HDS_EMITTED_DIR picks the tree (the emitted .cu of this commit or of the one before).

    python3 bench/results/2026-11-25-h100-splitk-clusters/profile_m.py   (on the GPU machine)
"""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point  # noqa: E402
from profile_graphs import kernel_table  # noqa: E402

gemm = harness.build_graph("bench/sweep/sweep_gemm_f16.hds")
for k, n in ((4096, 4096), (11008, 4096)):
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    for m in (64, 65, 77, 96, 127, 128):
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        p = Point(gemm, {"a": a, "b": b, "out": c}, {"M": m, "K": k, "N": n})
        for name, us, calls in kernel_table(lambda: p.run(torch.cuda.current_stream().cuda_stream)):
            print(f"M={m:4d} K={k:5d} N={n}  {us:7.1f} us  x{calls}  {name[:60]}")
