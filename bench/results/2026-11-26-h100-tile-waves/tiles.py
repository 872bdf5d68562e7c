"""Which wgmma block tile is fastest at which shape (issue 23: the tile choice of matmul's
schedules): each kernel of tiles.hds timed beside cuBLAS (CUDA-graph replay, one process),
f16, at LLM projection shapes whose tile counts fall between waves of 132.

    HDS_EMITTED_DIR=... python3 tiles.py OUT_DIR
"""
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "tests" / "gpu"), str(ROOT / "bench")]
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

KERNELS = ["t128x256", "t128x256_p", "t128x192", "t128x192_p", "t128x128_p", "t64x128_p", "t64x256"]
SHAPES = [(1024, 768, 2304), (1024, 768, 3072), (1024, 4096, 14336), (1024, 14336, 4096), (2048, 4096, 14336),
          (4096, 4096, 4096), (1024, 4096, 4096), (2048, 4096, 11008), (4096, 4096, 14336), (512, 4096, 14336),
          (2048, 2048, 2048), (1024, 4096, 6144)]


def main():
    out = Path(sys.argv[1])
    lib = harness.build(HERE / "tiles.hds")
    rows = []
    for m, k, n in SHAPES:
        a = torch.randn(m, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / k ** 0.5
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        ref = torch.matmul(a.float(), b.float())
        fns = {"cublas": lambda s: torch.matmul(a, b)}
        for name in KERNELS:
            fn = lib.launchers[name].fn
            args = [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]
            c.fill_(float("nan"))
            assert fn(*args, None) == 0
            torch.cuda.synchronize()
            assert float((c.float() - ref).norm() / ref.norm()) < 1e-2, name
            fns[name] = lambda s, fn=fn, args=args: fn(*args, s)
        t = graphs_ms(fns, calls=10, reps=15)
        row = {"M": m, "K": k, "N": n, "cublas_us": t["cublas"] * 1e3,
               **{f"{k_}": t["cublas"] / t[k_] for k_ in KERNELS}}
        rows.append(row)
        best = max(KERNELS, key=lambda k_: row[k_])
        print(f"M={m} K={k} N={n}: " + " ".join(f"{k_} {row[k_]:.2f}" for k_ in KERNELS) + f"  best {best}", flush=True)
    (out / "tiles.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
