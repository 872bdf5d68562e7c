"""ResNet-18's 1 x 1 stride-2 convolutions at batch 1 (convs/*.hds, ReLU after), as build.sh emitted
them with each stdlib, side by side with torch eager (cuDNN) in one process, alternating
samples, CUDA-graph replay of ten calls. On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-conv1x1-split/run.py --out DIR
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, rel_err  # noqa: E402

SETS = (ROOT / ".devcarry" / "convsplit" / "sets").read_text().split()
SHAPES = [("d64", 64, 128, 56, 2), ("d128", 128, 256, 28, 2), ("d256", 256, 512, 14, 2)]


def point(name, c, o, h, s, run):
    x = torch.randn(1, c, h, h, device="cuda", dtype=torch.float16)
    w = torch.randn(o, c, 1, 1, device="cuda", dtype=torch.float16) / c ** 0.5

    def eager():
        return F.relu(F.conv2d(x, w, stride=s))
    ref = eager()
    fns = {"eager": lambda st: eager()}
    sets = [st for st in SETS if (ROOT / ".devcarry" / "convsplit" / st / f"conv_{name}.cu").exists()]
    for st in sets:  # (a set whose stdlib could not build this convolution is left out)
        os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "convsplit" / st)
        g = harness.build_graph(HERE / "convs" / f"conv_{name}.hds")
        out = torch.full_like(ref, float("nan"))
        p = Point(g, {"x": x, "w": w, "out": out}, {})
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < 2e-3, (name, st, err)
        fns[st] = p.run
    t = graphs_ms(fns, calls=10, reps=15)
    row = {"conv": name, "run": run, **{f"{k}_us": v * 1e3 for k, v in t.items()}}
    print(f"run{run} {name}: eager {t['eager'] * 1e3:.1f} us; " +
          " ".join(f"{k} {t[k] * 1e3:.1f} us ({t['eager'] / t[k]:.2f}x)" for k in sets), flush=True)
    return row


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    rows = [point(*sh, run) for run in (1, 2) for sh in SHAPES]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "convs.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))
