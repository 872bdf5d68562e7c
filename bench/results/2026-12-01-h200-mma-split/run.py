"""The sm_80 GEMM graphs of build.sh (f16 on the default target, bf16 with `target sm_80;`, every
size symbolic) with each stdlib set side by side with cuBLAS, in one process, alternating samples
(CUDA-graph replay), past M = 16 where 128 x 128 tiles are few. On the GPU machine:

    python3 bench/results/2026-12-01-h200-mma-split/run.py --out DIR [--build SET] [--ms M...] [--kn KxN...]

(calls 3 and 4: final.sh says the arguments)
"""
import argparse
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import copy_gbps  # noqa: E402
from stdlib_sets import build_set, set_points, time_row, write_rows  # noqa: E402

TAG = ROOT / ".devcarry" / "mmasplit"
SRC = {"f16_default": ROOT / "bench" / "sweep" / "sweep_gemm_f16_default.hds",
       "bf16_sm80": ROOT / ".devcarry" / "mmasplit-graphs" / "sweep_gemm_bf16_sm80.hds"}
KN = [(4096, 4096), (4096, 11008), (11008, 4096), (4096, 1024), (1024, 4096), (14336, 4096)]
MS = [1, 2, 17, 32, 64, 77, 128, 200, 256, 384, 512, 1024]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
ap.add_argument("--ms", type=int, nargs="*", default=MS)
ap.add_argument("--kn", nargs="*", default=[f"{k}x{n}" for k, n in KN])
ap.add_argument("--bf16-ms", type=int, nargs="*", default=[64, 128, 256], help="bf16 at the first two K x N")
args = ap.parse_args()
KN = [tuple(int(v) for v in kn.split("x")) for kn in args.kn]
sets = (TAG / "sets").read_text().split()
if args.build:
    build_set(TAG, args.build, list(SRC.values()))
    sys.exit()
rows = []
for name in SRC:
    dt = torch.bfloat16 if name.startswith("bf16") else torch.float16
    for k, n in KN if name == "f16_default" else KN[:2]:
        b = torch.randn(k, n, device="cuda", dtype=dt)
        for m in args.ms if name == "f16_default" else args.bf16_ms:
            a = torch.randn(m, k, device="cuda", dtype=dt)
            ref = (a.double() @ b.double()).to(dt)
            points = set_points(TAG, sets, SRC[name], {"a": a, "b": b}, ref, 1e-2, {"M": m, "K": k, "N": n})
            fns = {"cublas": lambda s: torch.matmul(a, b), **{st: p.run for st, p in points.items()}}
            row = time_row({"graph": name, "M": m, "K": k, "N": n}, fns, ("cublas",))
            if m <= 2:  # the weight read as a fraction of copy bandwidth
                for st in sets:
                    row[f"{st}_of_copy_bw"] = k * n * b.element_size() / row[f"{st}_us"] / 1e3 / copy_gbps()
                print("  of copy bandwidth: " + " ".join(f"{st} {row[f'{st}_of_copy_bw']:.2f}" for st in sets), flush=True)
            rows.append(row)
write_rows(args.out / "gemm.json", rows)
