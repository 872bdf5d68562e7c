"""Times the variants of attention_variants.hds (the TMA producer of attention_wgmma.hds with two or
three consumer warpgroups, with and without ping-pong, against the cp.async baseline) side by side
with SDPA on prefill shapes of 16k tokens (B = 16384 / L, H * D = 2048), after checking each against
float64 on an odd grouped shape. Run from the repository root on the GPU machine:

    python3 bench/results/2026-11-26-h100-attention-tma/run_variants.py --out DIR [--lib DIR] [--check-only]

--lib: a folder with libattention_variants.so and attention_variants.h built beforehand (hdsc and
nvcc -shared with tests/gpu/shim.cu, as tests/gpu/harness.py builds); else harness.build.
"""
import argparse
import json
import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

HERE = Path(__file__).resolve().parent
SCALE = {64: 0.125, 128: 0.08838834764831845}


def args_of(fn, q, k, v, o):
    b, h, lq, _ = q.shape
    g, lk = k.shape[1], k.shape[2]
    return [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), b, h, lq, g, lk]


def reference(q, k, v, causal, scale):
    h, g = q.shape[1], k.shape[1]
    k, v = (t.double().repeat_interleave(h // g, dim=1) for t in (k, v))
    s = q.double() @ k.transpose(-1, -2) * scale
    if causal:
        lq, lk = q.shape[-2], k.shape[-2]
        i = torch.arange(lq, device=q.device)[:, None]
        j = torch.arange(lk, device=q.device)[None, :]
        s = s.masked_fill(j > i + lk - lq, -math.inf)
    return torch.softmax(s, -1) @ v


def check(lib, names, d, causal):
    """Every variant on odd sizes (L, M not multiples of any tile; 4 query heads over 2)."""
    for b, h, g, lq, lk in ((2, 4, 2, 1000, 1037), (1, 2, 1, 77, 300), (1, 1, 1, 1, 1)):
        if causal and lk < lq:
            continue
        q = torch.randn(b, h, lq, d, device="cuda", dtype=torch.float16)
        k, v = (torch.randn(b, g, lk, d, device="cuda", dtype=torch.float16) for _ in range(2))
        ref = reference(q, k, v, causal, SCALE[d])
        for n in names:
            print(f"check {n} B={b} H={h} G={g} L={lq} M={lk}", flush=True)
            o = torch.full_like(q, float("nan"))
            lib.check(lib.launchers[n].fn(*args_of(None, q, k, v, o), None), n)
            torch.cuda.synchronize()
            err = float((o.double() - ref).norm() / ref.norm())
            assert err < 2e-3, (n, b, h, g, lq, lk, err)


def time_against_sdpa(lib, names, b, h, lq, d, causal, calls, reps):
    """Milliseconds a call of each variant and of SDPA ("sdpa") take on [b, h, lq, d] inputs,
    side by side (bench_core.graphs_ms)."""
    q, k, v = (torch.randn(b, h, lq, d, device="cuda", dtype=torch.float16) for _ in range(3))
    outs = {n: torch.empty_like(q) for n in names}
    fns = {"sdpa": lambda s: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))}
    for n in names:
        fn, a = lib.launchers[n].fn, args_of(None, q, k, v, outs[n])
        fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
    return graphs_ms(fns, calls=calls, reps=reps)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path)
    ap.add_argument("--check-only", action="store_true")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    if args.lib:
        lib = harness.Library(args.lib / "libattention_variants.so", args.lib / "attention_variants.h")
    else:
        lib = harness.build(HERE / "attention_variants.hds")
    groups = {}
    for d in (64, 128):
        for causal in (0, 1):
            names = sorted(n for n in lib.launchers if n.startswith(f"d{d}_c{causal}_"))
            check(lib, names, d, causal)
            groups[(d, causal)] = names
    print("every variant agrees with float64", flush=True)
    if args.check_only:
        return
    args.out.mkdir(parents=True, exist_ok=True)
    for run in range(1, args.runs + 1):
        rows = []
        for (d, causal), names in groups.items():
            for lq in (512, 1024, 4096, 16384):
                b, h = 16384 // lq, 2048 // d
                t = time_against_sdpa(lib, names, b, h, lq, d, causal, calls=5, reps=10)
                flops = 4.0 * b * h * lq * lq * d / (2 if causal else 1)
                for n in names:
                    rows.append({"variant": n, "D": d, "causal": causal, "L": lq, "us": t[n] * 1e3,
                                 "sdpa_us": t["sdpa"] * 1e3, "ratio": t["sdpa"] / t[n],
                                 "TFLOPs": flops / t[n] / 1e9, "sdpa_TFLOPs": flops / t["sdpa"] / 1e9})
                line = " ".join(f"{n[len(f'd{d}_c{causal}_'):]}={t['sdpa'] / t[n]:.2f}" for n in names)
                print(f"run{run} D={d} causal={causal} L={lq} (SDPA {flops / t['sdpa'] / 1e9:.0f} TFLOP/s): {line}",
                      flush=True)
        (args.out / f"variants-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
