"""The variants of attention_variants.hds on few heads (GPT-2 small's 12 heads of 64, batch 1 to 4),
where the blocks do not fill the GPU, side by side with SDPA. Run as run_variants.py (--lib)."""
import argparse
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_variants import args_of, harness, graphs_ms  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--lib", type=Path, required=True)
args = ap.parse_args()
lib = harness.Library(args.lib / "libattention_variants.so", args.lib / "attention_variants.h")
for causal in (1, 0):
    names = sorted(n for n in lib.launchers if n.startswith(f"d64_c{causal}_"))
    for b, h, lq in ((1, 12, 1024), (4, 12, 1024), (1, 12, 4096), (1, 32, 1024)):
        q, k, v = (torch.randn(b, h, lq, 64, device="cuda", dtype=torch.float16) for _ in range(3))
        outs = {n: torch.empty_like(q) for n in names}
        fns = {"sdpa": lambda s: F.scaled_dot_product_attention(q, k, v, is_causal=bool(causal))}
        for n in names:
            fn, a = lib.launchers[n].fn, args_of(None, q, k, v, outs[n])
            fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
        t = graphs_ms(fns, calls=10, reps=15)
        line = " ".join(f"{n[7:]}={t['sdpa'] / t[n]:.2f}" for n in names)
        print(f"causal={causal} B={b} H={h} L={lq} SDPA {t['sdpa'] * 1e3:.1f} us: {line}", flush=True)
