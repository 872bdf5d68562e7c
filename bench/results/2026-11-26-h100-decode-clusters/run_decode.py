"""Times the variants of decode_variants.hds side by side with SDPA on one-query decoding
(L = 1) against caches of S = 1k … 32k keys, grouped 8:1 (the sweep's B = 1, H = 64, G = 8) and
not, after checking each against float64 on odd sizes. From the repository root on the GPU:

    python3 bench/results/2026-11-26-h100-decode-clusters/run_decode.py --out DIR --lib .devcarry/decode-variants

Runs 3 and 4 (the clusters of 4): --first-run 3 --heads "2,64,8 4,64,8 2,32,8 3,64,8".
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

SCALE = {64: 0.125, 128: 0.08838834764831845}


def args_of(q, k, v, o):
    b, h, lq, _ = q.shape
    return [q.data_ptr(), k.data_ptr(), v.data_ptr(), o.data_ptr(), b, h, lq, k.shape[1], k.shape[2]]


def inputs(b, h, g, lq, lk, d):
    q = torch.randn(b, h, lq, d, device="cuda", dtype=torch.float16)
    k, v = (torch.randn(b, g, lk, d, device="cuda", dtype=torch.float16) for _ in range(2))
    return q, k, v


def check(lib, names, d):
    for b, h, g, lq, lk in ((1, 64, 8, 1, 5000), (2, 4, 1, 3, 777), (1, 4, 4, 1, 33000), (3, 8, 2, 2, 1)):  # H / G * L <= 16
        q, k, v = inputs(b, h, g, lq, lk, d)
        kk, vv = (t.double().repeat_interleave(h // g, dim=1) for t in (k, v))
        ref = torch.softmax(q.double() @ kk.transpose(-1, -2) * SCALE[d], -1) @ vv
        for n in names:
            o = torch.full_like(q, float("nan"))
            lib.check(lib.launchers[n].fn(*args_of(q, k, v, o), None), n)
            torch.cuda.synchronize()
            err = float((o.double() - ref).norm() / ref.norm())
            assert err < 2e-3, (n, b, h, g, lq, lk, err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--lib", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--first-run", type=int, default=1)
    ap.add_argument("--heads", default="1,64,8 1,32,8 2,64,8 1,64,64", help="B,H,G triples")
    args = ap.parse_args()
    lib = harness.Library(args.lib / "libdecode_variants.so", args.lib / "decode_variants.h")
    groups = {d: sorted(n for n in lib.launchers if n.startswith(f"d{d}_")) for d in (64, 128)}
    for d, names in groups.items():
        check(lib, names, d)
    print("every variant agrees with float64", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    heads = [tuple(int(x) for x in t.split(",")) for t in args.heads.split()]
    for run in range(args.first_run, args.first_run + args.runs):
        rows = []
        for d, names in groups.items():
            for b, h, g in heads:
                for lk in (1024, 4096, 16384, 32768):
                    q, k, v = inputs(b, h, g, 1, lk, d)
                    outs = {n: torch.empty_like(q) for n in names}
                    fns = {"sdpa": lambda s: F.scaled_dot_product_attention(q, k, v, scale=SCALE[d],
                                                                            enable_gqa=h > g)}
                    for n in names:
                        fn, a = lib.launchers[n].fn, args_of(q, k, v, outs[n])
                        fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
                    t = graphs_ms(fns, calls=10, reps=15)
                    kv_bytes = 2 * b * g * lk * d * 2
                    for n in names:
                        rows.append({"variant": n, "D": d, "B": b, "H": h, "G": g, "S": lk, "us": t[n] * 1e3,
                                     "sdpa_us": t["sdpa"] * 1e3, "ratio": t["sdpa"] / t[n],
                                     "TBps": kv_bytes / t[n] / 1e9})
                    line = " ".join(f"{n}={t['sdpa'] / t[n]:.2f}({kv_bytes / t[n] / 1e9:.1f})" for n in names)
                    print(f"run{run} D={d} B={b} H={h} G={g} S={lk} SDPA {t['sdpa'] * 1e3:.1f}us: {line}", flush=True)
        (args.out / f"decode-run{run}.json").write_text(
            json.dumps({"device": torch.cuda.get_device_name(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
