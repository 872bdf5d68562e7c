"""The row sweep's graphs (symbolic N, sm_90a) emitted by several compilers or hand edits, each in
.devcarry/rows/NAME (build.sh NAME=HDSC ...; here "after", a norm's weight and bias read 16 bytes
at a time, and "before"), side by side with torch.compile (CUDA-graph replay, alternating
samples) at the harness's sizes (at least 64 MB read and written). On the GPU machine:

    python3 bench/results/2026-11-26-h100-row-weights/run.py --out DIR [--ns 61,1000] [--ops rms_norm_f16] [--rows 0,8]

(also for ../2026-11-26-h100-row-profile and ../2026-11-27-h200-short-rows).
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
    ap.add_argument("--ns", default=",".join(map(str, NS)))
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--rows", default="0", help="row counts to time at each N (0: at least 64 MB moved)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    bw = copy_gbps()
    d = ROOT / ".devcarry" / "rows"
    names = sorted(p.name for p in d.iterdir() if p.is_dir())
    results = {1: [], 2: []}
    for name in args.ops.split(","):
        dtype = OPS[name]
        graphs = {w: harness.Graph(d / w / f"libsweep_{name}.so", d / w / f"sweep_{name}.h") for w in names
                  if (d / w / f"libsweep_{name}.so").exists()}  # a folder may vary some ops only
        size = torch.tensor([], dtype=dtype).element_size()
        for n, r in [(n, r or max(4, (64 << 20) // (2 * n * size)))
                     for n in map(int, args.ns.split(",")) for r in map(int, args.rows.split(","))]:
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
                print(f"run{run} {name} N={n} R={r}: torch.compile {row['compile_us']:.2f} us; " +
                      "; ".join(f"{w} {row[w + '_us']:.2f} us {row[w]:.3f}x ({row[w + '_of_copy_bw']:.2f} bw)"
                                for w in graphs), flush=True)
    for run, rows in results.items():
        (args.out / f"run{run}.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "copy_GBps": bw,
                                                             "variants": names, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
