"""Smaller wgmma tiles where the 128 x 128 / 128 x 256 ones would number fewer than 100 (issue
23/25): the sweep's f16 GEMM graph (symbolic sizes, its dispatch) emitted with the stdlib before
and after the change, timed side by side with cuBLAS in one process (CUDA-graph replay).

    HDS_EMITTED_DIR=... python3 narrow.py OUT_DIR [waves|split [INDEX...]]   (narrow_before.cu / narrow_after.cu there)

`waves`: the shapes of 2026-11-26-h100-tile-waves instead (the tile chosen by waves of 132);
`split`: 64 < M <= 256, where K may now be split over a cluster.
"""
import json
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "tests" / "gpu"), str(ROOT / "bench")]
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

SHAPES = [  # (M, K, N): GPT-2 small at 1k tokens, Llama-3 8B's K/V projections, and unchanged ones
    (1024, 768, 2304), (1024, 768, 768), (1024, 768, 3072), (1024, 3072, 768), (1024, 4096, 1024),
    (2048, 4096, 1024), (300, 4096, 768), (600, 4096, 1024), (4096, 768, 768),
    (1024, 4096, 4096), (2048, 4096, 11008), (512, 4096, 4096), (8192, 4096, 4096)]
WAVES = [  # LLM projections whose tile counts fall between waves, and the sweep's shapes past M = 256
    (1024, 768, 2304), (1024, 768, 3072), (1024, 4096, 14336), (1024, 14336, 4096), (2048, 4096, 14336),
    (1024, 4096, 6144), (4096, 4096, 14336), (512, 4096, 14336), (512, 4096, 11008), (2048, 4096, 4096),
    (2048, 4096, 11008), (2048, 11008, 4096), (2048, 4095, 4097), (8192, 4096, 4096), (8192, 4096, 11008),
    (8192, 4095, 4097)]
SMALL = [(m, 4096, n) for m in (77, 128, 200, 256, 384, 2048) for n in (11008, 4096, 768, 14336)]
SPLIT = [(m, k, n) for m in (65, 77, 100, 128, 160, 200, 256)  # K split over a cluster past M = 64
         for k, n in ((4096, 4096), (11008, 4096), (4096, 11008), (4095, 4097), (1024, 2048))]


def main():
    out = Path(sys.argv[1])
    graphs = {w: harness.build_graph(HERE / f"narrow_{w}.hds") for w in ("before", "after")}
    rows = []
    shapes = {"waves": WAVES, "split": SPLIT, "small": SMALL}.get(sys.argv[2] if sys.argv[2:] else "", SHAPES)
    if sys.argv[3:]:  # only these shapes, by index (chasing the corruption noted in the README)
        shapes = [shapes[int(i)] for i in sys.argv[3:]]
    for m, k, n in shapes:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / math.sqrt(k)
        outs = {w: torch.empty(m, n, device="cuda", dtype=torch.float16) for w in graphs}
        sizes = {"M": m, "K": k, "N": n}
        ws = {w: g.workspace(sizes) for w, g in graphs.items()}
        fns = {w: (lambda s, w=w: graphs[w].run({"a": a, "b": b, "out": outs[w]}, sizes, ws[w], s)) for w in graphs}
        fns["cublas"] = lambda s: torch.matmul(a, b)
        inputs_ok = bool(torch.isfinite(a).all()) and bool(torch.isfinite(b).all())
        t = graphs_ms(fns, calls=10, reps=15)
        if inputs_ok and not (bool(torch.isfinite(a).all()) and bool(torch.isfinite(b).all())):
            print(f"  the inputs became non-finite during the timing: a {int((~torch.isfinite(a)).sum())}, "
                  f"b {int((~torch.isfinite(b)).sum())}", flush=True)
        ref = torch.matmul(a.double(), b.double())
        err = max(float((outs[w].double() - ref).norm() / ref.norm()) for w in graphs)
        nonfinite = {w: int((~torch.isfinite(outs[w])).sum()) for w in graphs}
        if any(nonfinite.values()):  # run once more outside the timing: is it the kernel?
            for w, g in graphs.items():
                outs[w].fill_(0)
                g.run({"a": a, "b": b, "out": outs[w]}, sizes, ws[w], 0)
            torch.cuda.synchronize()
            nonfinite["again"] = {w: int((~torch.isfinite(outs[w])).sum()) for w in graphs}
            print(f"  non-finite outputs after timing: {nonfinite}", flush=True)
        row = {"M": m, "K": k, "N": n, **{f"{w}_us": t[w] * 1e3 for w in t}, "nonfinite": nonfinite,
               "before_vs_cublas": t["cublas"] / t["before"], "after_vs_cublas": t["cublas"] / t["after"],
               "speedup": t["before"] / t["after"], "rel_err": err}
        rows.append(row)
        print(f"M={m} K={k} N={n}: before {row['before_vs_cublas']:.2f}x after {row['after_vs_cublas']:.2f}x cuBLAS "
              f"({row['speedup']:.2f}x faster) err {err:.1e}", flush=True)
    (out / "narrow.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
