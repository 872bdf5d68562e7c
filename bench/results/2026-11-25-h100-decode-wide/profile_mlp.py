"""Each kernel of the Llama MLP sweep graph at T = 1 and 16 (torch.profiler, mean of 20 runs),
and the f16 GEMM sweep graph at M = 16, N = 11008: where the MLP's time goes.

    python3 bench/results/2026-11-25-h100-decode-wide/profile_mlp.py   (on the GPU machine)
"""
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point  # noqa: E402
from profile_graphs import kernel_table  # noqa: E402

d, f, dt = 4096, 11008, torch.float16
mlp = harness.build_graph("bench/sweep/sweep_llama_mlp.hds")
g = torch.rand(d, device="cuda", dtype=dt) + 0.5
wg = torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d)
wu = torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d)
wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)
for t in (1, 16):
    x = torch.randn(t, d, device="cuda", dtype=dt)
    out = torch.empty_like(x)
    p = Point(mlp, {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd, "out": out}, {"T": t, "D": d, "F": f})
    print(f"## llama_mlp T={t}")
    for name, us, calls in kernel_table(lambda: p.run(torch.cuda.current_stream().cuda_stream)):
        print(f"  {us:7.1f} us  x{calls}  {name[:100]}")
gemm = harness.build_graph("bench/sweep/sweep_gemm_f16.hds")
for m in (1, 16):
    a = torch.randn(m, d, device="cuda", dtype=dt)
    c = torch.empty(m, f, device="cuda", dtype=dt)
    p = Point(gemm, {"a": a, "b": wg, "out": c}, {"M": m, "K": d, "N": f})
    print(f"## gemm_f16 M={m} K={d} N={f}")
    for name, us, calls in kernel_table(lambda: p.run(torch.cuda.current_stream().cuda_stream)):
        print(f"  {us:7.1f} us  x{calls}  {name[:100]}")
