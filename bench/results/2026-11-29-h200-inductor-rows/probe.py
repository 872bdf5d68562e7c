"""What torch.compile (Inductor's Triton kernels) runs for the row sweep's short rows: each
compiled kernel's candidate configs and the one its autotuner kept (XBLOCK rows a program,
R0_BLOCK values a row, num_warps), for the harness's shapes (at least 64 MB moved). On the GPU
machine:
    python3 bench/results/2026-11-29-h200-inductor-rows/probe.py OUT.json
"""
import gc
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import compiled, row_reference  # noqa: E402
from torch._inductor.runtime.triton_heuristics import CachingAutotuner  # noqa: E402


def autotuners():
    # type(), not isinstance(): gc also holds weak proxies, whose isinstance() may raise
    return [o for o in gc.get_objects() if issubclass(type(o), CachingAutotuner)]


def describe(t):
    name = getattr(getattr(t, "fn", None), "__name__", None) or str(getattr(t, "inductor_meta", {}).get("kernel_name"))
    kept = [str(launcher.config) for launcher in getattr(t, "launchers", [])]
    return {"kernel": name, "candidates": [str(c) for c in getattr(t, "configs", []) or []], "kept": kept,
            "size_hints": str(getattr(t, "size_hints", None))}


rows, seen = [], set()
for name, dtype in (("softmax_f32", torch.float32), ("layer_norm_f32", torch.float32), ("rms_norm_f16", torch.float16)):
    for n in (61, 126, 130, 250, 254, 382, 510, 1000):
        r = max(4, (64 << 20) // (2 * n * torch.tensor([], dtype=dtype).element_size()))
        x = torch.randn(r, n, device="cuda", dtype=dtype)
        g = torch.randn(n, device="cuda", dtype=dtype)
        b = torch.randn(n, device="cuda", dtype=dtype)
        comp = compiled(row_reference(name, x, g, b))
        for _ in range(3):
            comp()
        torch.cuda.synchronize()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(20):
            comp()
        end.record()
        torch.cuda.synchronize()
        new = [t for t in autotuners() if id(t) not in seen]
        seen.update(id(t) for t in new)
        row = {"op": name, "R": r, "N": n, "us": start.elapsed_time(end) / 20 * 1e3, "kernels": [describe(t) for t in new]}
        rows.append(row)
        print(json.dumps(row), flush=True)
Path(sys.argv[1]).write_text(json.dumps(rows, indent=1))
