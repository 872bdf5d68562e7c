"""ResNet-18's 3 x 3 convolutions at batch 1 (convs/*.hds, ReLU after), as build.sh emitted
them with each stdlib, side by side with torch eager (cuDNN) in one process, alternating
samples, CUDA-graph replay of ten calls. On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-conv-split/run.py --out DIR
"""
import argparse
import json
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
from bench_core import graphs_ms  # noqa: E402
from stdlib_sets import set_points  # noqa: E402

SETS = (ROOT / ".devcarry" / "convsplit" / "sets").read_text().split()
SHAPES = [("c64", 64, 64, 56, 1), ("c64s2", 64, 128, 56, 2), ("c128", 128, 128, 28, 1),
          ("c128s2", 128, 256, 28, 2), ("c256", 256, 256, 14, 1), ("c256s2", 256, 512, 14, 2),
          ("c512", 512, 512, 7, 1)]


def point(name, c, o, h, s, run, k=3, here=HERE):
    """Convolution `name` (a k x k filter, padding k / 2: convs/conv_NAME.hds in `here`)."""
    x = torch.randn(1, c, h, h, device="cuda", dtype=torch.float16)
    w = torch.randn(o, c, k, k, device="cuda", dtype=torch.float16) / (k * c ** 0.5)

    def eager():
        return F.relu(F.conv2d(x, w, stride=s, padding=k // 2))
    ref = eager()
    fns = {"eager": lambda st: eager()}
    sets = [st for st in SETS if (ROOT / ".devcarry" / "convsplit" / st / f"conv_{name}.cu").exists()]
    # (a set whose stdlib could not build this convolution is left out)
    points = set_points(ROOT / ".devcarry" / "convsplit", sets, here / "convs" / f"conv_{name}.hds", {"x": x, "w": w}, ref)
    fns.update({st: p.run for st, p in points.items()})
    t = graphs_ms(fns, calls=10, reps=15)
    row = {"conv": name, "run": run, **{f"{x}_us": v * 1e3 for x, v in t.items()}}
    print(f"run{run} {name}: eager {t['eager'] * 1e3:.1f} us; " +
          " ".join(f"{x} {t[x] * 1e3:.1f} us ({t['eager'] / t[x]:.2f}x)" for x in sets), flush=True)
    return row


def main(shapes=SHAPES, k=3, here=HERE):
    """Every shape, two runs; convs.json into --out."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rows = [point(*sh, run, k, here) for run in (1, 2) for sh in shapes]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "convs.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
