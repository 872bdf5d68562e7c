"""f32 GEMM with symbolic sizes (bench/sweep/sweep_gemm_f32.hds, sm_90a) with the stdlib of this
commit (after) and of the commit before it (before), side by side with cuBLAS fp32 (no TF32) in one
process. The two graphs' .cu are emitted beforehand (emit.sh) into .devcarry/DIR/{after,before}.

    python3 bench/results/2026-11-26-h100-f32-split/run.py --out DIR [--dir f32-split] [--m 32,77,...]
        (on the GPU machine; 2026-11-26-h100-f32-split4 ran it with --dir f32-split4
         --m 32,64,77,96,128,200,256,512,1024,2048,4096)
"""
import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, rel_err  # noqa: E402


def build(folder: str, which: str) -> harness.Graph:
    d = ROOT / ".devcarry" / folder / which
    so = d / "libsweep_gemm_f32.so"
    if not so.exists():
        subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"),
                        "-gencode", "arch=compute_90a,code=sm_90a", str(d / "sweep_gemm_f32.cu"), "-o", str(so)],
                       check=True)
    return harness.Graph(so, d / "sweep_gemm_f32.h")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--dir", default="f32-split", help="the folder under .devcarry emit.sh wrote")
    ap.add_argument("--m", default="32,77,128,256,512,1024,2048,4096", help="the rows, comma-separated")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    graphs = {w: build(args.dir, w) for w in ("after", "before")}
    args.out.mkdir(parents=True, exist_ok=True)
    for run in (1, 2):
        rows = []
        for k, n in ((4096, 4096), (1000, 1003), (4096, 11008)):
            b = torch.randn(k, n, device="cuda") / math.sqrt(k)
            for m in map(int, args.m.split(",")):
                a = torch.randn(m, k, device="cuda")
                outs = {w: torch.empty(m, n, device="cuda") for w in graphs}
                pts = {w: Point(g, {"a": a, "b": b, "out": outs[w]}, {"M": m, "K": k, "N": n}) for w, g in graphs.items()}
                fns = {w: p.run for w, p in pts.items()} | {"cublas": lambda s: torch.matmul(a, b)}
                t = graphs_ms(fns, calls=10, reps=15)
                ref = torch.matmul(a.double(), b.double())
                row = {"M": m, "K": k, "N": n, "cublas_us": t["cublas"] * 1e3}
                for w in graphs:
                    row[f"{w}_ratio"] = t["cublas"] / t[w]
                    row[f"{w}_err"] = rel_err(outs[w], ref)
                rows.append(row)
                print(f"run{run} M={m} K={k} N={n}: after {row['after_ratio']:.2f}x cuBLAS, "
                      f"before {row['before_ratio']:.2f}x", flush=True)
        gm = {w: math.exp(sum(math.log(r[f"{w}_ratio"]) for r in rows) / len(rows)) for w in graphs}
        print(f"run{run} geomean: after {gm['after']:.3f}, before {gm['before']:.3f}", flush=True)
        (args.out / f"run{run}.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows},
                                                            indent=1))


if __name__ == "__main__":
    main()
