"""ResNet-18's convolutions at batch 32 and 1 (.devcarry/convb32/convs, ReLU after), as build.sh emitted
them with each stdlib, side by side with torch eager (cuDNN, NCHW) in one process, alternating
samples, CUDA-graph replay of ten calls; two runs. On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-28-h100-conv-b32/run.py --out DIR [NAME ...]

`--build SET` only builds SET's graphs (nvcc, in parallel; run.sh starts one such process per set
first); `--prof` runs each set's graphs twice between cudaProfilerStart/Stop (Nsight Compute).
"""
import argparse
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
from stdlib_sets import build_set, profile_points, resnet18_convs, set_points, time_row, write_rows  # noqa: E402

TAG = ROOT / ".devcarry" / "convb32"
SETS = os.environ.get("SETS", (TAG / "sets").read_text()).split()
# name: C, O, H, stride, k (bench/resnet18_convs.txt)
SHAPES = resnet18_convs()


def points(name):
    """{set: Point} for convolution `name` (NAME_b1: at batch 1) with its inputs, and the eager function."""
    c, o, h, s, k = SHAPES[name.removesuffix("_b1")]
    x = torch.randn(1 if name.endswith("_b1") else 32, c, h, h, device="cuda", dtype=torch.float16)
    w = torch.randn(o, c, k, k, device="cuda", dtype=torch.float16) / (k * c ** 0.5)

    def eager():
        return F.relu(F.conv2d(x, w, stride=s, padding=k // 2))
    return set_points(TAG, SETS, TAG / "convs" / f"conv_{name}.hds", {"x": x, "w": w}, eager()), eager


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--build")
    ap.add_argument("--prof", action="store_true")
    ap.add_argument("names", nargs="*", default=list(SHAPES))
    args = ap.parse_args()
    if args.build:
        build_set(TAG, args.build, [TAG / "convs" / f"conv_{n}.hds" for n in args.names])
        return
    if args.prof:
        profile_points([p for name in args.names for p in points(name)[0].values()])
        return
    rows = []
    for run in (1, 2):
        for name in args.names:
            pts, eager = points(name)
            fns = {"eager": lambda st: eager(), **{st: p.run for st, p in pts.items()}}
            rows.append(time_row({"run": run, "conv": name}, fns, ("eager",)))
    write_rows(args.out / "convs.json", rows)


if __name__ == "__main__":
    main()
