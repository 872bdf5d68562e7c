"""Where the time of an example graph goes: each CUDA kernel of one hds run,
of torch eager and of torch.compile, with its time (torch.profiler, the mean
over a few runs). Writes a markdown file per graph; for finding the slow
kernel of a graph, not for ratios (bench_graphs.py measures those).

    python3 bench/profile_graphs.py --out DIR transformer_block resnet_block   (GPU, torch)
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
from torch.profiler import ProfilerActivity, profile

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
from bench_graphs import SIZES, Prepared  # noqa: E402

RUNS = 10


def kernel_table(fn) -> list[tuple[str, float, int]]:
    """(kernel name, mean µs per run, calls per run) of fn's CUDA kernels."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(RUNS):
            fn()
        torch.cuda.synchronize()
    rows = []
    for e in prof.key_averages():
        us = e.device_time_total if hasattr(e, "device_time_total") else e.cuda_time_total
        if us > 0 and e.count >= RUNS:
            rows.append((e.key, us / RUNS, e.count // RUNS))
    rows.sort(key=lambda r: -r[1])
    return rows


def section(title: str, rows: list[tuple[str, float, int]]) -> str:
    total = sum(r[1] for r in rows)
    lines = [f"### {title}: {total:.1f} µs of kernels per run", "", "| kernel | µs | calls |", "|---|---|---|"]
    lines += [f"| `{name[:90]}` | {us:.1f} | {calls} |" for name, us, calls in rows]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("graphs", nargs="+")
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    args.out.mkdir(parents=True, exist_ok=True)
    for example in args.graphs:
        size = SIZES[example]
        p = Prepared(example, size)
        compiled = torch.compile(p.ref_fn)
        text = f"## {example} ({p.size_name}={size})\n\n"
        text += section("hds", kernel_table(p.run)) + "\n"
        text += section("torch eager", kernel_table(lambda: p.ref_fn(**p.inputs))) + "\n"
        text += section("torch.compile", kernel_table(lambda: compiled(**p.inputs)))
        (args.out / f"profile-{example}.md").write_text(text)
        print(text, flush=True)


if __name__ == "__main__":
    main()
