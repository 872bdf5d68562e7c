"""Side-by-side benchmark of the compiler-core examples against the references
in the same process: fp32 GEMM vs cuBLAS (torch.matmul, TF32 off), row sum and
softmax vs torch eager. Medians of CUDA-event timings, reported as ratios; the
timing helpers (medians_ms, graphs_ms) that every bench script uses alternate
the samples of the kernels they compare.

    python3 bench/bench_core.py --out bench/results     (needs a GPU and torch)
"""
from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import platform
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
import harness  # noqa: E402


def medians_ms(fns: dict, warmup=5, reps=30) -> dict:
    """Median time of one call in ms of each function of `fns` (name -> fn()),
    timed side by side: the samples alternate between the functions, so that a
    change of the GPU's clock or temperature during the run reaches all of them
    alike. Each sample times a batch of calls between two events (enough for
    about 1 ms of GPU work), so that host launch overhead does not count for
    short kernels as long as launches keep the GPU busy."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    batches = {}
    for name, fn in fns.items():
        for _ in range(warmup):
            fn()
        torch.cuda.synchronize()
        start.record()
        fn()
        end.record()
        end.synchronize()
        batches[name] = max(1, min(100, int(1.0 / max(start.elapsed_time(end), 1e-3))))
    times = {name: [] for name in fns}
    for _ in range(reps):
        for name, fn in fns.items():
            start.record()
            for _ in range(batches[name]):
                fn()
            end.record()
            end.synchronize()
            times[name].append(start.elapsed_time(end) / batches[name])
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


def median_ms(fn, warmup=5, reps=30):
    """medians_ms of one function."""
    return medians_ms({"fn": fn}, warmup, reps)["fn"]


def graphs_ms(fns: dict, calls=20, reps=20) -> dict:
    """Median time of one call in ms of each function of `fns` (name ->
    fn(stream)) with the host out of the way: `calls` calls of each captured
    into a CUDA graph, the graphs replayed in turn `reps` times (side by side, as
    in medians_ms). For kernels of a few microseconds, where launching from
    Python (torch's dispatch, ctypes) takes longer than the kernel itself."""
    stream = torch.cuda.Stream()
    graphs = {}
    with torch.cuda.stream(stream):
        for name, fn in fns.items():
            for _ in range(3):
                fn(stream.cuda_stream)
            stream.synchronize()
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph, stream=stream):
                for _ in range(calls):
                    fn(stream.cuda_stream)
            graph.replay()
            stream.synchronize()
            graphs[name] = graph
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        times = {name: [] for name in fns}
        for _ in range(reps):
            for name, graph in graphs.items():
                start.record(stream)
                graph.replay()
                end.record(stream)
                end.synchronize()
                times[name].append(start.elapsed_time(end) / calls)
    return {name: sorted(t)[len(t) // 2] for name, t in times.items()}


def graph_ms(fn, calls=20, reps=20):
    """graphs_ms of one function."""
    return graphs_ms({"fn": fn}, calls, reps)["fn"]


def write_table(out: Path, name: str, rows: list, columns: list, meta: dict | None = None):
    """Writes OUT/NAME.json ({meta, rows}) and OUT/NAME.md, a markdown table of
    `columns` [(title, row -> text)], and prints the table."""
    out.mkdir(parents=True, exist_ok=True)
    meta = meta or {"device": torch.cuda.get_device_name()}
    (out / f"{name}.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    lines = ["| " + " | ".join(t for t, _ in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(f(r) for _, f in columns) + " |" for r in rows]
    (out / f"{name}.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


def launcher(lib, kernel):
    fn = lib.launchers[kernel].fn

    def call(*args):
        err = fn(*args, None)
        if err:
            raise RuntimeError(f"launch_{kernel} failed with {err}")

    return call


def bench_gemm(rows, m, n, k):
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(m, k, device="cuda")
    b = torch.randn(k, n, device="cuda")
    ref = torch.matmul(a, b)
    flops = 2.0 * m * n * k
    for kernel in ("matmul_tiled", "matmul_naive"):
        lib = harness.build(f"examples/{kernel}.hds")
        c = torch.empty(m, n, device="cuda")
        run = launcher(lib, kernel)
        call = lambda: run(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n)  # noqa: E731
        call()
        torch.cuda.synchronize()
        err = ((c.double() - ref.double()).norm() / ref.double().norm()).item()
        times = medians_ms({"hds": call, "ref": lambda: torch.matmul(a, b)}, reps=10 if kernel == "matmul_naive" else 30)
        t, t_ref = times["hds"], times["ref"]
        rows.append({"workload": f"{kernel} fp32 {m}x{n}x{k}", "reference": "cuBLAS fp32 (torch.matmul)",
                     "hds_ms": t, "ref_ms": t_ref, "hds_TFLOPs": flops / t / 1e9, "ref_TFLOPs": flops / t_ref / 1e9,
                     "speedup_vs_ref": t_ref / t, "rel_error": err})


def bench_rows(rows, r, c):
    x = torch.randn(r, c, device="cuda")
    nbytes = x.numel() * 4
    lib = harness.build("examples/row_sum.hds")
    y = torch.empty(r, device="cuda")
    run = launcher(lib, "row_sum")
    call = lambda: run(x.data_ptr(), y.data_ptr(), r, c)  # noqa: E731
    call()
    ref = x.double().sum(dim=1)
    err = ((y.double() - ref).norm() / ref.norm()).item()
    times = medians_ms({"hds": call, "ref": lambda: x.sum(dim=1)})
    t, t_ref = times["hds"], times["ref"]
    rows.append({"workload": f"row_sum fp32 {r}x{c}", "reference": "torch eager", "hds_ms": t, "ref_ms": t_ref,
                 "hds_GBps": (nbytes + r * 4) / t / 1e6, "speedup_vs_ref": t_ref / t, "rel_error": err})

    lib = harness.build("examples/softmax.hds")
    y2 = torch.empty(r, c, device="cuda")
    run = launcher(lib, "softmax")
    call = lambda: run(x.data_ptr(), y2.data_ptr(), r, c)  # noqa: E731
    call()
    ref = torch.softmax(x.double(), dim=1)
    err = ((y2.double() - ref).norm() / ref.norm()).item()
    times = medians_ms({"hds": call, "ref": lambda: torch.softmax(x, dim=1)})
    t, t_ref = times["hds"], times["ref"]
    rows.append({"workload": f"softmax fp32 {r}x{c}", "reference": "torch eager", "hds_ms": t, "ref_ms": t_ref,
                 "hds_GBps": 2 * nbytes / t / 1e6, "speedup_vs_ref": t_ref / t, "rel_error": err})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=str(ROOT / "bench" / "results"))
    args = parser.parse_args()
    rows = []
    bench_gemm(rows, 4096, 4096, 4096)
    bench_gemm(rows, 1000, 1003, 517)
    bench_rows(rows, 8192, 8192)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    meta = {"date": stamp, "gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
            "host": platform.node()}
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "core.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=2))
    lines = [f"# Compiler-core benchmark ({meta['gpu']}, {stamp}, torch {meta['torch']})", "",
             "| workload | reference | hds ms | ref ms | hds / ref speed | rel. error |", "|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['workload']} | {r['reference']} | {r['hds_ms']:.3f} | {r['ref_ms']:.3f} | "
                     f"{r['speedup_vs_ref']:.2f}x | {r['rel_error']:.1e} |")
    (out / "core.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
