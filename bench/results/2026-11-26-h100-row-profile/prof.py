"""One call each of the row sweep's rms_norm f16 graph (hds, symbolic N) and of torch.compile's kernel for
it at N = 32768, R = 512 (0.84x torch.compile in the sweep), for ncu (prof.sh) to profile."""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point, compiled, row_inputs, row_reference  # noqa: E402

name, n, r = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
dtype = torch.float16 if name.endswith("f16") else torch.float32
graph = harness.build_graph(f"bench/sweep/sweep_{name}.hds")
x = torch.randn(r, n, device="cuda", dtype=dtype)
g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
out = torch.empty_like(x)
p = Point(graph, row_inputs(name, x, g, b) | {"out": out}, {"R": r, "N": n})
comp = compiled(row_reference(name, x, g, b))
for _ in range(3):
    p.run(torch.cuda.current_stream().cuda_stream)
    comp()
torch.cuda.synchronize()
