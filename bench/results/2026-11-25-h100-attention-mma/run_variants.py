"""Times the tile variants of attention_mma.hds and attention_wgmma.hds (attention_variants.hds:
keys per tile BK x warps per block or stages, heads of 64 and 128, causal or not) side by side with SDPA on prefill
shapes of 16k tokens, after checking each against SDPA. Run from the repository root on
the GPU machine (after scripts/emit_for_device.sh and emitting attention_variants.hds
into .devcarry/emitted):

    python3 bench/results/2026-11-25-h100-attention-mma/run_variants.py --out DIR
"""
import argparse
import json
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    lib = harness.build(HERE / "attention_variants.hds")
    rows = []
    for d in (64, 128):
        for causal in (0, 1):
            names = sorted(n for n in lib.launchers if n.startswith((f"fa_d{d}_c{causal}_", f"wg_d{d}_c{causal}_")))
            for lq in (1024, 4096):
                b, h = 16384 // lq, 2048 // d
                q, k, v = (torch.randn(b, h, lq, d, device="cuda", dtype=torch.float16) for _ in range(3))
                ref = F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))
                outs = {n: torch.full_like(q, float("nan")) for n in names}
                fns = {"sdpa": lambda s: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))}
                for n in names:
                    fn = lib.launchers[n].fn
                    a = [q.data_ptr(), k.data_ptr(), v.data_ptr(), outs[n].data_ptr(), b * h, lq, lq]
                    lib.check(fn(*a, None), n)
                    torch.cuda.synchronize()
                    err = float((outs[n].double() - ref.double()).norm() / ref.double().norm())
                    assert err < 2e-3, (n, err)
                    fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
                t = graphs_ms(fns, calls=5, reps=10)
                flops = 4.0 * b * h * lq * lq * d / (2 if causal else 1)
                for n in names:
                    rows.append({"variant": n, "D": d, "causal": causal, "L": lq, "us": t[n] * 1e3,
                                 "sdpa_us": t["sdpa"] * 1e3, "ratio": t["sdpa"] / t[n],
                                 "TFLOPs": flops / t[n] / 1e9, "sdpa_TFLOPs": flops / t["sdpa"] / 1e9})
                    print(f"{n} L={lq}: {rows[-1]['TFLOPs']:.0f} TFLOP/s, {rows[-1]['ratio']:.2f}x SDPA "
                          f"({rows[-1]['sdpa_TFLOPs']:.0f})", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "variants.json").write_text(json.dumps({"device": torch.cuda.get_device_name(), "rows": rows},
                                                       indent=1))


if __name__ == "__main__":
    main()
