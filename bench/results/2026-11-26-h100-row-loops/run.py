"""Rows of 16k to 128k values, symbolic N, sm_90a: a cluster of blocks per row (this tree) against a
block per row reading the row again for each pass (loops: no-clusters.patch), over row counts from 32
to 2048, side by side (CUDA-graph replay, alternating samples); torch eager beside them. After
../2026-11-26-h100-row-weights/build.sh clusters=... loops=... here:

    python3 bench/results/2026-11-26-h100-row-loops/run.py --out DIR   (on the GPU machine)
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
from bench_sweep import Point, rel_err, row_inputs, row_reference  # noqa: E402

OPS = {"softmax_f32": torch.float32, "layer_norm_f32": torch.float32, "rms_norm_f16": torch.float16}



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for run in (1, 2):
        rows = []
        for name, dtype in OPS.items():
            graphs = {w: harness.Graph(ROOT / ".devcarry" / "rows" / w / f"libsweep_{name}.so",
                                       ROOT / ".devcarry" / "rows" / w / f"sweep_{name}.h") for w in ("clusters", "loops")}
            for n in (16384, 32768, 65536, 128256):
                for r in (32, 65, 130, 264, 512, 1024, 2048):
                    if r * n * torch.tensor([], dtype=dtype).element_size() > (512 << 20):
                        continue
                    x = torch.randn(r, n, device="cuda", dtype=dtype)
                    g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
                    tensors = row_inputs(name, x, g, b)
                    outs = {w: torch.empty_like(x) for w in graphs}
                    pts = {w: Point(gr, tensors | {"out": outs[w]}, {"R": r, "N": n}) for w, gr in graphs.items()}
                    eager = row_reference(name, x, g, b)
                    fns = {w: p.run for w, p in pts.items()} | {"eager": lambda s: eager()}
                    t = graphs_ms(fns, calls=10, reps=15)
                    ref = eager()
                    row = {"op": name, "R": r, "N": n, "clusters_us": t["clusters"] * 1e3, "loops_us": t["loops"] * 1e3,
                           "eager_us": t["eager"] * 1e3, "loops_vs_clusters": t["clusters"] / t["loops"],
                           "err": max(rel_err(outs[w], ref) for w in graphs)}
                    rows.append(row)
                    print(f"run{run} {name} R={r} N={n}: clusters {row['clusters_us']:.1f} us, loops {row['loops_us']:.1f}"
                          f" ({row['loops_vs_clusters']:.2f}x), eager {row['eager_us']:.1f}, err {row['err']:.1e}", flush=True)
        (args.out / f"run{run}.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
