"""Decoding against SDPA's default, kernel by kernel under Nsight Compute: the harness's sweep
graphs (every size symbolic, as emitted into .devcarry/emitted) and SDPA with enable_gqa, two
calls each after warming up, between cudaProfilerStart/Stop. On the GPU machine:

    ncu --profile-from-start off --clock-control none --section ... python3 prof.py D B S
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point  # noqa: E402

d, b, s = (int(x) for x in sys.argv[1:4])
h, g = 64, 8
graph = harness.build_graph(ROOT / "bench" / "sweep" / f"sweep_attention_gqa_d{d}.hds")
q = torch.randn(b, h, 1, d, device="cuda", dtype=torch.float16)
k, v = (torch.randn(b, g, s, d, device="cuda", dtype=torch.float16) for _ in range(2))
out = torch.empty_like(q)
p = Point(graph, {"q": q, "k": k, "v": v, "out": out}, {"B": b, "H": h, "L": 1, "M": s, "G": g})
stream = torch.cuda.current_stream().cuda_stream


def sdpa():
    return F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5, enable_gqa=True)


for _ in range(3):
    p.run(stream)
    sdpa()
torch.cuda.synchronize()
print("max error", (out.float() - sdpa().float()).abs().max().item(), flush=True)
torch.cuda.profiler.start()
for _ in range(2):
    p.run(stream)
    torch.cuda.synchronize()
    sdpa()
    torch.cuda.synchronize()
torch.cuda.profiler.stop()
