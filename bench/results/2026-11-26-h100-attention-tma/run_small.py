"""The variants of attention_variants.hds on few heads (GPT-2 small's 12 heads of 64, batch 1 to 4),
where the blocks do not fill the GPU, side by side with SDPA. Run as run_variants.py (--lib)."""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run_variants import harness, time_against_sdpa  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--lib", type=Path, required=True)
args = ap.parse_args()
lib = harness.Library(args.lib / "libattention_variants.so", args.lib / "attention_variants.h")
for causal in (1, 0):
    names = sorted(n for n in lib.launchers if n.startswith(f"d64_c{causal}_"))
    for b, h, lq in ((1, 12, 1024), (4, 12, 1024), (1, 12, 4096), (1, 32, 1024)):
        t = time_against_sdpa(lib, names, b, h, lq, 64, causal, calls=10, reps=15)
        line = " ".join(f"{n[7:]}={t['sdpa'] / t[n]:.2f}" for n in names)
        print(f"causal={causal} B={b} H={h} L={lq} SDPA {t['sdpa'] * 1e3:.1f} us: {line}", flush=True)
