"""Decoding (one query per head) side by side with SDPA (its default backend; grouped heads by
enable_gqa) in one process, alternating samples, CUDA-graph replay, twice: the sweep's decoding
graphs as build.sh emitted them with each stdlib set; and a copy of k and v by torch at each
shape (what reading them once can take at that size: the floor of the fraction of copy
bandwidth). On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-12-02-h200-decode-tma/run.py --out DIR [--tag dectma] [--build SET]

(--tag: the sets' folder under .devcarry, which a later folder's build.sh may name; --build: nvcc
on set SET's graphs alone, as bench/device_env.sh's build_sets runs it.)
"""
import argparse
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "bench"))
from bench_sweep import copy_gbps  # noqa: E402
from stdlib_sets import build_set, set_points, time_row, write_rows  # noqa: E402

# (D, B, H, G, S): 8:1 groups (the goal's rows), then heads of their own on sm_80
GQA = [(d, b, 64, 8, s) for d in (64, 128) for b, s in
       [(1, 1024), (1, 4096), (1, 8192), (1, 16384), (1, 32768), (2, 16384), (3, 16384), (4, 16384), (4, 4096)]]
SM80 = [(d, 1, 64, 64, s) for d in (64, 128) for s in (4096, 16384)]


def row(d, b, h, g, s, run, sm80):
    q = torch.randn(b, h, 1, d, device="cuda", dtype=torch.float16)
    k, v = (torch.randn(b, g, s, d, device="cuda", dtype=torch.float16) for _ in range(2))
    ref = F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5, enable_gqa=g != h)
    graph = ROOT / "bench" / "sweep" / f"sweep_attention_{'d' if sm80 else 'gqa_d'}{d}{'_sm80' if sm80 else ''}.hds"
    sizes = {"B": b, "H": h, "L": 1, "M": s} | ({} if sm80 else {"G": g})
    points = set_points(TAG, (TAG / "sets").read_text().split(), graph, {"q": q, "k": k, "v": v}, ref, sizes=sizes)
    kc, vc = torch.empty_like(k), torch.empty_like(v)

    def copy(st):
        kc.copy_(k)
        vc.copy_(v)
    fns = {"sdpa": lambda st: F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5, enable_gqa=g != h),
           "copy": copy, **{n: p.run for n, p in points.items()}}
    r = time_row({"D": d, "B": b, "H": h, "G": g, "S": s, "sm80": sm80, "run": run}, fns, ("sdpa", "copy"))
    kv = 2 * k.numel() * k.element_size()
    # of copy bandwidth: the bytes of k and v read once (the copy also writes them: 2x)
    r |= {f"{n}_of_copy_bw": kv * (2 if n == "copy" else 1) / r[f"{n}_us"] / 1e3 / copy_gbps() for n in fns}
    print("   of copy bandwidth: " + " ".join(f"{n} {r[f'{n}_of_copy_bw']:.2f}" for n in fns), flush=True)
    return r


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--tag", default="dectma")
    ap.add_argument("--build")
    args = ap.parse_args()
    TAG = ROOT / ".devcarry" / args.tag
    if args.build:
        build_set(TAG, args.build, [ROOT / "bench" / "sweep" / f"sweep_attention_{n}.hds"
                                    for n in ("gqa_d64", "gqa_d128", "d64_sm80", "d128_sm80")])
        sys.exit()
    rows = [row(*shape, run, False) for run in (1, 2) for shape in GQA]
    rows += [row(*shape, run, True) for run in (1, 2) for shape in SM80]
    write_rows(args.out / "decode.json", rows)
