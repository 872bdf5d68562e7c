"""CPU-emulator speed: `hdsc run` on the 256x256x256 matmul examples (the
issue's budget is 2 s on one core) and on the tensor-core GEMMs in f16 (mma.sync
at 256^3, the TMA + wgmma one at 128^3 and 256^3: "a few seconds" for 128^3), the
median of 3 runs each, pinned to one core with taskset when available. Writes
bench/results/emulator.{json,md}.

    python3 bench/bench_emulator.py [--hdsc build/hdsc] [--out bench/results]
"""
import argparse
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--hdsc", default=str(ROOT / "build" / "hdsc"))
    p.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = p.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        cases = [("matmul_naive", "matmul_naive", 256, np.float32, 2.0), ("matmul_tiled", "matmul_tiled", 256, np.float32, 2.0),
                 ("matmul_tc", "matmul_mma_f16", 256, np.float16, 5.0),
                 ("matmul_hopper", "matmul_wgmma_f16", 128, np.float16, 5.0),
                 ("matmul_hopper", "matmul_wgmma_f16", 256, np.float16, 5.0)]
        for example, kernel, n, dtype, budget in cases:
            a, b = rng.standard_normal((n, n)).astype(dtype), rng.standard_normal((n, n)).astype(dtype)
            np.save(tmp / "a.npy", a)
            np.save(tmp / "b.npy", b)
            cmd = pin + [args.hdsc, "run", str(ROOT / "examples" / f"{example}.hds"), "-I", str(ROOT / "stdlib"),
                         "--kernel", kernel, "--inputs", f"{tmp}/a.npy,{tmp}/b.npy", "--outputs", f"{tmp}/c.npy"]
            times = []
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                times.append(time.perf_counter() - start)
            c = np.load(tmp / "c.npy").astype(np.float64)
            ref = a.astype(np.float64) @ b.astype(np.float64)
            err = float(np.linalg.norm(c - ref) / np.linalg.norm(ref))
            rows.append({"kernel": kernel, "shape": f"{n}x{n}x{n}", "median_s": sorted(times)[1], "runs_s": times,
                         "rel_error": err, "budget_s": budget})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "emulator.json").write_text(json.dumps(rows, indent=2))
    lines = ["| kernel | shape | median of 3 (s, one core) | budget | rel. error vs float64 |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['kernel']} | {r['shape']} | {r['median_s']:.2f} | {r['budget_s']:.0f} s | {r['rel_error']:.1e} |")
    (out / "emulator.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
