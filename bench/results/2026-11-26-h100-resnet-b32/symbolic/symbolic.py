"""convs.hds's graphs built with the stdlib before (d3fcd3b) and after this folder's change, timed
side by side (CUDA-graph replay, alternating), each checked against torch first. From the
repository root on the GPU, with .devcarry/resnet/sym carried (built as the README says):

    python3 bench/results/2026-11-26-h100-resnet-b32/symbolic/symbolic.py
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

LIB = ROOT / ".devcarry" / "resnet" / "sym"
CASES = [("all_symbolic", 32, 64, 56, 56, 64), ("all_symbolic", 32, 128, 28, 28, 128),
         ("all_symbolic", 32, 256, 14, 14, 256), ("all_symbolic", 32, 512, 7, 7, 512),
         ("all_symbolic", 1, 64, 56, 56, 64), ("all_symbolic", 8, 96, 30, 30, 80),
         ("odd_channels", 32, 37, 19, 23, 70), ("odd_channels", 1, 37, 19, 23, 70)]


def main():
    graphs = {v: {g: harness.Graph(LIB / v / f"lib{g}.so", LIB / v / f"{g}.h") for g in ("all_symbolic", "odd_channels")}
              for v in ("old", "new")}
    for run in (1, 2):
        for g, n, c, h, w, o in CASES:
            x = torch.randn(n, c, h, w, device="cuda", dtype=torch.half)
            wt = torch.randn(o, c, 3, 3, device="cuda", dtype=torch.half) / (9 * c) ** 0.5
            res = torch.randn(n, o, h, w, device="cuda", dtype=torch.half)
            ref = F.relu(F.conv2d(x.float(), wt.float(), padding=1) + res.float())
            sizes = {"N": n, "C": c, "H": h, "W": w, "O": o}
            fns = {}
            for v in ("old", "new"):
                gr = graphs[v][g]
                out = torch.empty(n, o, h, w, device="cuda", dtype=torch.half)
                ts = {"x": x, "w": wt, "res": res, "out": out}
                ws = gr.workspace(sizes)
                assert gr.run(ts, sizes, ws) == 0
                torch.cuda.synchronize()
                err = float((out.float() - ref).norm() / ref.norm())
                assert err < 2e-3, (v, g, n, c, h, w, o, err)
                fns[v] = lambda s, gr=gr, ts=ts, ws=ws: gr.run(ts, sizes, ws, s)
            fns["cudnn"] = lambda s: F.relu(F.conv2d(x, wt, padding=1) + res)
            t = graphs_ms(fns, calls=10, reps=15)
            print(f"run{run} {g} N={n} C={c} H={h} W={w} O={o}: old {t['old'] * 1e3:.1f} us, new {t['new'] * 1e3:.1f} us "
                  f"(new/old speed {t['old'] / t['new']:.2f}x), cuDNN+torch {t['cudnn'] * 1e3:.1f} us", flush=True)


if __name__ == "__main__":
    main()
