"""Decoding (one query per head) side by side with SDPA (its default backend, grouped heads by
enable_gqa) in one process, alternating samples, CUDA-graph replay: the sweep's attention graphs
as emitted by build.sh with several stdlibs (old: clusters only; new: the split over blocks
from 4097 keys; variants of it, see build.sh). On the GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-decode-split/run_split.py --out DIR
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, copy_gbps, rel_err  # noqa: E402

SETS = (ROOT / ".devcarry" / "decsplit" / "sets").read_text().split()
# (graph, D, B, H, G, S)
GQA = [(d, b, 64, 8, s) for d in (64, 128) for b, s in
       [(1, 2048), (1, 4096), (1, 8192), (1, 16384), (1, 32768), (2, 16384), (3, 16384), (4, 16384), (8, 16384),
        (2, 2048), (2, 4096), (4, 2048), (4, 4096)]]
MHA32 = [(d, 1, 32, 32, 16384) for d in (64, 128)]
SM80 = [(d, 1, 64, 64, s) for d in (64, 128) for s in (1024, 4096, 16384)]


def graphs(name):
    out = {}
    for s in SETS:
        os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "decsplit" / s)
        out[s] = harness.build_graph(ROOT / "bench" / "sweep" / f"sweep_attention_{name}.hds")
    return out


def point(gs, d, b, h, g, s, run, sm80):
    q = torch.randn(b, h, 1, d, device="cuda", dtype=torch.float16)
    k, v = (torch.randn(b, g, s, d, device="cuda", dtype=torch.float16) for _ in range(2))
    scale = d ** -0.5

    def sdpa():
        return F.scaled_dot_product_attention(q, k, v, scale=scale, enable_gqa=g != h)
    ref = sdpa()
    fns = {"sdpa": lambda st: sdpa()}
    for name, graph in gs.items():
        kk, vv = k, v
        sizes = {"B": b, "H": h, "L": 1, "M": s} | ({} if sm80 else {"G": g})
        out = torch.full_like(q, float("nan"))
        p = Point(graph, {"q": q, "k": kk, "v": vv, "out": out}, sizes)
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < 2e-3, (name, d, b, h, g, s, err)
        fns[name] = p.run
    t = graphs_ms(fns, calls=10, reps=15)
    kv = 2 * k.numel() * k.element_size()
    row = {"D": d, "B": b, "H": h, "G": g, "S": s, "sm80": sm80, "run": run,
           **{f"{x}_us": y * 1e3 for x, y in t.items()}}
    row |= {f"{x}_of_copy_bw": kv / y / 1e6 / copy_gbps() for x, y in t.items()}
    print(f"run{run} {'sm80 ' if sm80 else ''}D={d} B={b} H={h} G={g} S={s}: sdpa {t['sdpa'] * 1e3:.1f} us "
          f"({row['sdpa_of_copy_bw']:.2f} BW); " + " ".join(
              f"{x} {t['sdpa'] / t[x]:.2f}x ({row[x + '_of_copy_bw']:.2f})" for x in t if x != "sdpa"), flush=True)
    return row


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    gs = {n: graphs(n) for n in ("gqa_d64", "gqa_d128", "d64_sm80", "d128_sm80")}
    rows = []
    for run in (1, 2):
        for d, b, h, g, s in GQA + MHA32:
            rows.append(point(gs[f"gqa_d{d}"], d, b, h, g, s, run, False))
        for d, b, h, g, s in SM80:
            rows.append(point({k: v for k, v in gs[f"d{d}_sm80"].items() if k in ("old", "new")}, d, b, h, g, s, run, True))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "split.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))
