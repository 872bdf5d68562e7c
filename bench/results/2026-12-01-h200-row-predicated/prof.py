"""One call each of the row sweep's graphs (hds, symbolic N, as built in .devcarry/rows/base) and of
torch.compile's kernel for them, at the harness's sizes (at least 64 MB moved), between
cudaProfilerStart/Stop, for ncu --profile-from-start off (prof.sh).
    python3 prof.py op:N [op:N ...]"""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point, compiled, row_inputs, row_reference  # noqa: E402

d = ROOT / ".devcarry" / "rows" / "base"
cases = []
for arg in sys.argv[1:]:
    name, n = arg.split(":")
    n = int(n)
    dtype = torch.float16 if name.endswith("f16") else torch.float32
    size = torch.tensor([], dtype=dtype).element_size()
    r = max(4, (64 << 20) // (2 * n * size))
    graph = harness.Graph(d / f"libsweep_{name}.so", d / f"sweep_{name}.h")
    x = torch.randn(r, n, device="cuda", dtype=dtype)
    g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
    p = Point(graph, row_inputs(name, x, g, b) | {"out": torch.empty_like(x)}, {"R": r, "N": n})
    comp = compiled(row_reference(name, x, g, b))
    for _ in range(3):
        p.run(torch.cuda.current_stream().cuda_stream)
        comp()
    cases.append((p, comp))
torch.cuda.synchronize()
for p, comp in cases:
    torch.cuda.cudart().cudaProfilerStart()
    p.run(torch.cuda.current_stream().cuda_stream)
    comp()
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()
