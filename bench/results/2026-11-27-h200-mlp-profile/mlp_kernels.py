"""Per-kernel GPU times of the Llama MLP graph (bench/sweep/sweep_llama_mlp.hds, every size
symbolic) against torch.compile's kernels for the same MLP, at token counts where hds trails.
On the GPU machine, after scripts/emit_for_device.sh here, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py OUT_DIR
"""
import json
import math
import sys
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
import bench_sweep  # noqa: E402

out = Path(sys.argv[1])
d, f, dt = 4096, 11008, torch.float16
g = torch.rand(d, device="cuda", dtype=dt) + 0.5
wg, wu = (torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d) for _ in range(2))
wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)


def eager(x):
    xf = x.float()
    h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(dt)
    return x + (torch.nn.functional.silu(h @ wg) * (h @ wu)) @ wd


def kernels(fn, reps=20):
    """Mean GPU time per call of each kernel fn launches (name, microseconds)."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(reps):
            fn()
        torch.cuda.synchronize()
    trace = out / "trace.json"
    prof.export_chrome_trace(str(trace))
    events = [e for e in json.loads(trace.read_text())["traceEvents"] if e.get("cat") == "kernel"]
    trace.unlink()
    per = {}
    for e in events:
        per.setdefault(e["name"][:90], []).append(e["dur"])
    return sorted(((n, sum(v) / reps, len(v) // reps, e_grid) for n, v in per.items()
                   for e_grid in [next(e["args"].get("grid") for e in events if e["name"][:90] == n)]),
                  key=lambda r: -r[1])


graph = bench_sweep.harness.build_graph("bench/sweep/sweep_llama_mlp.hds")
comp = bench_sweep.compiled(eager)
res = {}
for t in (16, 128, 512):
    x = torch.randn(t, d, device="cuda", dtype=dt)
    o = torch.empty_like(x)
    p = bench_sweep.Point(graph, {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd, "out": o}, {"T": t, "D": d, "F": f})
    stream = torch.cuda.current_stream().cuda_stream
    comp(x)
    res[t] = {"hds": kernels(lambda: p.run(stream)), "compile": kernels(lambda: comp(x))}
    for side in ("hds", "compile"):
        total = sum(r[1] for r in res[t][side])
        print(f"T={t} {side}: {total:.1f} us in all")
        for name, us, calls, grid in res[t][side]:
            print(f"    {us:7.1f} us  x{calls}  grid {grid}  {name}")
(out / "profile.json").write_text(json.dumps(res, indent=1))
