"""The sm_80 GEMM graphs of build.sh (f16 on the default target, bf16 with `target sm_80;`, every
size symbolic) with each stdlib set side by side with cuBLAS, in one process, alternating samples
(CUDA-graph replay), past M = 16 where 128 x 128 tiles are few. On the GPU machine:

    python3 bench/results/2026-12-01-h200-mma-split/run.py --out DIR [--build SET]
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

TAG = ROOT / ".devcarry" / "mmasplit"
SRC = {"f16_default": ROOT / "bench" / "sweep" / "sweep_gemm_f16_default.hds",
       "bf16_sm80": ROOT / ".devcarry" / "mmasplit-graphs" / "sweep_gemm_bf16_sm80.hds"}
KN = [(4096, 4096), (4096, 11008), (11008, 4096), (4096, 1024), (1024, 4096), (14336, 4096)]
MS = [1, 2, 17, 32, 64, 77, 128, 200, 256, 384, 512, 1024]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
ap.add_argument("--quick", action="store_true", help="bf16 at two shapes only")
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
for name in SRC:
    dt = torch.bfloat16 if name.startswith("bf16") else torch.float16
    for k, n in KN if name == "f16_default" else KN[:2]:
        b = torch.randn(k, n, device="cuda", dtype=dt)
        for m in MS if name == "f16_default" else [64, 128, 256]:
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
            if m <= 2:  # the weight read as a fraction of copy bandwidth
                for st in sets:
                    row[f"{st}_of_copy_bw"] = k * n * b.element_size() / row[f"{st}_us"] / 1e3 / copy_gbps()
                print("  of copy bandwidth: " + " ".join(f"{st} {row[f'{st}_of_copy_bw']:.2f}" for st in sets), flush=True)
            rows.append(row)
write_rows(args.out / "gemm.json", rows)
