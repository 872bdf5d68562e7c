"""Nsight Compute over one call of the emitted row kernel (.devcarry/rows/base) and of
torch.compile's, between cudaProfilerStart/Stop, at the sizes given; Inductor's code goes to
stderr with TORCH_LOGS=output_code. On the GPU machine (prof.sh runs it under ncu):

    python3 prof.py --ops rms_norm_f16 --ns 256,512
"""
import argparse
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point, compiled, row_inputs, row_reference  # noqa: E402

OPS = {"softmax_f32": torch.float32, "layer_norm_f32": torch.float32, "rms_norm_f16": torch.float16}

ap = argparse.ArgumentParser()
ap.add_argument("--ops", default="rms_norm_f16")
ap.add_argument("--ns", default="256,512")
ap.add_argument("--variant", default="base")
args = ap.parse_args()
d = ROOT / ".devcarry" / "rows" / args.variant
for name in args.ops.split(","):
    dtype = OPS[name]
    graph = harness.Graph(d / f"libsweep_{name}.so", d / f"sweep_{name}.h")
    for n in map(int, args.ns.split(",")):
        size = torch.tensor([], dtype=dtype).element_size()
        r = max(4, (64 << 20) // (2 * n * size))
        x = torch.randn(r, n, device="cuda", dtype=dtype)
        g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
        p = Point(graph, row_inputs(name, x, g, b) | {"out": torch.empty_like(x)}, {"R": r, "N": n})
        comp = compiled(row_reference(name, x, g, b))
        for _ in range(3):
            comp()
            p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        torch.cuda.profiler.start()
        p.run(torch.cuda.current_stream().cuda_stream)
        comp()
        torch.cuda.synchronize()
        torch.cuda.profiler.stop()
        print(f"profiled {name} N={n} R={r}", flush=True)
