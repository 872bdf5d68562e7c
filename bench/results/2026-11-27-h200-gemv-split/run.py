"""Decode GEMMs where b's rows are not 16-byte multiples (M <= 2, K or N odd), side by side with
cuBLAS (torch.matmul) in one process, alternating samples, CUDA-graph replay: the sweep's GEMM
graphs (every size symbolic; sm_90a, and the default target sm_80) as build.sh emits them with
nn.hds's gemv_split (`new`) and without it (`old`: matmul_gemv). On the GPU machine, with
.devcarry carried:

    python3 bench/results/2026-11-27-h200-gemv-split/run.py --out DIR
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, copy_gbps, rel_err  # noqa: E402

SETS = (ROOT / ".devcarry" / "gemvsplit" / "sets").read_text().split()
F32_SHAPES = [(1, 4096, 4096), (2, 4096, 4096), (1, 4096, 11008), (1, 11008, 4096), (2, 4096, 11008),
              (1, 2048, 2048), (1, 4095, 4097)]
SHAPES = [(1, 4095, 4097), (2, 4095, 4097), (1, 4097, 11007), (1, 11007, 4097), (1, 1000, 1003), (2, 517, 264),
          (1, 4095, 77), (1, 4095, 1001), (1, 14335, 4095), (1, 4096, 4097), (1, 4095, 4096)]


def graphs(name):
    out = {}
    for s in SETS:
        os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "gemvsplit" / s)
        out[s] = harness.build_graph(ROOT / "bench" / "sweep" / f"{name}.hds")
    return out


def point(gs, name, dtype, m, k, n, run):
    a = torch.randn(m, k, device="cuda", dtype=dtype)
    b = torch.randn(k, n, device="cuda", dtype=dtype) / k ** 0.5
    ref = a.double() @ b.double()
    fns = {"cublas": lambda s: a @ b}
    for s, graph in gs.items():
        out = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
        p = Point(graph, {"a": a, "b": b, "out": out}, {"M": m, "K": k, "N": n})
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < 1e-2, (s, name, m, k, n, err)
        fns[s] = p.run
    t = graphs_ms(fns, calls=10, reps=15)
    bw = b.numel() * b.element_size()
    row = {"graph": name, "M": m, "K": k, "N": n, "run": run, **{f"{x}_us": y * 1e3 for x, y in t.items()}}
    row |= {f"{s}_ratio": t["cublas"] / t[s] for s in SETS}
    row |= {f"{x}_of_copy_bw": bw / (y * 1e-3) / 1e9 / copy_gbps() for x, y in t.items()}
    print(f"run{run} {name} M={m} K={k} N={n}: cublas {t['cublas'] * 1e3:.1f} us; " + " ".join(
        f"{s} {row[s + '_ratio']:.2f}x ({row[s + '_of_copy_bw']:.2f} BW)" for s in SETS), flush=True)
    return row


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--f32", action="store_true", help="the f32 sweep graph instead (sets old, f32)")
    args = ap.parse_args()
    plans = [("sweep_gemm_f16", torch.float16, SHAPES), ("sweep_gemm_bf16", torch.bfloat16, SHAPES[:4]),
             ("sweep_gemm_f16_default", torch.float16, SHAPES[:4])]
    if args.f32:
        torch.backends.cuda.matmul.allow_tf32 = False
        plans = [("sweep_gemm_f32", torch.float32, F32_SHAPES)]
    gs = {name: graphs(name) for name, _, _ in plans}
    rows = []
    for run in (1, 2):
        for name, dtype, shapes in plans:
            for m, k, n in shapes:
                rows.append(point(gs[name], name, dtype, m, k, n, run))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / ("gemv_split_f32.json" if args.f32 else "gemv_split.json")).write_text(json.dumps(rows, indent=1))
