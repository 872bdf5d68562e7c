"""Times the decode kernels of variants.hds side by side with SDPA (its default backend, grouped
heads by enable_gqa), one query per head (L = 1), after checking each against SDPA; the K/V read
as a fraction of a device-to-device copy's bandwidth. On the GPU machine, with .devcarry carried,
after `bash ../2026-11-27-h200-split4/build.sh ../2026-11-27-h200-decode-warps/variants.hds decw`:

    python3 bench/results/2026-11-27-h200-decode-warps/run_decode.py --out DIR --lib .devcarry/decw
"""
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "2026-11-27-h200-sm80-attention"))
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import copy_gbps  # noqa: E402
from run_variants import variant_runs  # noqa: E402

# (D, B, H, G, S)
SHAPES = [(128, 1, 64, 8, 4096), (128, 1, 64, 8, 16384), (128, 1, 64, 8, 32768), (128, 2, 64, 8, 16384),
          (128, 4, 64, 8, 16384), (128, 1, 32, 32, 16384), (64, 1, 64, 8, 16384), (64, 1, 64, 8, 32768),
          (64, 4, 64, 8, 16384), (64, 1, 64, 64, 16384)]


def decode(lib, run):
    rows = []
    for d, b, h, g, s in SHAPES:
        q = torch.randn(b, h, 1, d, device="cuda", dtype=torch.float16)
        k, v = (torch.randn(b, g, s, d, device="cuda", dtype=torch.float16) for _ in range(2))
        scale = d ** -0.5
        ref = F.scaled_dot_product_attention(q, k, v, scale=scale, enable_gqa=True)
        fns = {"sdpa": lambda st: F.scaled_dot_product_attention(q, k, v, scale=scale, enable_gqa=True)}
        outs = {}
        for n in sorted(x for x in lib.launchers if f"_d{d}_" in x):
            fn = lib.launchers[n].fn
            o = outs[n] = torch.full_like(q, float("nan"))
            a = [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), b, h, 1, g, s]
            lib.check(fn(*a, None), n)
            torch.cuda.synchronize()
            err = float((o.double() - ref.double()).norm() / ref.double().norm())
            assert err < 2e-3, (n, err)
            fns[n] = lambda st, fn=fn, a=a: fn(*a, st)
        t = graphs_ms(fns, calls=10, reps=15)
        kv = 2 * k.numel() * k.element_size()
        row = {"D": d, "B": b, "H": h, "G": g, "S": s, **{f"{x}_us": y * 1e3 for x, y in t.items()}}
        row |= {f"{x}_of_copy_bw": kv / y / 1e6 / copy_gbps() for x, y in t.items()}
        rows.append(row)
        print(f"run{run} D={d} B={b} H={h} G={g} S={s}: sdpa {t['sdpa'] * 1e3:.1f} us "
              f"({row['sdpa_of_copy_bw']:.2f} BW); " + " ".join(
                  f"{x} {t['sdpa'] / t[x]:.2f} ({row[x + '_of_copy_bw']:.2f})" for x in t if x != "sdpa"), flush=True)
    return rows


if __name__ == "__main__":
    variant_runs(decode, "decode")
