"""Draws the shape sweep (bench/bench_sweep.py's sweep.json) as ratio against
size, one panel per kind of workload, one line per graph and fixed sizes; a
second run's sweep.json may be given to draw both (dashed: the second).

    python3 bench/plot_sweep.py DIR/sweep.json [OTHER/sweep.json] -o DIR/sweep.png   (needs matplotlib)
"""
from __future__ import annotations

import argparse
import json
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PANELS = [("GEMM vs cuBLAS (x: M)", lambda r: r["sweep"].startswith("gemm"), "M", ("K", "N")),
          ("row ops vs torch.compile (x: N, >= 64 MB moved)", lambda r: r["sweep"] in
           ("softmax_f32", "layer_norm_f32", "rms_norm_f16"), "N", ()),
          ("Llama MLP vs torch.compile (x: tokens)", lambda r: r["sweep"] == "llama_mlp", "T", ("D", "F")),
          ("attention prefill vs SDPA (x: L = S, 16k tokens)",
           lambda r: r["sweep"].startswith("attention") and r["L"] > 1, "L", ()),
          ("attention decode vs SDPA (x: S, L = 1, 64 heads)",
           lambda r: r["sweep"].startswith("attention") and r["L"] == 1, "S", ())]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+", type=Path)
    ap.add_argument("-o", "--out", type=Path, required=True)
    args = ap.parse_args()
    runs = [json.loads(p.read_text()) for p in args.runs]
    panels = [p for p in PANELS if any(p[1](r) for run in runs for r in run["rows"])]  # those with points
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 5), squeeze=False)
    for ax, (title, pick, x, fixed) in zip(axes[0], panels):
        for run_index, run in enumerate(runs):
            lines = defaultdict(list)
            for r in run["rows"]:
                if pick(r):
                    label = r["sweep"] + "".join(f" {k}={r[k]}" for k in fixed)
                    lines[label].append((r[x], r["ratio"]))
            for i, (label, pts) in enumerate(sorted(lines.items())):
                pts.sort()
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", color=f"C{i % 10}",
                        linestyle="-" if run_index == 0 else "--", label=label if run_index == 0 else None)
        ax.axhline(1.0, color="black", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_xlabel(x)
        ax.set_ylabel("ratio (> 1: hds faster)")
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
    meta = runs[0]["meta"]
    fig.suptitle(f"hds shape sweep, {meta['device']}, {meta['date']}: symbolic sizes, untuned defaults"
                 + (f" ({len(runs)} runs: solid, dashed)" if len(runs) > 1 else ""))
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)


if __name__ == "__main__":
    main()
