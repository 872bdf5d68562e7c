"""Tensor-core GEMMs side by side with cuBLAS (torch.matmul) in the same
process, f16 and bf16: the sm_90a TMA + wgmma schedule (examples/matmul_hopper.hds)
and the sm_80 mma.sync one (examples/matmul_tc.hds); plus the fp32 SIMT GEMM
vs cuBLAS fp32 (TF32 off). Medians of CUDA events, each kernel's samples
alternating with cuBLAS's (bench_core.graphs_ms).

    python3 bench/bench_gemm_tc.py --out DIR      (needs a GPU and torch)
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms, write_table  # noqa: E402

SHAPES = [(4096, 4096, 4096, torch.float16), (4096, 4096, 4096, torch.bfloat16), (1024, 1024, 1024, torch.float16),
          (128, 4096, 4096, torch.float16), (4096, 4096, 4096, torch.float32)]


VARIANTS = {"mma_stages": ("mma_s2", "mma_s3", "mma_s4"),
            "wgmma_tiles": ("wgmma_s4_n256", "wgmma_s3_n256", "wgmma_s4_n128", "wgmma_s6_n128", "wgmma_s4_n128_m64",
                            "wgmma_s4_n256_p", "wgmma_s4_n128_m64_p", "wgmma_s4_n256_c2",
                            "wgmma_s4_n256_c2_p", "wgmma_s4_n128_c2", "wgmma_s4_n128_m64_c2",
                            "wgmma_s4_n64_m64", "wgmma_s4_n64", "wgmma_s4_n64_m64_c2", "wgmma_s6_n64_m64",
                            "wgmma_s8_n64_m64", "wgmma_s6_n128_m64")}


def variant_rows():
    """Schedule parameters, f16: the mma.sync GEMM's pipeline depth (2, 3, 4
    stages), the wgmma GEMM's depth and block tile (bench/tc_variants)."""
    rows = []
    for m, n, k in [(4096, 4096, 4096), (1024, 1024, 1024), (128, 4096, 4096)]:
        a = torch.randn(m, k, device="cuda").half()
        b = torch.randn(k, n, device="cuda").half()
        c = torch.empty(m, n, device="cuda", dtype=torch.float16)
        ref = torch.matmul(a, b).float()
        for source, names in VARIANTS.items():
            rows += variant_shape_rows(harness.build(f"bench/tc_variants/{source}.hds"), names, a, b, c, ref)
    return rows


def variant_shape_rows(lib, names, a, b, c, ref):
    """Each variant timed beside cuBLAS, and its result compared with cuBLAS's (relative error)."""
    (m, k), n = a.shape, b.shape[1]
    rows = []
    for kernel in names:
        fn = lib.launchers[kernel].fn
        args = [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]
        c.fill_(float("nan"))
        assert fn(*args, None) == 0
        err = float((c.float() - ref).norm() / ref.norm())
        times = graphs_ms({"hds": lambda s: fn(*args, s), "ref": lambda s: torch.matmul(a, b)})
        t, t_ref = times["hds"], times["ref"]
        rows.append({"shape": f"{m}x{n}x{k}", "dtype": "float16", "kernel": kernel, "hds_ms": t, "cublas_ms": t_ref,
                     "hds_tflops": 2.0 * m * n * k / t / 1e9, "cublas_tflops": 2.0 * m * n * k / t_ref / 1e9,
                     "vs_cublas": t_ref / t, "rel_err": err})
    return rows


def tuned_rows():
    """The GEMM graphs of bench/tune compiled with bench/hds-tune.json (the
    schedule `hdsc tune` chose for each shape), f16 and bf16, vs cuBLAS."""
    rows = []
    for m, n, k, dtype in [(4096, 4096, 4096, torch.float16), (4096, 4096, 4096, torch.bfloat16),
                           (1024, 1024, 1024, torch.float16), (128, 4096, 4096, torch.float16)]:
        prefix = "gemm_bf16" if dtype == torch.bfloat16 else "gemm"
        graph = harness.build_graph(f"bench/tune/{prefix}_{m}x{n}x{k}.hds")
        a = torch.randn(m, k, device="cuda").to(dtype)
        b = torch.randn(k, n, device="cuda").to(dtype)
        c = torch.empty(m, n, device="cuda", dtype=dtype)
        args = graph.args({"a": a, "b": b, "out": c}, {})
        run = lambda s=0: graph.run_fn(*args, None, s)
        assert run() == 0
        torch.cuda.synchronize()
        ref = a.double() @ b.double()
        err = float((c.double() - ref).norm() / ref.norm())
        times = graphs_ms({"hds": run, "ref": lambda s: torch.matmul(a, b)})
        t, t_ref = times["hds"], times["ref"]
        rows.append({"shape": f"{m}x{n}x{k}", "dtype": str(dtype).removeprefix("torch."), "kernel": "tuned graph", "hds_ms": t,
                     "cublas_ms": t_ref, "hds_tflops": 2.0 * m * n * k / t / 1e9,
                     "cublas_tflops": 2.0 * m * n * k / t_ref / 1e9, "vs_cublas": t_ref / t, "rel_err": err})
        print(json.dumps(rows[-1]), flush=True)
    return rows


def kernels(dtype):
    """(example, kernel) pairs measured for a dtype."""
    if dtype == torch.float32:
        return [("matmul_tiled", "matmul_tiled")]
    suffix = "f16" if dtype == torch.float16 else "bf16"
    return [("matmul_hopper", f"matmul_wgmma_{suffix}"), ("matmul_tc", f"matmul_mma_{suffix}")]


def row(m, n, k, dtype, example, kernel):
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.randn(m, k, device="cuda").to(dtype)
    b = torch.randn(k, n, device="cuda").to(dtype)
    c = torch.empty(m, n, device="cuda", dtype=dtype)
    lib = harness.build(f"examples/{example}.hds")
    fn = lib.launchers[kernel].fn
    args = [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]
    assert fn(*args, None) == 0
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    err = float((c.double() - ref).norm() / ref.norm())
    times = graphs_ms({"hds": lambda s: fn(*args, s), "ref": lambda s: torch.matmul(a, b)})
    t_hds, t_ref = times["hds"], times["ref"]
    tflops = lambda ms: 2.0 * m * n * k / ms / 1e9
    return {"shape": f"{m}x{n}x{k}", "dtype": str(dtype).replace("torch.", ""), "kernel": kernel,
            "hds_ms": t_hds, "cublas_ms": t_ref, "hds_tflops": tflops(t_hds), "cublas_tflops": tflops(t_ref),
            "vs_cublas": t_ref / t_hds, "rel_err": err}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--variants-only", action="store_true", help="only the schedule variants (bench/tc_variants)")
    args = ap.parse_args()
    rows = []
    if not args.variants_only:
        for shape in SHAPES:
            for example, kernel in kernels(shape[3]):
                rows.append(row(*shape, example, kernel))
                print(json.dumps(rows[-1]), flush=True)
        rows += tuned_rows()
    rows += variant_rows()
    write_table(args.out, "gemm", rows, [
        ("shape", lambda r: r["shape"]), ("dtype", lambda r: r["dtype"]), ("kernel", lambda r: r["kernel"]),
        ("hds TFLOP/s", lambda r: f"{r['hds_tflops']:.0f}"), ("cuBLAS TFLOP/s", lambda r: f"{r['cublas_tflops']:.0f}"),
        ("vs cuBLAS", lambda r: f"{r['vs_cublas']:.2f}x"), ("rel err", lambda r: f"{r['rel_err']:.1e}")])

if __name__ == "__main__":
    main()
