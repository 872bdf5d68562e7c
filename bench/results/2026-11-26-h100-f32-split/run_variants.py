"""Times the variants of f32_variants.hds (nn.hds's three SIMT tiles, and the same tiles with K split
over clusters) side by side with cuBLAS fp32 (TF32 off) at the f32 sweep's points where the tile rule
leaves most multiprocessors idle, after checking each against float64 on odd sizes. From the
repository root on the GPU, after build.sh here:

    python3 bench/results/2026-11-26-h100-f32-split/run_variants.py --out DIR --lib .devcarry/f32-split
"""
import argparse
import json
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402


def check(lib, names):
    for m, k, n in ((77, 1000, 1003), (33, 4095, 129), (1, 17, 5), (300, 8192, 64)):
        a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
        ref = a.double() @ b.double()
        for name in names:
            c = torch.full((m, n), float("nan"), device="cuda")
            lib.check(lib.launchers[name].fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, None), name)
            torch.cuda.synchronize()
            err = float((c.double() - ref).norm() / ref.norm())
            assert err < 1e-5, (name, m, k, n, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--ms", default="32,77,128,256,512,1024")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    lib = harness.Library(args.lib / "libf32_variants.so", args.lib / "f32_variants.h")
    names = sorted(lib.launchers)
    check(lib, names)
    print("every variant agrees with float64", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    for run in range(1, args.runs + 1):
        rows = []
        for k, n in ((4096, 4096), (1000, 1003), (4096, 11008)):
            b = torch.randn(k, n, device="cuda") / math.sqrt(k)
            for m in (int(x) for x in args.ms.split(",")):
                a = torch.randn(m, k, device="cuda")
                c = torch.empty(m, n, device="cuda")
                fns = {"cublas": lambda s: torch.matmul(a, b)}
                for name in names:
                    fn = lib.launchers[name].fn
                    fns[name] = lambda s, fn=fn: fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, s)
                t = graphs_ms(fns, calls=10, reps=15)
                row = {"M": m, "K": k, "N": n, "cublas_us": t["cublas"] * 1e3}
                row |= {name: t["cublas"] / t[name] for name in names}
                rows.append(row)
                best = sorted(names, key=lambda x: -row[x])[:4]
                print(f"run{run} M={m} K={k} N={n} cuBLAS {row['cublas_us']:.1f} us: "
                      + ", ".join(f"{x} {row[x]:.2f}" for x in best)
                      + f" | base128 {row['base128']:.2f} base32x128 {row['base32x128']:.2f} base32 {row['base32']:.2f}",
                      flush=True)
        (args.out / f"variants-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
