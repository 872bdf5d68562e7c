"""The GEMM sweep graphs (bench/sweep/sweep_gemm_{f16,bf16}.hds, every size symbolic) with each
stdlib set of build.sh side by side with cuBLAS, in one process, alternating samples (CUDA-graph
replay), at decoding sizes (M <= 16): weights of Llama's down projections (K = 11008, 14336) and,
as controls, ones matmul_wgmma_swap does not split or that fit the 50 MB L2 (K = N = 4096). The
weight read as a fraction of copy bandwidth. On the GPU machine:

    python3 bench/results/2026-11-28-h200-decode-gemm-split/run.py --out DIR [--build SET]
"""
import argparse
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import Point, copy_gbps, rel_err  # noqa: E402
from stdlib_sets import build_set, time_row, write_rows  # noqa: E402
import harness  # noqa: E402

TAG = ROOT / ".devcarry" / "dgemm"
SRC = {name: ROOT / "bench" / "sweep" / f"sweep_gemm_{name}.hds" for name in ("f16", "bf16")}
KN = {"f16": [(11008, 4096), (14336, 4096), (8192, 4096), (11008, 2048), (4096, 4096), (4096, 11008)],
      "bf16": [(11008, 4096), (14336, 4096)]}
MS = [1, 4, 16]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
args = ap.parse_args()
sets = (TAG / "sets").read_text().split()
if args.build:
    build_set(TAG, args.build, list(SRC.values()))
    sys.exit()
graphs = {}
for st in sets:
    os.environ["HDS_EMITTED_DIR"] = str(TAG / st)
    graphs[st] = {name: harness.build_graph(src) for name, src in SRC.items()}
rows = []
for name, shapes in KN.items():
    dt = torch.bfloat16 if name == "bf16" else torch.float16
    for k, n in shapes:
        b = torch.randn(k, n, device="cuda", dtype=dt)
        for m in MS:
            a = torch.randn(m, k, device="cuda", dtype=dt)
            ref = a.double() @ b.double()
            fns = {"cublas": lambda s: torch.matmul(a, b)}
            for st in sets:
                out = torch.full((m, n), float("nan"), device="cuda", dtype=dt)
                p = Point(graphs[st][name], {"a": a, "b": b, "out": out}, {"M": m, "K": k, "N": n})
                p.run(torch.cuda.current_stream().cuda_stream)
                torch.cuda.synchronize()
                err = rel_err(out, ref)
                assert err < 1e-2, (st, name, m, k, n, err)
                fns[st] = p.run
            row = time_row({"graph": name, "M": m, "K": k, "N": n}, fns, ("cublas",))
            for st in sets:
                row[f"{st}_of_copy_bw"] = k * n * b.element_size() / row[f"{st}_us"] / 1e3 / copy_gbps()
            print("  of copy bandwidth: " + " ".join(f"{st} {row[f'{st}_of_copy_bw']:.2f}" for st in sets), flush=True)
            rows.append(row)
write_rows(args.out / "gemm.json", rows)
