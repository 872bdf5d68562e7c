"""Where narrow.py's non-finite outputs at 4096 x 4096 x 14336 come from: the same graph and
inputs, checking the inputs and outputs after each step (a run, a CUDA-graph capture and
replay of it, cuBLAS's beside it).

    HDS_EMITTED_DIR=... python3 nan_check.py
"""
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "tests" / "gpu"), str(ROOT / "bench")]
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402


def bad(t):
    return int((~torch.isfinite(t)).sum())


def main():
    g = harness.build_graph(HERE / "narrow_after.hds")
    for m, k, n in [(4096, 4096, 14336), (4096, 4096, 8192), (2048, 4096, 14336), (4096, 4096, 14336)]:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / math.sqrt(k)
        out = torch.zeros(m, n, device="cuda", dtype=torch.float16)
        sizes = {"M": m, "K": k, "N": n}
        ws = g.workspace(sizes)
        print(f"{m}x{k}x{n}: inputs non-finite a {bad(a)} b {bad(b)}", flush=True)
        e = g.run({"a": a, "b": b, "out": out}, sizes, ws, 0)
        torch.cuda.synchronize()
        print(f"  plain run: err {e}, out non-finite {bad(out)}, a {bad(a)}, b {bad(b)}", flush=True)
        c = torch.matmul(a, b)
        torch.cuda.synchronize()
        print(f"  cuBLAS: non-finite {bad(c)}; max |out - c| {float((out.float() - c.float()).abs().max()):.3g}",
              flush=True)
        t = graphs_ms({"hds": lambda s: g.run({"a": a, "b": b, "out": out}, sizes, ws, s)}, calls=10, reps=3)
        print(f"  after graph replay alone ({t['hds'] * 1e3:.0f} us): out {bad(out)} a {bad(a)} b {bad(b)}", flush=True)
        t = graphs_ms({"hds": lambda s: g.run({"a": a, "b": b, "out": out}, sizes, ws, s),
                       "cublas": lambda s: torch.matmul(a, b)}, calls=10, reps=3)
        print(f"  after replay beside cuBLAS: out {bad(out)} a {bad(a)} b {bad(b)}", flush=True)
        if bad(out):
            rows = (~torch.isfinite(out)).any(1).nonzero().flatten()
            cols = (~torch.isfinite(out)).any(0).nonzero().flatten()
            print(f"  non-finite rows {int(rows.min())}..{int(rows.max())} ({len(rows)}), cols {int(cols.min())}.."
                  f"{int(cols.max())} ({len(cols)})", flush=True)
            bad_a_rows = (~torch.isfinite(a)).any(1).nonzero().flatten()
            print(f"  a's non-finite rows: {len(bad_a_rows)}", flush=True)


if __name__ == "__main__":
    main()
