"""Kernel by kernel: the decoding GEMM where b's rows are not 16-byte multiples (M = 16 and 4 at
K = 4095, N = 4097; matmul_skinny_shifted then matmul_parts_combine) and the aligned one at 4096 x
4096, as a user writes it (sizes symbolic, untuned), under torch's profiler; with --ncu, one call
of the 4095 x 4097 graph at M = 16 for Nsight Compute. On the GPU machine (.devcarry carried):
    python3 bench/results/2026-12-03-h200-strip-reads/profile.py [--ncu | --lm-head]
"""
import sys
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

import hds

ROOT = Path(__file__).resolve().parents[3]
src = Path("/tmp/strip_gemm.hds")
src.write_text('import "nn.hds";\ngraph mm(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n')
mod = hds.load(src, include=[ROOT / "stdlib"])
if "--ncu" in sys.argv:
    a, b = torch.randn(16, 4095, device="cuda", dtype=torch.half), torch.randn(4095, 4097, device="cuda", dtype=torch.half)
    for _ in range(3):
        mod.mm(a, b)
    torch.cuda.synchronize()
    sys.exit(0)
SHAPES = [(16, 4095, 4097), (4, 4095, 4097), (16, 4096, 4096), (16, 11007, 4097)]
if "--lm-head" in sys.argv:  # GPT-2's vocabulary projection (50257 columns) and others K < 2048
    SHAPES = [(m, 768, 50257) for m in (1, 2, 4, 16)] + [(1, 1024, 50257), (16, 1600, 50257), (1, 768, 50304)]
for m, k, n in SHAPES:
    a, b = torch.randn(m, k, device="cuda", dtype=torch.half), torch.randn(k, n, device="cuda", dtype=torch.half)
    ref = a.float() @ b.float()
    assert float((mod.mm(a, b).float() - ref).norm() / ref.norm()) < 2e-3
    for _ in range(5):
        mod.mm(a, b)
        a @ b
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(20):
            mod.mm(a, b)
            a @ b
        torch.cuda.synchronize()
    print(f"M {m} K {k} N {n} (b {k * n * 2 / 1e6:.1f} MB; at 4180 GB/s {k * n * 2 / 4180e3:.1f} us):")
    for e in prof.key_averages():
        if e.device_type.name == "CUDA" and e.count:
            print(f"   {e.count:3d} x {e.device_time_total / e.count:7.2f} us  {e.key[:110]}")
