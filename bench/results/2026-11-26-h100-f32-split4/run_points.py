"""Times the kernels of points.hds side by side with cuBLAS fp32 (TF32 off) at the f32 sweep's lowest
points and around them, after checking each against float64.
From the repository root on the GPU, after `build.sh points` here:

    python3 bench/results/2026-11-26-h100-f32-split4/run_points.py --out DIR --lib .devcarry/f32-split4
"""
import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

POINTS = [(77, 4096, 4096), (128, 4096, 4096), (96, 4096, 4096), (64, 4096, 4096), (256, 4096, 4096),
          (128, 4096, 11008), (256, 4096, 11008), (512, 4096, 11008), (1024, 4096, 11008), (77, 4096, 11008),
          (256, 1000, 1003), (512, 1000, 1003), (1024, 1000, 1003), (128, 1000, 1003), (200, 2048, 2000)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    lib = harness.Library(args.lib / "libpoints.so", args.lib / "points.h")
    names = sorted(lib.launchers)
    args.out.mkdir(parents=True, exist_ok=True)
    for run in (1, 2):
        rows = []
        for m, k, n in POINTS:
            a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda") / k ** 0.5
            c = torch.empty(m, n, device="cuda")
            ref = a.double() @ b.double()
            fns = {"cublas": lambda s: torch.matmul(a, b)}
            for name in names:
                fn = lib.launchers[name].fn
                c.fill_(float("nan"))
                lib.check(fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, None), name)
                torch.cuda.synchronize()
                assert float((c.double() - ref).norm() / ref.norm()) < 1e-5, (name, m, k, n)
                fns[name] = lambda s, fn=fn: fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, s)
            t = graphs_ms(fns, calls=10, reps=15)
            tiles = (m + 127) // 128 * ((n + 127) // 128)
            row = {"M": m, "K": k, "N": n, "tiles128": tiles, "cublas_us": t["cublas"] * 1e3}
            row |= {name: t["cublas"] / t[name] for name in names}
            rows.append(row)
            print(f"run{run} M={m} K={k} N={n} ({tiles} tiles of 128 x 128): "
                  + " ".join(f"{x} {row[x]:.2f}" for x in names), flush=True)
        (args.out / f"points-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
