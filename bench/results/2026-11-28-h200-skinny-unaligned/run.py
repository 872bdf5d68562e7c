"""The GEMM sweep graphs (bench/sweep/sweep_gemm_*.hds, every size symbolic) with each stdlib set
of build.sh side by side with cuBLAS, in one process, alternating samples (CUDA-graph replay), at
M <= 16 where K or N is not a multiple of 8; the weight read as a fraction of copy bandwidth.
On the GPU machine:

    python3 bench/results/2026-11-28-h200-skinny-unaligned/run.py --out DIR [--build SET] [--tag TAG] [--ms M...]
        [--kn KxN...] [--graphs NAME...]

--tag: the sets of another build.sh (.devcarry/TAG; ../2026-11-28-h200-gemv-split-blocks uses it
with --tag gemv --ms 1 2); --kn, --graphs: other shapes (every graph at each), other graphs of
f16, bf16, f16_default (../2026-12-03-h200-lm-head: vocabulary projections).
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

SRC = {name: ROOT / "bench" / "sweep" / f"sweep_gemm_{name}.hds" for name in ("f16", "bf16", "f16_default")}
KN = [(4095, 4097), (4096, 4097), (4095, 4096), (11007, 4097), (4097, 11007), (1023, 1025)]

ap = argparse.ArgumentParser()
ap.add_argument("--out", type=Path, required=True)
ap.add_argument("--build")
ap.add_argument("--tag", default="skinny")
ap.add_argument("--ms", type=int, nargs="*", default=[1, 2, 3, 4, 8, 16])
ap.add_argument("--kn", nargs="*")
ap.add_argument("--graphs", nargs="*")
args = ap.parse_args()
if args.graphs:
    SRC = {name: SRC[name] for name in args.graphs}
TAG, MS = ROOT / ".devcarry" / args.tag, args.ms
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
    dt = torch.bfloat16 if name == "bf16" else torch.float16
    kns = [tuple(int(v) for v in kn.split("x")) for kn in args.kn] if args.kn else None
    for k, n in kns or (KN if name == "f16" else KN[:1] + KN[4:5]):
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
