"""Times the kernels of variants.hds (matmul_wgmma tiles for M = 65 ... 256, K split per call)
side by side with cuBLAS, f16, after checking each against float32 matmul. From the repository
root on the GPU, after build.sh here:

    python3 bench/results/2026-11-26-h100-f16-mid-rows/run_variants.py --out DIR --lib .devcarry/f16-mid
        [--ms M,... --kn K:N,...]   (--kn added by ../2026-11-27-h200-split4)
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

KN = ((4096, 4096), (4096, 11008), (11008, 4096), (4096, 14336), (4096, 1024), (14336, 4096))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--ms", default="65,77,96,128,160,192,256")
    ap.add_argument("--kn", default=None, help="K:N pairs, comma-separated (default: KN above)")
    args = ap.parse_args()
    lib = harness.Library(args.lib / "libvariants.so", args.lib / "variants.h")
    names = sorted(lib.launchers)
    args.out.mkdir(parents=True, exist_ok=True)
    for run in range(1, args.runs + 1):
        rows = []
        kn = [tuple(int(v) for v in p.split(":")) for p in args.kn.split(",")] if args.kn else KN
        for k, n in kn:
            b = torch.randn(k, n, device="cuda", dtype=torch.float16) / k ** 0.5
            for m in (int(x) for x in args.ms.split(",")):
                a = torch.randn(m, k, device="cuda", dtype=torch.float16)
                c = torch.empty(m, n, device="cuda", dtype=torch.float16)
                ref = a.float() @ b.float()
                fns = {"cublas": lambda s: torch.matmul(a, b)}
                for name in names:
                    fn = lib.launchers[name].fn
                    if run == 1:
                        c.fill_(float("nan"))
                        lib.check(fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, None), name)
                        torch.cuda.synchronize()
                        err = float((c.float() - ref).norm() / ref.norm())
                        assert err < 1e-2, (name, m, k, n, err)
                    fns[name] = lambda s, fn=fn: fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, s)
                t = graphs_ms(fns, calls=10, reps=15)
                row = {"M": m, "K": k, "N": n, "cublas_us": t["cublas"] * 1e3}
                row |= {name: t["cublas"] / t[name] for name in names}
                rows.append(row)
                print(f"run{run} M={m} K={k} N={n} cuBLAS {row['cublas_us']:.1f} us: "
                      + " ".join(f"{x} {row[x]:.2f}" for x in names), flush=True)
        (args.out / f"variants-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
