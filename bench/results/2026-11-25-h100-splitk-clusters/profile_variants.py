"""Each tile shape of splitk_variants.hds (with and without the K split) and the f16 sweep graph
(the default schedules) at M = 16..256 against K x N weights: kernel µs (torch.profiler, mean of
20 runs). The .cu come from `hdsc splitk_variants.hds --out-dir .devcarry/variants` (or
HDS_VARIANTS_DIR).

    python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py [GRAPH ...]   (on the GPU machine)
"""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point  # noqa: E402
from profile_graphs import kernel_table  # noqa: E402

names = sys.argv[1:] or ["v64x128", "v64x128s", "v128x128s", "v128x64s", "v64x64s", "v64x256s"]
graphs = {"default": harness.build_graph("bench/sweep/sweep_gemm_f16.hds")}
os.environ["HDS_EMITTED_DIR"] = os.environ.get("HDS_VARIANTS_DIR", str(ROOT / ".devcarry" / "variants"))
stubs = Path(tempfile.mkdtemp())
for name in names:  # build_graph finds <stem>.cu: one copy of the source per graph
    shutil.copy(HERE / "splitk_variants.hds", stubs / f"{name}.hds")
    graphs[name] = harness.build_graph(stubs / f"{name}.hds")

print("| M | K | N | " + " | ".join(graphs) + " |")
print("|---" * (3 + len(graphs)) + "|")
for k, n in ((4096, 4096), (11008, 4096), (4096, 11008)):
    b = torch.randn(k, n, device="cuda", dtype=torch.float16)
    for m in (16, 48, 64, 77, 96, 128, 192, 256):
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        ref = a.float() @ b.float()
        cells = []
        for name, g in graphs.items():
            c = torch.empty(m, n, device="cuda", dtype=torch.float16)
            p = Point(g, {"a": a, "b": b, "out": c}, {"M": m, "K": k, "N": n})
            us = sum(r[1] for r in kernel_table(lambda: p.run(torch.cuda.current_stream().cuda_stream)))
            err = ((c.float() - ref).norm() / ref.norm()).item()
            cells.append(f"{us:.1f}" + ("" if err < 1e-2 else f" (err {err:.1e})"))
        print(f"| {m} | {k} | {n} | " + " | ".join(cells) + " |", flush=True)
