"""Prefill on the sm_80 attention schedule (attention_mma.hds) side by side with SDPA's flash
backend (FlashAttention-2) and its default, one process, alternating samples, CUDA-graph replay:
the harness's sweep graphs as emitted by build.sh before (`old`), after (`new`) and variants. On the GPU
machine, with .devcarry/rows32 carried:

    python3 bench/results/2026-11-27-h200-sm80-rows32/run.py --out DIR
"""
import argparse
import json
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, rel_err  # noqa: E402

SETS = (ROOT / ".devcarry" / "rows32" / "sets").read_text().split()
SHAPES = [(b, 2048 // d, n) for d in (64, 128) for b, n in ((32, 512), (8, 2048), (2, 8192), (1, 1000))]


def main(out: Path):
    rows = []
    for run in (1, 2):
        for d in (64, 128):
            gs = {}
            for s in SETS:
                os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "rows32" / s)
                gs[s] = harness.build_graph(ROOT / "bench" / "sweep" / f"sweep_attention_d{d}_sm80.hds")
            for b, h, n in [x for x in SHAPES if x[1] == 2048 // d]:
                q, k, v = (torch.randn(b, h, n, d, device="cuda", dtype=torch.float16) for _ in range(3))

                def flash():
                    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                        return F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5)

                def sdpa():
                    return F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5)
                ref = sdpa()
                fns = {"flash": lambda st: flash(), "sdpa": lambda st: sdpa()}
                for name, graph in gs.items():
                    o = torch.full_like(q, float("nan"))
                    p = Point(graph, {"q": q, "k": k, "v": v, "out": o}, {"B": b, "H": h, "L": n, "M": n})
                    p.run(torch.cuda.current_stream().cuda_stream)
                    torch.cuda.synchronize()
                    assert rel_err(o, ref) < 2e-3, (name, d, b, n)
                    fns[name] = p.run
                t = graphs_ms(fns, calls=10, reps=15)
                flops = 4.0 * b * h * n * n * d
                row = {"D": d, "B": b, "H": h, "L": n, "run": run, **{f"{x}_us": y * 1e3 for x, y in t.items()}}
                rows.append(row)
                print(f"run{run} D={d} B={b} H={h} L=S={n}: flash {flops / t['flash'] / 1e9:.0f} TFLOP/s, sdpa "
                      f"{flops / t['sdpa'] / 1e9:.0f}; " + " ".join(
                          f"{s} {t['flash'] / t[s]:.2f}x flash ({flops / t[s] / 1e9:.0f})" for s in SETS), flush=True)
    out.mkdir(parents=True, exist_ok=True)
    (out / "rows32.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    main(ap.parse_args().out)
