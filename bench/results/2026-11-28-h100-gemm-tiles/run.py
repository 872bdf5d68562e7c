"""The Llama layers' GEMMs (.devcarry/gemmtiles/graphs) as build.sh emitted them with each stdlib,
side by side in one process, alternating samples, CUDA-graph replay of ten calls, two runs, with
cuBLAS on the same layout (`nn`: torch.mm(a, b), b [K, N]) and on nn.Linear's (`tn`:
F.linear(a, w), w [N, K], what torch.compile runs). On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-28-h100-gemm-tiles/run.py --out DIR [NAME ...]

`--build SET` only builds SET's graphs (nvcc, in parallel); run.sh starts one such process per set.
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, rel_err  # noqa: E402

TAG = ROOT / ".devcarry" / "gemmtiles"
SETS = os.environ.get("SETS", (TAG / "sets").read_text()).split()
SHAPES = {"gate1k": (1024, 4096, 14336), "down1k": (1024, 14336, 4096), "q1k": (1024, 4096, 4096),
          "kv1k": (1024, 4096, 1024), "gate512": (512, 4096, 11008), "down512": (512, 11008, 4096)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--build")
    ap.add_argument("names", nargs="*", default=list(SHAPES))
    args = ap.parse_args()
    if args.build:
        from concurrent.futures import ThreadPoolExecutor
        os.environ["HDS_EMITTED_DIR"] = str(TAG / args.build)
        with ThreadPoolExecutor(3) as pool:
            list(pool.map(lambda n: harness.build_graph(TAG / "graphs" / f"mm_{n}.hds"), args.names))
        return
    rows = []
    for run in (1, 2):
        for name in args.names:
            m, k, n = SHAPES[name]
            a = torch.randn(m, k, device="cuda", dtype=torch.float16)
            w = torch.randn(n, k, device="cuda", dtype=torch.float16) / k ** 0.5
            b = w.t().contiguous()
            ref = a @ b
            fns = {"nn": lambda s: torch.mm(a, b), "tn": lambda s: F.linear(a, w)}
            for st in SETS:
                os.environ["HDS_EMITTED_DIR"] = str(TAG / st)
                g = harness.build_graph(TAG / "graphs" / f"mm_{name}.hds")
                out = torch.full_like(ref, float("nan"))
                p = Point(g, {"a": a, "b": b, "out": out}, {})
                p.run(torch.cuda.current_stream().cuda_stream)
                torch.cuda.synchronize()
                assert rel_err(out, ref) < 2e-3, (name, st)
                fns[st] = p.run
            t = graphs_ms(fns, calls=10, reps=15)
            tf = 2 * m * k * n / 1e9
            rows.append({"gemm": name, "run": run, **{f"{x}_us": v * 1e3 for x, v in t.items()}})
            print(f"run{run} {name}: cuBLAS nn {t['nn'] * 1e3:.1f} tn {t['tn'] * 1e3:.1f} us ({tf / t['tn']:.0f} TFLOP/s); " +
                  " ".join(f"{x} {t[x] * 1e3:.1f} ({t['tn'] / t[x]:.2f}x)" for x in SETS), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "gemms.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
