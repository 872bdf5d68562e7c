"""Times the kernels of points.hds side by side with cuBLAS fp32 (TF32 off) where 32 x 32 tiles number
100 to 132 (d2 fills two blocks per multiprocessor) and around, after checking each against float64.
From the repository root on the GPU, after `build.sh points` here:

    python3 bench/results/2026-11-26-h100-f32-split/run_points.py --out DIR --lib .devcarry/f32-split

--points M,K,N;M,K,N;... and --tile 128 time other points and count 128 x 128 tiles (the run of
2026-11-26-h100-f32-split4: --lib .devcarry/f32-split4 --tile 128 --points "$(cat points.txt)").
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

POINTS = [(32, 4096, 4096), (128, 1000, 1003), (64, 4096, 2048), (96, 4096, 1200), (200, 1024, 560),
          (32, 2048, 4000), (128, 512, 1000), (100, 4096, 1000), (96, 4096, 1056), (77, 1000, 1003),
          (48, 4096, 2700), (33, 4096, 4096), (64, 1000, 1003), (160, 2048, 800)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--points", default=";".join(",".join(map(str, p)) for p in POINTS), help="M,K,N;M,K,N;...")
    ap.add_argument("--tile", type=int, default=32, help="the tile side whose count each row reports")
    args = ap.parse_args()
    points = [tuple(map(int, p.split(","))) for p in args.points.split(";")]
    tile = args.tile
    torch.backends.cuda.matmul.allow_tf32 = False
    lib = harness.Library(args.lib / "libpoints.so", args.lib / "points.h")
    names = sorted(lib.launchers)
    args.out.mkdir(parents=True, exist_ok=True)
    for run in (1, 2):
        rows = []
        for m, k, n in points:
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
            tiles = (m + tile - 1) // tile * ((n + tile - 1) // tile)
            row = {"M": m, "K": k, "N": n, f"tiles{tile}": tiles, "cublas_us": t["cublas"] * 1e3}
            row |= {name: t["cublas"] / t[name] for name in names}
            rows.append(row)
            print(f"run{run} M={m} K={k} N={n} ({tiles} tiles of {tile} x {tile}): "
                  + " ".join(f"{x} {row[x]:.2f}" for x in names), flush=True)
        (args.out / f"points-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
