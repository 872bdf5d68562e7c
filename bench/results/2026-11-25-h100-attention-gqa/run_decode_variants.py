"""Times the stage counts of attention_decode.hds (decode_variants.hds) side by side with SDPA
on decoding shapes: one query per head against caches of 1k to 32k keys, 64 query heads over
8 key/value heads (grouped) and over 64 (multi-head), after checking each against SDPA. From
the repository root on the GPU machine, after scripts/emit_for_device.sh and emitting
decode_variants.hds into .devcarry/emitted:

    python3 bench/results/2026-11-25-h100-attention-gqa/run_decode_variants.py --out DIR
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
    lib = harness.build(HERE / "decode_variants.hds")
    src = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    copy_gbps = 2 * src.numel() / graphs_ms({"copy": lambda s: dst.copy_(src)}, calls=10, reps=10)["copy"] / 1e6
    rows = []
    for d in (64, 128):
        names = sorted(n for n in lib.launchers if n.startswith(f"dec_d{d}_"))
        for groups in (8, 64):
            for s_len in (1024, 4096, 16384, 32768):
                h = 64
                q = torch.randn(1, h, 1, d, device="cuda", dtype=torch.float16)
                k, v = (torch.randn(1, groups, s_len, d, device="cuda", dtype=torch.float16) for _ in range(2))
                gqa = groups != h

                def sdpa(s=None):
                    return F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5, enable_gqa=gqa)
                ref = sdpa()
                outs = {n: torch.full_like(q, float("nan")) for n in names}
                fns = {"sdpa": sdpa}
                for n in names:
                    fn = lib.launchers[n].fn
                    a = [q.data_ptr(), k.data_ptr(), v.data_ptr(), outs[n].data_ptr(), 1, h, 1, groups, s_len]
                    lib.check(fn(*a, None), n)
                    torch.cuda.synchronize()
                    err = float((outs[n].double() - ref.double()).norm() / ref.double().norm())
                    assert err < 2e-3, (n, err)
                    fns[n] = lambda s, fn=fn, a=a: fn(*a, s)
                t = graphs_ms(fns, calls=10, reps=15)
                kv_bytes = 2 * k.numel() * k.element_size()
                for n in names:
                    rows.append({"variant": n, "D": d, "G": groups, "S": s_len, "us": t[n] * 1e3,
                                 "sdpa_us": t["sdpa"] * 1e3, "ratio": t["sdpa"] / t[n],
                                 "of_copy_bw": kv_bytes / t[n] / 1e6 / copy_gbps})
                    print(f"{n} G={groups} S={s_len}: {rows[-1]['ratio']:.2f}x SDPA, "
                          f"{rows[-1]['of_copy_bw']:.2f} of copy BW", flush=True)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "decode_variants.json").write_text(json.dumps(
        {"device": torch.cuda.get_device_name(), "copy_GBps": copy_gbps, "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
