"""CPU-emulator speed: `hdsc run` on the 256x256x256 matmul examples (the
issue's budget is 2 s on one core), the median of 3 runs each, pinned to one
core with taskset when available. Writes bench/results/emulator.{json,md}.

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
        a, b = rng.standard_normal((256, 256)).astype(np.float32), rng.standard_normal((256, 256)).astype(np.float32)
        np.save(tmp / "a.npy", a)
        np.save(tmp / "b.npy", b)
        pin = ["taskset", "-c", "0"] if shutil.which("taskset") else []
        for kernel in ("matmul_naive", "matmul_tiled"):
            cmd = pin + [args.hdsc, "run", str(ROOT / "examples" / f"{kernel}.hds"), "-I", str(ROOT / "stdlib"), "--kernel", kernel,
                         "--inputs", f"{tmp}/a.npy,{tmp}/b.npy", "--outputs", f"{tmp}/c.npy"]
            times = []
            for _ in range(3):
                start = time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                times.append(time.perf_counter() - start)
            c = np.load(tmp / "c.npy")
            ref = a.astype(np.float64) @ b
            err = float(np.linalg.norm(c - ref) / np.linalg.norm(ref))
            rows.append({"kernel": kernel, "shape": "256x256x256", "median_s": sorted(times)[1], "runs_s": times,
                         "rel_error": err, "budget_s": 2.0})
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
