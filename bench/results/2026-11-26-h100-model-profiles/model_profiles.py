"""Where the time goes: each model of bench/bench_torch.py compiled with backend="hds" and with
inductor, replayed from a CUDA graph under torch.profiler; the GPU kernels of each, by total
time per call (so that a next step starts from a measurement, not a guess).

    python3 bench/results/2026-11-26-h100-model-profiles/model_profiles.py OUT_DIR [MODEL...]
"""
import json
import os
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "bench"), str(ROOT / "python"), str(ROOT / "tests" / "python")]
import bench_torch  # noqa: E402
import hds.dynamo  # noqa: E402

ITERS = 20


def kernels(fn) -> list:
    """(kernel, total µs per call, launches per call) of fn replayed from a CUDA graph."""
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        for _ in range(3):
            fn()
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g, stream=s):
        fn()
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(ITERS):
            g.replay()
        torch.cuda.synchronize()
    rows = {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        t, n = rows.get(e.name, (0.0, 0))
        rows[e.name] = (t + e.device_time, n + 1)
    out = sorted(((k, t / ITERS, n / ITERS) for k, (t, n) in rows.items()), key=lambda r: -r[1])
    return [(k[:110], round(t, 1), n) for k, t, n in out]


def main():
    out = Path(sys.argv[1])
    names = sys.argv[2:] or ["gpt2_block_t1024", "llama_layer_t1024", "resnet18_b1"]
    result = {}
    for name in names:
        torch.manual_seed(0)
        model, inputs = bench_torch.MODELS[name]()
        model = model.eval().to("cuda", torch.float16)
        inputs = tuple(x.to("cuda", torch.float16) for x in inputs)
        with torch.no_grad():
            os.environ["HDS_DEBUG_DIR"] = str(out / "debug" / name)
            torch._dynamo.reset()
            ours = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)
            ours(*inputs)
            del os.environ["HDS_DEBUG_DIR"]
            inductor = torch.compile(model, dynamic=False)
            inductor(*inputs)
            result[name] = {"hds": kernels(lambda: ours(*inputs)), "inductor": kernels(lambda: inductor(*inputs))}
        lines = [f"## {name}"]
        for who in ("hds", "inductor"):
            rows = result[name][who]
            lines.append(f"\n{who}: {sum(r[1] for r in rows):.0f} µs per call in {sum(r[2] for r in rows):.0f} kernels\n")
            lines += [f"| {t:8.1f} µs | {n:4.1f}× | {k} |" for k, t, n in rows[:14]]
        text = "\n".join(lines) + "\n\n"
        print(text, flush=True)
        with open(out / "profiles.md", "a") as f:
            f.write(text)
    (out / "profiles.json").write_text(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
