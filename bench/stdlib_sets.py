"""stdlib_sets.py — the GPU side of bench/stdlib_sets.sh: the graphs a results folder's build.sh
emitted with each stdlib (.devcarry/TAG/SET/), built and checked against a reference, for an A/B
run side by side in one process; and Nsight Compute's view of them.

    from stdlib_sets import set_points, time_row
    points = set_points(TAG_DIR, ["old", "new"], TAG_DIR / "graphs" / "g.hds", {"a": a, "b": b}, ref)
    row = time_row({"graph": "g"}, {"torch": lambda s: a @ b, **{k: p.run for k, p in points.items()}}, ("torch",))
"""
import json
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "gpu"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, rel_err  # noqa: E402


def resnet18_convs() -> dict:
    """bench/resnet18_convs.txt: {name: (C, O, H, stride, k)} of ResNet-18's convolutions."""
    rows = (line.split() for line in (Path(__file__).parent / "resnet18_convs.txt").read_text().splitlines())
    return {r[0]: tuple(int(v) for v in r[1:]) for r in rows if r and not r[0].startswith("#")}


def set_points(tag: Path, sets: list, source: Path, inputs: dict, ref: torch.Tensor, tol: float = 2e-3,
               sizes: dict | None = None) -> dict:
    """{set: Point}: graph `source` as tag/SET/ holds its .cu, with `inputs` and an output like
    `ref` (kept by the Point), run once and checked against `ref` (relative error below `tol`);
    `sizes`: the graph's symbolic sizes, where it has some."""
    points = {}
    for st in sets:
        os.environ["HDS_EMITTED_DIR"] = str(tag / st)
        g = harness.build_graph(source)
        out = torch.full_like(ref, float("nan"))
        p = Point(g, {**inputs, "out": out}, sizes or {})
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref)
        assert err < tol, (source.stem, st, err)
        points[st] = p
    return points


def profile_points(points: list, calls: int = 2):
    """Each point `calls` times between cudaProfilerStart and Stop (Nsight Compute with
    --profile-from-start off sees only these)."""
    stream = torch.cuda.current_stream().cuda_stream
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    for _ in range(calls):
        for p in points:
            p.run(stream)
            torch.cuda.synchronize()
    torch.cuda.profiler.stop()


def build_set(tag: Path, st: str, sources: list, workers: int = 4):
    """nvcc for set `st`'s graphs (sources: their .hds), `workers` at once (harness.build_graph
    caches them); a results folder's run.sh starts one such process per set before timing."""
    from concurrent.futures import ThreadPoolExecutor
    os.environ["HDS_EMITTED_DIR"] = str(tag / st)
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(harness.build_graph, sources))


def time_row(label: dict, fns: dict, refs: tuple) -> dict:
    """`fns` (name -> fn(stream)) side by side (bench_core.graphs_ms: ten calls a CUDA graph,
    15 samples each, alternating); prints the references' times and the others' with their
    ratio to the first reference; returns `label` with each time in µs (NAME_us)."""
    t = {k: v * 1e3 for k, v in graphs_ms(fns, calls=10, reps=15).items()}
    print(" ".join(f"{k}={v}" for k, v in label.items()) + ": " + " ".join(f"{r} {t[r]:.1f}" for r in refs) + " us; " +
          " ".join(f"{k} {v:.1f} ({t[refs[0]] / v:.2f}x)" for k, v in t.items() if k not in refs), flush=True)
    return {**label, **{f"{k}_us": v for k, v in t.items()}}


def write_rows(path: Path, rows: list):
    """The rows as JSON with the GPU's name."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))
