"""Side-by-side benchmark of the example graphs (fused by hdsc) against torch
eager and torch.compile on the same inputs in one process: medians of
CUDA-event timings, ratios > 1 mean hds is faster. TF32 is off everywhere.

    python3 bench/bench_graphs.py --out DIR      (needs a GPU and torch)
"""
from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
import models  # noqa: E402
from bench_core import median_ms  # noqa: E402

SIZES = {"mlp": 2048, "transformer_block": 1024, "resnet_block": 16}


def bench(example: str, size: int) -> dict:
    make, ref_fn, size_name, out_shape = models.MODELS[example]
    graph = harness.build_graph(f"examples/{example}.hds")
    inputs = make(size)
    out = torch.empty(out_shape(inputs), dtype=inputs["x"].dtype, device="cuda")
    sizes = {size_name: size}
    ws = torch.empty(max(graph.workspace_size(sizes), 1), dtype=torch.uint8, device="cuda")
    args = graph.args({**inputs, "out": out}, sizes)
    stream = torch.cuda.current_stream().cuda_stream

    def hds():
        graph.run_fn(*args, ws.data_ptr(), stream)

    hds()
    torch.cuda.synchronize()
    ref = ref_fn(**inputs)
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    row = {"graph": example, "size": f"{size_name}={size}", "dtype": str(inputs["x"].dtype).replace("torch.", ""),
           "rel_err_vs_eager": err}
    row["hds_ms"] = median_ms(hds)
    row["eager_ms"] = median_ms(lambda: ref_fn(**inputs))
    try:
        start = time.time()
        compiled = torch.compile(ref_fn)
        compiled(**inputs)
        row["compile_s"] = round(time.time() - start, 1)
        row["compiled_ms"] = median_ms(lambda: compiled(**inputs))
    except Exception as e:  # noqa: BLE001 - report, do not hide
        row["compiled_error"] = str(e)[:200]
    row["vs_eager"] = row["eager_ms"] / row["hds_ms"]
    if "compiled_ms" in row:
        row["vs_compiled"] = row["compiled_ms"] / row["hds_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    rows = []
    for example, size in SIZES.items():
        rows.append(bench(example, size))
        print(json.dumps(rows[-1]), flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    meta = {"date": datetime.date.today().isoformat(), "device": torch.cuda.get_device_name(),
            "torch": torch.__version__}
    (args.out / "graphs.json").write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    lines = ["| graph | size | dtype | hds ms | eager ms | compiled ms | vs eager | vs compile | rel err |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['graph']} | {r['size']} | {r['dtype']} | {r['hds_ms']:.3f} | {r['eager_ms']:.3f} | "
                     f"{r.get('compiled_ms', float('nan')):.3f} | {r['vs_eager']:.2f}x | "
                     f"{r.get('vs_compiled', float('nan')):.2f}x | {r['rel_err_vs_eager']:.1e} |")
    (args.out / "graphs.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
