"""fp32 SIMT GEMM variants (bench/gemm_variants/*.hds and examples/matmul_tiled.hds)
against cuBLAS fp32 (torch.matmul, TF32 off), side by side in one process:
correctness vs torch, then the median time of each at a few shapes. A variant's
line `// nvcc: FLAGS` adds FLAGS to its nvcc command (e.g. -maxrregcount=128).

    python3 bench/bench_gemm_variants.py --out bench/results/<run>
"""
import argparse
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import launcher, medians_ms  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--out", required=True)
    args = p.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    sources = [ROOT / "examples" / "matmul_tiled.hds"] + sorted((ROOT / "bench" / "gemm_variants").glob("*.hds"))
    shapes = [(4096, 4096, 4096), (2048, 2048, 2048), (1000, 1003, 517)]
    lines = ["| kernel | M×N×K | hds ms | cuBLAS ms | hds TFLOP/s | hds / cuBLAS | rel. error |", "|---|---|---|---|---|---|---|"]
    for m, n, k in shapes:
        a = torch.randn(m, k, device="cuda")
        b = torch.randn(k, n, device="cuda")
        ref = torch.matmul(a, b)
        for src in sources:
            flags = [line[len("// nvcc:"):].split() for line in src.read_text().splitlines() if line.startswith("// nvcc:")]
            lib = harness.build(src, tuple(f for group in flags for f in group))
            run = launcher(lib, src.stem)
            c = torch.full((m, n), float("nan"), device="cuda")
            call = lambda: run(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n)  # noqa: E731
            call()
            torch.cuda.synchronize()
            err = ((c.double() - ref.double()).norm() / ref.double().norm()).item()
            times = medians_ms({"hds": call, "ref": lambda: torch.matmul(a, b)})  # side by side
            t, t_ref = times["hds"], times["ref"]
            lines.append(f"| {src.stem} | {m}×{n}×{k} | {t:.3f} | {t_ref:.3f} | {2 * m * n * k / t / 1e9:.1f} | "
                         f"{t_ref / t:.2f}× | {err:.1e} |")
    text = f"# fp32 SIMT GEMM variants ({torch.cuda.get_device_name()})\n\n" + "\n".join(lines) + "\n"
    Path(args.out).mkdir(parents=True, exist_ok=True)
    (Path(args.out) / "gemm_variants.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
