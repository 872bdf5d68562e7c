"""Per-kernel GPU times (bench/profile_graphs.py's kernel_table) of the Llama MLP graph
(bench/sweep/sweep_llama_mlp.hds, every size symbolic) against torch.compile's kernels for the same
MLP, at token counts where hds trails. On the GPU machine, after scripts/emit_for_device.sh here,
with .devcarry carried:

    python3 bench/results/2026-11-27-h200-mlp-profile/mlp_kernels.py OUT_DIR
"""
import json
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
import bench_sweep  # noqa: E402
from profile_graphs import kernel_table  # noqa: E402

out = Path(sys.argv[1])
d, f, dt = 4096, 11008, torch.float16
g = torch.rand(d, device="cuda", dtype=dt) + 0.5
wg, wu = (torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d) for _ in range(2))
wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)


def eager(x):
    xf = x.float()
    h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(dt)
    return x + (torch.nn.functional.silu(h @ wg) * (h @ wu)) @ wd


graph = bench_sweep.harness.build_graph("bench/sweep/sweep_llama_mlp.hds")
comp = bench_sweep.compiled(eager)
res = {}
for t in (16, 128, 512):
    x = torch.randn(t, d, device="cuda", dtype=dt)
    o = torch.empty_like(x)
    p = bench_sweep.Point(graph, {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd, "out": o}, {"T": t, "D": d, "F": f})
    stream = torch.cuda.current_stream().cuda_stream
    comp(x)
    res[t] = {"hds": kernel_table(lambda: p.run(stream)), "compile": kernel_table(lambda: comp(x))}
    for side in ("hds", "compile"):
        total = sum(r[1] for r in res[t][side])
        print(f"T={t} {side}: {total:.1f} us in all")
        for name, us, calls in res[t][side]:
            print(f"    {us:7.1f} us  x{calls}  {name[:90]}")
(out / "profile.json").write_text(json.dumps(res, indent=1))
