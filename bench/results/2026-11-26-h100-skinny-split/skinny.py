"""matmul_skinny_split against the schedules it replaces (matmul_skinny, 64 x 256 wgmma) and
cuBLAS at M <= 16 (issue 23: decode GEMMs, bound by reading b): each kernel of skinny.hds
timed beside cuBLAS (CUDA-graph replay, one process), with the fraction of copy bandwidth
at which it reads b.

    python3 skinny.py OUT_DIR [skinny|wgsplit]
"""
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(ROOT / "tests" / "gpu"), str(ROOT / "bench")]
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402

# Which kernels at which M: run 1-2 (skinny.json) the first list; run 3-4 (wgsplit.json) the
# second (the wgmma split against matmul_skinny at M <= 16; 64- against 128-row tiles past 64).
PLANS = {
    "skinny": [(torch.float16, ["old", "gemv", "wide", "s128_4_1", "s128_4_2", "s128_4_3", "s128_3_3", "s128_6_2",
                                "s256_4_1", "s256_4_2"], (1, 4, 16)),
               (torch.bfloat16, ["old_bf16", "s128_4_2_bf16"], (1, 4, 16))],
    "wgsplit": [(torch.float16, ["old", "wide", "s128_3_3", "wgsplit"], (1, 2, 4, 8, 16, 32, 48)),
                (torch.float16, ["wgsplit", "wgsplit128", "wg64x128", "wg128"], (65, 77, 96, 128)),
                (torch.bfloat16, ["old_bf16", "wgsplit_bf16"], (1, 16))],
    # run 9-10 (abox.json): the boxes of 8 to 32 rows (ABOX = 1) against one of BM rows.
    "abox": [(torch.float16, ["old", "wgsplit", "wgsplit_box", "wg64x128", "wg64x128_box", "wide", "wide_box"],
              (1, 8, 16, 32, 48, 65, 128))],
}
KN = [(4096, 4096), (4096, 11008), (11008, 4096), (4096, 14336), (14336, 4096), (4096, 1024),
      (768, 2304), (768, 768), (3072, 768), (2048, 2048), (1000, 1008)]


def copy_gbps() -> float:
    src = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    ms = graphs_ms({"copy": lambda s: dst.copy_(src)}, calls=10, reps=10)["copy"]
    return 2 * src.numel() / ms / 1e6


def main():
    out = Path(sys.argv[1])
    plan = sys.argv[2] if len(sys.argv) > 2 else "skinny"
    lib = harness.build(HERE / "skinny.hds")
    bw = copy_gbps()
    rows = []
    for dtype, kernels, ms in PLANS[plan]:
        for k, n in KN[:3] if dtype == torch.bfloat16 or plan == "abox" else KN:
            b = torch.randn(k, n, device="cuda", dtype=dtype) / k ** 0.5
            for m in ms:
                a = torch.randn(m, k, device="cuda", dtype=dtype)
                c = torch.empty(m, n, device="cuda", dtype=dtype)
                ref = torch.matmul(a.float(), b.float())
                fns = {"cublas": lambda s: torch.matmul(a, b)}
                for name in kernels:
                    fn = lib.launchers[name].fn
                    args = [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]
                    c.fill_(float("nan"))
                    assert fn(*args, None) == 0, name
                    torch.cuda.synchronize()
                    err = float((c.float() - ref).norm() / ref.norm())
                    assert err < 1e-2, (name, err)
                    fns[name] = lambda s, fn=fn, args=args: fn(*args, s)
                t = graphs_ms(fns, calls=10, reps=21)
                row = {"dtype": str(dtype), "M": m, "K": k, "N": n, "cublas_us": t["cublas"] * 1e3,
                       "copy_gbps": bw, **{f"{x}": t["cublas"] / t[x] for x in kernels},
                       **{f"{x}_bw": b.numel() * b.element_size() / t[x] / 1e6 / bw for x in kernels}}
                rows.append(row)
                best = max(kernels, key=lambda x: row[x])
                print(f"{dtype} M={m} K={k} N={n}: cublas {row['cublas_us']:.1f}us "
                      + " ".join(f"{x} {row[x]:.2f}" for x in kernels) + f"  best {best} ({row[best + '_bw']:.2f} bw)",
                      flush=True)
    (out / f"{plan}.json").write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
