"""Side-by-side benchmark of the example graphs (fused by hdsc) against torch
eager and torch.compile on the same inputs in one process: medians of
CUDA-event timings, ratios > 1 mean hds is faster. TF32 is off everywhere.
Each is timed twice: called from Python (what a caller of eager pays, host
launch overhead included where the GPU runs dry) and replayed from a CUDA
graph (the GPU's time alone, which host noise does not reach); each time the
three's samples alternate (bench_core.medians_ms / graphs_ms).

    python3 bench/bench_graphs.py --out DIR [--only GRAPH...] [--sizes N...]   (needs a GPU and torch)
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
import models  # noqa: E402
from bench_core import graphs_ms, medians_ms, write_table  # noqa: E402

SIZES = {"mlp": 2048, "mlp_sm90a": 2048, "transformer_block": 1024, "resnet_block": 16, "mm_bias_gelu": 4096,
         "conv3x3_f16": 32, "conv1x1_f16": 32,
         "llama_block": 1024}


class Prepared:
    """An example graph built and ready to run at one size: its inputs, output,
    workspace, the torch reference, and `run()` (one run on the current stream)."""

    def __init__(self, example: str, size: int):
        make, self.ref_fn, self.size_name, out_shape = models.MODELS[example]
        self.graph = harness.build_graph(models.source(example))
        self.inputs = make(size)
        self.out = torch.empty(out_shape(self.inputs), dtype=self.inputs["x"].dtype, device="cuda")
        sizes = {self.size_name: size}
        self.ws = self.graph.workspace(sizes)
        self.args = self.graph.args({**self.inputs, "out": self.out}, sizes)

    def run(self):
        self.graph.run_fn(*self.args, self.ws.data_ptr(), torch.cuda.current_stream().cuda_stream)


def bench(example: str, size: int) -> dict:
    p = Prepared(example, size)
    ref_fn, inputs, out, size_name, hds = p.ref_fn, p.inputs, p.out, p.size_name, p.run
    hds()
    torch.cuda.synchronize()
    ref = ref_fn(**inputs)
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    row = {"graph": example, "size": f"{size_name}={size}", "dtype": str(inputs["x"].dtype).replace("torch.", ""),
           "rel_err_vs_eager": err}
    calls = {"hds": hds, "eager": lambda: ref_fn(**inputs)}
    try:
        start = time.time()
        compiled = torch.compile(ref_fn)
        compiled(**inputs)
        row["compile_s"] = round(time.time() - start, 1)
        calls["compiled"] = lambda: compiled(**inputs)
    except Exception as e:  # noqa: BLE001 - report, do not hide
        row["compiled_error"] = str(e)[:200]
    # Called from Python, then replayed from CUDA graphs (each call on the capturing
    # stream); in both, the samples of hds, eager and torch.compile alternate.
    for name, t in medians_ms(calls).items():
        row[f"{name}_ms"] = t
    replayed = {name: (lambda fn: lambda s: fn())(fn) for name, fn in calls.items()}
    try:
        for name, t in graphs_ms(replayed).items():
            row[f"{name}_graph_ms"] = t
    except Exception:  # noqa: BLE001 - one that cannot be captured: the others alone, the error reported
        for name, fn in replayed.items():
            try:
                row[f"{name}_graph_ms"] = graphs_ms({name: fn})[name]
            except Exception as e:  # noqa: BLE001
                row[f"{name}_graph_error"] = str(e)[:200]
    row["vs_eager"] = row["eager_ms"] / row["hds_ms"]
    if "compiled_ms" in row:
        row["vs_compiled"] = row["compiled_ms"] / row["hds_ms"]
    for name, key in [("eager", "vs_eager_graph"), ("compiled", "vs_compiled_graph")]:
        if f"{name}_graph_ms" in row and "hds_graph_ms" in row:
            row[key] = row[f"{name}_graph_ms"] / row["hds_graph_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", nargs="+", choices=list(SIZES), help="these graphs only (default: all)")
    ap.add_argument("--sizes", nargs="+", type=int, help="at these sizes instead of each graph's own")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rows = []
    for example, size in SIZES.items():
        if args.only and example not in args.only:
            continue
        for at in args.sizes or [size]:
            rows.append(bench(example, at))
            print(json.dumps(rows[-1]), flush=True)
    meta = {"date": datetime.date.today().isoformat(), "device": torch.cuda.get_device_name(),
            "torch": torch.__version__}
    nan = float("nan")
    write_table(args.out, "graphs", rows, [
        ("graph", lambda r: r["graph"]), ("size", lambda r: r["size"]), ("dtype", lambda r: r["dtype"]),
        ("hds ms", lambda r: f"{r['hds_ms']:.3f}"), ("eager ms", lambda r: f"{r['eager_ms']:.3f}"),
        ("compiled ms", lambda r: f"{r.get('compiled_ms', nan):.3f}"), ("vs eager", lambda r: f"{r['vs_eager']:.2f}x"),
        ("vs compile", lambda r: f"{r.get('vs_compiled', nan):.2f}x"),
        ("hds ms (graph)", lambda r: f"{r.get('hds_graph_ms', nan):.3f}"),
        ("vs eager (graph)", lambda r: f"{r.get('vs_eager_graph', nan):.2f}x"),
        ("vs compile (graph)", lambda r: f"{r.get('vs_compiled_graph', nan):.2f}x"),
        ("rel err", lambda r: f"{r['rel_err_vs_eager']:.1e}")], meta)

if __name__ == "__main__":
    main()
