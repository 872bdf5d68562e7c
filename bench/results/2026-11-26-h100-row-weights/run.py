"""The row sweep's graphs (symbolic N, sm_90a) with this commit's compiler (after: a norm's weight and
bias read 16 bytes at a time) and the one before (before), side by side with torch.compile (CUDA-graph
replay, alternating samples), at the harness's sizes (at least 64 MB read and written) and a few more.
After build.sh here:

    python3 bench/results/2026-11-26-h100-row-weights/run.py --out DIR   (on the GPU machine)
"""
import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, compiled, copy_gbps, rel_err, row_inputs, row_reference  # noqa: E402

OPS = {"softmax_f32": torch.float32, "layer_norm_f32": torch.float32, "rms_norm_f16": torch.float16}
NS = [61, 1000, 4096, 8192, 16384, 32768, 65536, 128256]



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    bw = copy_gbps()
    results = {1: [], 2: []}
    for name, dtype in OPS.items():
        d = ROOT / ".devcarry" / "rows"
        graphs = {w: harness.Graph(d / w / f"libsweep_{name}.so", d / w / f"sweep_{name}.h") for w in ("after", "before")}
        for n in NS:
            size = torch.tensor([], dtype=dtype).element_size()
            r = max(4, (64 << 20) // (2 * n * size))
            x = torch.randn(r, n, device="cuda", dtype=dtype)
            g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
            tensors = row_inputs(name, x, g, b)
            outs = {w: torch.empty_like(x) for w in graphs}
            pts = {w: Point(gr, tensors | {"out": outs[w]}, {"R": r, "N": n}) for w, gr in graphs.items()}
            comp = compiled(row_reference(name, x, g, b))
            comp()
            ref = row_reference(name, x, g, b)()
            fns = {w: p.run for w, p in pts.items()} | {"compile": lambda s: comp()}
            for run in (1, 2):
                t = graphs_ms(fns, calls=10, reps=15)
                row = {"op": name, "R": r, "N": n, "compile_us": t["compile"] * 1e3}
                for w in graphs:
                    row[f"{w}_us"] = t[w] * 1e3
                    row[w] = t["compile"] / t[w]
                    row[f"{w}_of_copy_bw"] = 2 * x.numel() * size / t[w] / 1e6 / bw
                    row[f"{w}_err"] = rel_err(outs[w], ref)
                results[run].append(row)
                print(f"run{run} {name} R={r} N={n}: after {row['after']:.2f}x torch.compile "
                      f"({row['after_of_copy_bw']:.2f} of copy bw), before {row['before']:.2f}x", flush=True)
    for run, rows in results.items():
        (args.out / f"run{run}.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "copy_GBps": bw,
                                                             "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
