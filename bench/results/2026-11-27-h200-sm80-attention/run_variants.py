"""Times the tile variants of attention_mma.hds (variants.hds here: keys per tile x warps per block,
heads of 128 and 64, causal or not) side by side with SDPA's flash backend and its default, prefill
shapes of 16k tokens (B * L = 16384, 2048 / D heads), after checking each against SDPA. On the GPU
machine, with .devcarry carried, after `bash ../2026-11-27-h200-split4/build.sh
../2026-11-27-h200-sm80-attention/variants.hds sm80att` here:

    python3 bench/results/2026-11-27-h200-sm80-attention/run_variants.py --out DIR --lib .devcarry/sm80att
"""
import argparse
import json
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402


def flash(q, k, v, causal):
    with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
        return F.scaled_dot_product_attention(q, k, v, is_causal=causal)


def variant_runs(table, name):
    """--out DIR --lib DIR [--runs N]: the variants' library (build.sh's libvariants.so and
    variants.h in --lib), then per run the rows of `table(lib, run)`, written to DIR/NAME-runR.json."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    lib = harness.Library(args.lib / "libvariants.so", args.lib / "variants.h")
    args.out.mkdir(parents=True, exist_ok=True)
    for run in range(1, args.runs + 1):
        rows = table(lib, run)
        (args.out / f"{name}-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


def prefill(lib, run):
    rows = []
    for d in (128, 64):
        for causal in (0, 1):
            names = sorted(n for n in lib.launchers if n.startswith(f"fa_d{d}_c{causal}_"))
            if not names:
                continue
            for lq in (1024, 4096):
                b, h = 16384 // lq, 2048 // d
                q, k, v = (torch.randn(b, h, lq, d, device="cuda", dtype=torch.float16) for _ in range(3))
                ref = flash(q, k, v, bool(causal))
                fns = {"flash": lambda s: flash(q, k, v, bool(causal)),
                       "sdpa": lambda s: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))}
                outs = {}  # each variant's output, alive while its launches are timed
                for n in names:
                    fn = lib.launchers[n].fn
                    o = outs[n] = torch.full_like(q, float("nan"))
                    a = [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), b, h, lq, h, lq]
                    lib.check(fn(*a, None), n)
                    torch.cuda.synchronize()
                    err = float((o.double() - ref.double()).norm() / ref.double().norm())
                    assert err < 2e-3, (n, err)
                    fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
                stream = torch.cuda.Stream()
                for x, f in fns.items():  # once each on a side stream, so that a fault names its launch
                    f(stream.cuda_stream)
                    stream.synchronize()
                t = graphs_ms(fns, calls=5, reps=10)
                flops = 4.0 * b * h * lq * lq * d / (2 if causal else 1)
                row = {"D": d, "causal": causal, "L": lq, **{f"{x}_us": y * 1e3 for x, y in t.items()}}
                row |= {f"{x}_TFLOPs": flops / y / 1e9 for x, y in t.items()}
                rows.append(row)
                print(f"run{run} D={d} causal={causal} L={lq}: flash {row['flash_TFLOPs']:.0f} sdpa "
                      f"{row['sdpa_TFLOPs']:.0f} TFLOP/s; " + " ".join(
                          f"{n[len(f'fa_d{d}_c{causal}_'):]} {row[n + '_TFLOPs']:.0f} ({t['flash'] / t[n]:.2f})"
                          for n in names), flush=True)
    return rows


if __name__ == "__main__":
    variant_runs(prefill, "variants")
