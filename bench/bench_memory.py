"""Memory-bound graphs at 8192 x 8192 (bench/memory_ops/*.hds: add+relu,
softmax, layer norm, row sum; f32 and f16) side by side with torch eager,
torch.compile and a device-to-device copy of the same bytes (the bandwidth
bar). Medians of CUDA events.

    python3 bench/bench_memory.py --out DIR      (needs a GPU and torch)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import medians_ms, write_table  # noqa: E402

R = C = 8192
OPS = {
    "add_relu": (lambda a, b: F.relu(a + b), lambda t: {"a": t(R, C), "b": t(R, C)}, 3),
    "softmax": (lambda x: torch.softmax(x, -1), lambda t: {"x": t(R, C)}, 2),
    "layernorm": (lambda x, g, b: F.layer_norm(x, (C,), g, b), lambda t: {"x": t(R, C), "g": t(C), "b": t(C)}, 2),
    "rowsum": (lambda x: x.sum(-1), lambda t: {"x": t(R, C)}, 1),
}


def bench(op: str, dtype) -> dict:
    fn, make, passes = OPS[op]
    name = f"{op}_{'f32' if dtype == torch.float32 else 'f16'}"
    graph = harness.build_graph(f"bench/memory_ops/{name}.hds")
    inputs = make(lambda *s: torch.randn(*s, device="cuda").to(dtype))
    ref = fn(**inputs)
    out = torch.empty_like(ref)
    sizes = {"R": R, "C": C}
    ws = graph.workspace(sizes)
    args = graph.args({**inputs, "out": out}, sizes)
    hds = lambda: graph.run_fn(*args, ws.data_ptr(), 0)
    hds()
    torch.cuda.synchronize()
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    nbytes = R * C * dtype.itemsize * passes  # elements read + written once each
    src = torch.empty(nbytes // 2, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    compiled = torch.compile(fn)
    compiled(**inputs)
    row = {"op": name, "rel_err": err}
    times = medians_ms({"hds": hds, "eager": lambda: fn(**inputs), "copy": lambda: dst.copy_(src),
                        "compiled": lambda: compiled(**inputs)})  # side by side
    for key, t in times.items():
        row[f"{key}_ms"] = t
    row["hds_gbs"] = nbytes / row["hds_ms"] / 1e6
    row["of_copy_bw"] = row["copy_ms"] / row["hds_ms"]
    row["vs_eager"] = row["eager_ms"] / row["hds_ms"]
    row["vs_compiled"] = row["compiled_ms"] / row["hds_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rows = []
    for op in OPS:
        for dtype in (torch.float32, torch.float16):
            rows.append(bench(op, dtype))
            print(json.dumps(rows[-1]), flush=True)
    write_table(args.out, "memory", rows, [
        ("graph (8192²)", lambda r: r["op"]), ("hds GB/s", lambda r: f"{r['hds_gbs']:.0f}"),
        ("of copy bandwidth", lambda r: f"{r['of_copy_bw']:.2f}"), ("vs eager", lambda r: f"{r['vs_eager']:.2f}x"),
        ("vs torch.compile", lambda r: f"{r['vs_compiled']:.2f}x"), ("rel err", lambda r: f"{r['rel_err']:.1e}")])

if __name__ == "__main__":
    main()
