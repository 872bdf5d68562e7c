"""ResNet-18's convolutions (.devcarry/convnhwc/convs, ReLU after; build.sh) side by side in one
process, alternating samples, CUDA-graph replay of ten calls, two runs: cuDNN on channels-last
tensors (what torch.compile runs), cuDNN on NCHW (eager), the tree's conv2d on NCHW (`nchw`) and
conv2d_nhwc with each stdlib set. On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-28-h100-conv-nhwc/run.py --out DIR [NAME ...]

`--build SET` only builds SET's graphs (nvcc; run.sh starts one such process per set first):
every set the NHWC ones at batch 32, `new` also those at batch 1 and the NCHW ones.
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
from stdlib_sets import build_set, resnet18_convs, set_points, time_row, write_rows  # noqa: E402

TAG = ROOT / ".devcarry" / "convnhwc"
SETS = os.environ.get("SETS", (TAG / "sets").read_text()).split()
# name: C, O, H, stride, k (bench/resnet18_convs.txt; not the stem, whose C = 3 conv2d_nhwc does not take)
SHAPES = {n: s for n, s in resnet18_convs().items() if n != "stem"}
NAMES = list(SHAPES) + [f"{n}_b1" for n, s in SHAPES.items() if s[4] == 3]


def sets_of(name):
    return SETS if not name.endswith("_b1") else ["new"]


def row(name):
    c, o, h, s, k = SHAPES[name.removesuffix("_b1")]
    x = torch.randn(1 if name.endswith("_b1") else 32, c, h, h, device="cuda", dtype=torch.float16)
    w = torch.randn(o, c, k, k, device="cuda", dtype=torch.float16) / (k * c ** 0.5)
    xc, wc = x.to(memory_format=torch.channels_last), w.to(memory_format=torch.channels_last)
    xn, wn = x.permute(0, 2, 3, 1).contiguous(), w.permute(0, 2, 3, 1).contiguous()

    def cudnn():
        return F.relu(F.conv2d(x, w, stride=s, padding=k // 2))

    def cudnn_cl():
        return F.relu(F.conv2d(xc, wc, stride=s, padding=k // 2))
    ref = cudnn()
    nchw = set_points(TAG, ["new"], TAG / "convs" / f"conv_{name}.hds", {"x": x, "w": w}, ref)["new"]
    nhwc = set_points(TAG, sets_of(name), TAG / "convs" / f"nhwc_{name}.hds", {"x": xn, "w": wn},
                      ref.permute(0, 2, 3, 1).contiguous())
    return {"cudnn_cl": lambda st: cudnn_cl(), "cudnn": lambda st: cudnn(), "nchw": nchw.run,
            **{st: p.run for st, p in nhwc.items()}}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--build")
    ap.add_argument("names", nargs="*", default=NAMES)
    args = ap.parse_args()
    if args.build:
        srcs = [TAG / "convs" / f"nhwc_{n}.hds" for n in args.names if args.build in sets_of(n)]
        if args.build == "new":
            srcs += [TAG / "convs" / f"conv_{n}.hds" for n in args.names]
        build_set(TAG, args.build, srcs)
        return
    rows = []
    for run in (1, 2):
        for name in args.names:
            rows.append(time_row({"run": run, "conv": name}, row(name), ("cudnn_cl", "cudnn")))
    write_rows(args.out / "convs.json", rows)


if __name__ == "__main__":
    main()
