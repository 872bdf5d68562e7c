"""torch.compile(backend="hds") on whole models (issue 25's goals) against torch
eager and torch.compile (inductor) on the same inputs in one process: ResNet-18
(f16, batch 1 and 32), a GPT-2 small block and a Llama-3 8B decoder layer (f16;
each at prefill of 1k tokens and one-token decode against a 1k cache). Medians of CUDA
events with the three's samples alternating, called from Python and replayed
from CUDA graphs; the backend's cold compile (hdsc and nvcc apart) and warm
compile, beside what torch's tracing alone takes (the aot_eager backend); the
nodes each model leaves to eager.

    python3 bench/bench_torch.py --out DIR [--only NAME...]   (a GPU, torch; HDSC names hdsc)
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
sys.path.insert(0, str(ROOT / "bench"))
import hds.dynamo  # noqa: E402
import torch_models as models  # noqa: E402
from bench_core import graphs_ms, medians_ms, write_table  # noqa: E402


def resnet(batch):
    return lambda: (models.ResNet18(), (torch.randn(batch, 3, 224, 224),))


def gpt2(decode: bool):
    def make():
        block = models.GPT2Block(d=768, heads=12)
        if decode:  # one token against a cache of 1024 positions
            return block, (torch.randn(1, 1, 768), torch.randn(1, 12, 1024, 64), torch.randn(1, 12, 1024, 64))
        return block, (torch.randn(1, 1024, 768),)
    return make


def llama(decode: bool):
    def make():
        layer = models.LlamaLayer(d=4096, heads=32, kv_heads=8, ffn=14336, max_len=1100)
        if decode:
            return layer, (torch.randn(1, 1, 4096), torch.randn(1, 8, 1024, 128), torch.randn(1, 8, 1024, 128))
        return layer, (torch.randn(1, 1024, 4096),)
    return make


MODELS = {"resnet18_b1": resnet(1), "resnet18_b32": resnet(32), "gpt2_block_t1024": gpt2(False),
          "gpt2_block_decode_s1024": gpt2(True),
          "llama_layer_t1024": llama(False), "llama_layer_decode_s1024": llama(True)}


def bench(name: str, debug: Path) -> dict:
    torch.manual_seed(0)
    model, inputs = MODELS[name]()
    model = model.eval().to("cuda", torch.float16)
    for p in model.parameters():  # weights of a trained model's scale
        p.data.mul_(0.5)
    inputs = tuple(x.to("cuda", torch.float16) for x in inputs)
    row = {"model": name}
    with torch.no_grad():
        ref = model(*inputs)
        os.environ["HDS_DEBUG_DIR"] = str(debug / name)
        torch._dynamo.reset()
        hds.dynamo.timings.clear()
        start = time.time()
        ours = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)
        out = ours(*inputs)
        torch.cuda.synchronize()
        row["hds_compile_cold_s"] = round(time.time() - start, 2)
        row["hdsc_s"] = round(sum(t["hdsc_s"] for t in hds.dynamo.timings), 2)
        row["nvcc_s"] = round(sum(t["nvcc_s"] for t in hds.dynamo.timings), 2)
        row["partitions"] = len(hds.dynamo.timings)
        torch._dynamo.reset()
        start = time.time()
        ours = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)
        ours(*inputs)
        torch.cuda.synchronize()
        row["hds_compile_warm_s"] = round(time.time() - start, 2)
        del os.environ["HDS_DEBUG_DIR"]
        # What tracing alone takes (dynamo and aot_autograd, the steps before any backend compiles
        # something): torch's aot_eager backend, which runs the traced graph as it is.
        torch._dynamo.reset()
        start = time.time()
        torch.compile(model, backend="aot_eager", fullgraph=True, dynamic=False)(*inputs)
        torch.cuda.synchronize()
        row["aot_eager_compile_s"] = round(time.time() - start, 2)
        row["eager_nodes"] = [line[len("eager: "):] for f in (debug / name).glob("*/log.txt")
                              for line in f.read_text().splitlines() if line.startswith("eager:")]
        row["rel_err_vs_eager"] = float((out.double() - ref.double()).norm() / ref.double().norm())
        start = time.time()
        inductor = torch.compile(model, dynamic=False)
        inductor(*inputs)
        row["inductor_compile_s"] = round(time.time() - start, 1)
        calls = {"hds": lambda: ours(*inputs), "eager": lambda: model(*inputs), "compiled": lambda: inductor(*inputs)}
        for k, t in medians_ms(calls).items():
            row[f"{k}_ms"] = t
        try:
            for k, t in graphs_ms({k: (lambda fn: lambda s: fn())(fn) for k, fn in calls.items()}).items():
                row[f"{k}_graph_ms"] = t
        except Exception as e:  # noqa: BLE001 - reported, the Python-call timings stand
            row["graph_error"] = str(e)[:200]
    for ref_name in ("eager", "compiled"):
        row[f"vs_{ref_name}"] = row[f"{ref_name}_ms"] / row["hds_ms"]
        if f"hds_graph_ms" in row:
            row[f"vs_{ref_name}_graph"] = row[f"{ref_name}_graph_ms"] / row["hds_graph_ms"]
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", nargs="+", choices=list(MODELS))
    args = ap.parse_args()
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    os.environ.setdefault("HDS_CACHE_DIR", tempfile.mkdtemp(prefix="hds-cache-"))
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for name in MODELS:
        if args.only and name not in args.only:
            continue
        try:
            rows.append(bench(name, args.out / "debug"))
        except Exception as e:  # noqa: BLE001 - one model's failure is a row, not the end of the run
            rows.append({"model": name, "error": f"{type(e).__name__}: {str(e)[:400]}"})
        print(json.dumps(rows[-1]), flush=True)
    meta = {"date": datetime.date.today().isoformat(), "device": torch.cuda.get_device_name(),
            "torch": torch.__version__, "dtype": "float16", "defaults": "untuned, static shapes"}
    nan = float("nan")
    ok = [r for r in rows if "error" not in r]
    write_table(args.out, "torch", ok, [
        ("model", lambda r: r["model"]), ("hds ms", lambda r: f"{r['hds_ms']:.3f}"),
        ("eager ms", lambda r: f"{r['eager_ms']:.3f}"), ("compiled ms", lambda r: f"{r['compiled_ms']:.3f}"),
        ("vs eager", lambda r: f"{r['vs_eager']:.2f}x"), ("vs compile", lambda r: f"{r['vs_compiled']:.2f}x"),
        ("vs eager (graph)", lambda r: f"{r.get('vs_eager_graph', nan):.2f}x"),
        ("vs compile (graph)", lambda r: f"{r.get('vs_compiled_graph', nan):.2f}x"),
        ("cold compile s (hdsc / nvcc)", lambda r: f"{r['hds_compile_cold_s']} ({r['hdsc_s']} / {r['nvcc_s']})"),
        ("warm s (tracing alone)", lambda r: f"{r['hds_compile_warm_s']} ({r.get('aot_eager_compile_s', '-')})"), ("eager nodes", lambda r: str(len(r["eager_nodes"]))),
        ("rel err", lambda r: f"{r['rel_err_vs_eager']:.1e}")], meta)


if __name__ == "__main__":
    main()
