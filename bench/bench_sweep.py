"""Shape sweep over graphs written as users write them (bench/sweep/*.hds: every
size symbolic, no tune cache, default schedules): GEMMs (f16, bf16 on the sm_90a
target, f16 on the default target, f32) for M from 1 to 8192 over LLM-like
(K, N) pairs and sizes that are not multiples of 8; row ops over N from 61 to
128256 with at least 64 MB moved; a Llama MLP over token counts; attention
(heads of 64 and 128, causal or not) over sequence lengths 512 to 16k and
decoding against caches of 1k to 32k keys, against SDPA. Each point is
timed side by side with its reference in one process (alternating samples,
CUDA-graph replay: the GPU's time), as a ratio (> 1: hds is faster). GEMV-like
points (M <= 16) also give the weight read as a fraction of copy bandwidth.

    python3 bench/bench_sweep.py --out DIR [--only gemm|rows|mlp|attention ...] [--quick]

Writes DIR/sweep.json and DIR/sweep.md; bench/plot_sweep.py draws DIR/sweep.png.
"""
from __future__ import annotations

import argparse
import datetime
import math
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms, write_table  # noqa: E402

COPY_GBPS = None  # measured once: a device-to-device copy, bytes read + written


def copy_gbps() -> float:
    global COPY_GBPS
    if COPY_GBPS is None:
        src = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
        dst = torch.empty_like(src)
        ms = graphs_ms({"copy": lambda s: dst.copy_(src)}, calls=10, reps=10)["copy"]
        COPY_GBPS = 2 * src.numel() / ms / 1e6
    return COPY_GBPS


class Point:
    """One graph at one set of sizes: hds's run and the references, timed side by side."""

    def __init__(self, graph: harness.Graph, tensors: dict, sizes: dict):
        self.graph, self.tensors, self.sizes = graph, tensors, sizes
        self.ws = graph.workspace(sizes)
        self.args = graph.args(tensors, sizes)

    def run(self, stream):
        err = self.graph.run_fn(*self.args, self.ws.data_ptr(), stream)
        if err:
            raise RuntimeError(f"{self.graph.name}_run failed with {err}")


def rel_err(out, ref) -> float:
    return float((out.double() - ref.double()).norm() / max(ref.double().norm(), 1e-30))


def time_point(p: Point, refs: dict) -> dict:
    fns = {"hds": p.run}
    for name, fn in refs.items():
        fns[name] = lambda s, fn=fn: fn()
    return graphs_ms(fns, calls=10, reps=15)


# (K, N): square, Llama-2's MLP both ways, odd sizes, Llama-3's q, k, v as one product (N = 6144:
# 67-132 tiles of 64 columns, which the others step over), and GPT-2's vocabulary projection (a
# short K against 50257 columns: bench/results/2026-12-03-h200-lm-head); M = 160 between the
# swapped product's 128 rows and the 64 x 128 tiles (bench/results/2026-11-28-h200-swap-192, -swap-wide).
GEMM_SHAPES = [(4096, 4096), (4096, 11008), (11008, 4096), (4095, 4097), (4096, 6144), (768, 50257)]
GEMM_M = [1, 16, 48, 77, 128, 160, 512, 2048, 8192]


def sweep_gemm(rows: list, quick: bool):
    torch.backends.cuda.matmul.allow_tf32 = False
    plans = [("gemm_f16", torch.float16, GEMM_SHAPES, GEMM_M),
             ("gemm_bf16", torch.bfloat16, GEMM_SHAPES[:2], GEMM_M),
             ("gemm_f16_default", torch.float16, GEMM_SHAPES[:1], [1, 77, 128, 512, 2048]),
             ("gemm_f32", torch.float32, [(4096, 4096), (1000, 1003), (4096, 11008)],
              [1, 16, 32, 77, 128, 256, 1024, 4096])]
    for name, dtype, shapes, ms in plans:
        graph = harness.build_graph(f"bench/sweep/sweep_{name}.hds")
        for k, n in shapes[:2] if quick else shapes:
            b = torch.randn(k, n, device="cuda", dtype=dtype) / math.sqrt(k)
            for m in ms[::2] if quick else ms:
                a = torch.randn(m, k, device="cuda", dtype=dtype)
                out = torch.empty(m, n, device="cuda", dtype=dtype)
                p = Point(graph, {"a": a, "b": b, "out": out}, {"M": m, "K": k, "N": n})
                p.run(torch.cuda.current_stream().cuda_stream)
                torch.cuda.synchronize()
                err = rel_err(out, torch.matmul(a.double(), b.double()))
                t = time_point(p, {"cublas": lambda: torch.matmul(a, b)})
                flops = 2.0 * m * n * k
                row = {"sweep": name, "M": m, "K": k, "N": n, "hds_us": t["hds"] * 1e3,
                       "ref": "cuBLAS", "ref_us": t["cublas"] * 1e3, "ratio": t["cublas"] / t["hds"],
                       "hds_TFLOPs": flops / t["hds"] / 1e9, "rel_err": err}
                if m <= 16:  # bound by reading b: the fraction of copy bandwidth (bytes read / time)
                    row["weight_read_of_copy_bw"] = b.numel() * b.element_size() / t["hds"] / 1e6 / copy_gbps()
                rows.append(row)
                print(f"{name} M={m} K={k} N={n}: {row['ratio']:.2f}x cuBLAS", flush=True)


# Lengths that are multiples of nothing (61, 50257: GPT-2's vocabulary) and of 2 bytes only in f16
# (126, 250, 510: N % 4 == 2, where hds trailed torch.compile; bench/results/2026-11-29-h200-f16-fours)
# beside the round ones.
ROW_N = [61, 126, 250, 510, 1000, 4096, 8192, 32768, 50257, 128256]


def compiled(fn):
    import torch._dynamo
    torch._dynamo.config.cache_size_limit = 64
    return torch.compile(fn, dynamic=False)


def row_inputs(name: str, x, g, b) -> dict:
    """The inputs of the row sweep's graph `name` (softmax_f32, layer_norm_f32, rms_norm_f16)."""
    return {"x": x} | ({"g": g} if name != "softmax_f32" else {}) | ({"b": b} if name == "layer_norm_f32" else {})


def row_reference(name: str, x, g, b):
    """torch eager's version of the row sweep's graph `name`, as a function of no arguments."""
    n = x.shape[-1]
    if name == "softmax_f32":
        return lambda: torch.softmax(x, -1)
    if name == "layer_norm_f32":
        return lambda: torch.nn.functional.layer_norm(x, (n,), g, b, 1e-5)

    def rms_norm():
        xf = x.float()
        return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(x.dtype)
    return rms_norm


def sweep_rows(rows: list, quick: bool):
    for name, dtype in (("softmax_f32", torch.float32), ("layer_norm_f32", torch.float32),
                        ("rms_norm_f16", torch.float16)):
        graph = harness.build_graph(f"bench/sweep/sweep_{name}.hds")
        for n in ROW_N[::2] if quick else ROW_N:
            # At least 64 MB read and written, and at least 4 rows.
            r = max(4, (64 << 20) // (2 * n * torch.tensor([], dtype=dtype).element_size()))
            x = torch.randn(r, n, device="cuda", dtype=dtype)
            g = torch.randn(n, device="cuda", dtype=dtype)
            b = torch.randn(n, device="cuda", dtype=dtype)
            out = torch.empty_like(x)
            tensors = row_inputs(name, x, g, b) | {"out": out}
            eager = row_reference(name, x, g, b)
            comp = compiled(eager)
            p = Point(graph, tensors, {"R": r, "N": n})
            p.run(torch.cuda.current_stream().cuda_stream)
            torch.cuda.synchronize()
            err = rel_err(out, eager())
            comp()
            t = time_point(p, {"eager": eager, "compile": comp})
            moved = 2 * x.numel() * x.element_size()
            rows.append({"sweep": name, "R": r, "N": n, "hds_us": t["hds"] * 1e3, "ref": "torch.compile",
                         "ref_us": t["compile"] * 1e3, "ratio": t["compile"] / t["hds"],
                         "eager_ratio": t["eager"] / t["hds"], "of_copy_bw": moved / t["hds"] / 1e6 / copy_gbps(),
                         "rel_err": err})
            print(f"{name} R={r} N={n}: {rows[-1]['ratio']:.2f}x torch.compile, "
                  f"{rows[-1]['of_copy_bw']:.2f} of copy bandwidth", flush=True)


MLP_T = [1, 16, 128, 512, 2048, 4096]


def mlp_eager(g, wg, wu, wd):
    """The Llama MLP in torch (what sweep_llama_mlp.hds computes), for x of g's dtype."""

    def eager(x):
        xf = x.float()
        h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(x.dtype)
        return x + (torch.nn.functional.silu(h @ wg) * (h @ wu)) @ wd

    return eager


def sweep_mlp(rows: list, quick: bool, d: int = 4096, f: int = 11008):
    graph = harness.build_graph("bench/sweep/sweep_llama_mlp.hds")
    dt = torch.float16
    g = torch.rand(d, device="cuda", dtype=dt) + 0.5
    wg = torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d)
    wu = torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d)
    wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)

    eager = mlp_eager(g, wg, wu, wd)
    comp = compiled(eager)
    for t_ in MLP_T[::2] if quick else MLP_T:
        x = torch.randn(t_, d, device="cuda", dtype=dt)
        out = torch.empty_like(x)
        p = Point(graph, {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd, "out": out}, {"T": t_, "D": d, "F": f})
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, eager(x))
        comp(x)
        t = time_point(p, {"eager": lambda: eager(x), "compile": lambda: comp(x)})
        rows.append({"sweep": "llama_mlp", "T": t_, "D": d, "F": f, "hds_us": t["hds"] * 1e3, "ref": "torch.compile",
                     "ref_us": t["compile"] * 1e3, "ratio": t["compile"] / t["hds"],
                     "eager_ratio": t["eager"] / t["hds"], "rel_err": err})
        print(f"llama_mlp T={t_}: {rows[-1]['ratio']:.2f}x torch.compile", flush=True)


# Prefill as FlashAttention-3's paper measures it: 16k tokens (B = 16384 / L), H * D = 2048.
ATTN_L = [512, 1024, 2048, 4096, 8192, 16384]
ATTN_DECODE_S = [1024, 4096, 16384, 32768]


def sweep_attention(rows: list, quick: bool, match: str = ""):
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    # sm_90a graphs (wgmma), and the sm_80 schedule (mma.sync) run on the same GPU; the
    # grouped-query ones (8 query heads per key/value head: 64 over 8, as Llama-2/3 70B).
    plans = [("attention_d64", torch.float16, 64, False, 1), ("attention_d64_causal", torch.float16, 64, True, 1),
             ("attention_d128", torch.float16, 128, False, 1), ("attention_d128_causal", torch.float16, 128, True, 1),
             ("attention_d128_bf16", torch.bfloat16, 128, False, 1),
             ("attention_d64_sm80", torch.float16, 64, False, 1), ("attention_d128_sm80", torch.float16, 128, False, 1),
             ("attention_gqa_d64", torch.float16, 64, False, 8), ("attention_gqa_d128", torch.float16, 128, False, 8)]
    for name, dtype, d, causal, per_group in plans:
        if match not in name:
            continue
        graph = harness.build_graph(f"bench/sweep/sweep_{name}.hds")
        h = 2048 // d
        shapes = [(16384 // n, h, n, n) for n in (ATTN_L[::2] if quick else ATTN_L)]
        if per_group > 1:  # prefill at 4k tokens, then decode
            shapes = [(4, h, 4096, 4096)]
        if not causal:  # decode: one query against a cache, 64 heads (batch 1)
            shapes += [(1, 64, 1, s) for s in (ATTN_DECODE_S[::2] if quick else ATTN_DECODE_S)]
        if per_group > 1:  # and small batches of them against 16k keys (16 to 32 key/value heads)
            shapes += [(b, 64, 1, 16384) for b in (2, 3, 4)]
        for b, heads, lq, lk in shapes:
            groups = heads // per_group
            q = torch.randn(b, heads, lq, d, device="cuda", dtype=dtype)
            k = torch.randn(b, groups, lk, d, device="cuda", dtype=dtype)
            v = torch.randn(b, groups, lk, d, device="cuda", dtype=dtype)
            out = torch.empty_like(q)
            sizes = {"B": b, "H": heads, "L": lq, "M": lk} | ({"G": groups} if per_group > 1 else {})
            p = Point(graph, {"q": q, "k": k, "v": v, "out": out}, sizes)
            p.run(torch.cuda.current_stream().cuda_stream)
            torch.cuda.synchronize()

            def sdpa():
                return F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=d ** -0.5,
                                                      enable_gqa=per_group > 1)

            # Issue 24's reference is SDPA's flash backend (FlashAttention-2); SDPA's default
            # picks cuDNN's sm90 kernel on Hopper where it can (FlashAttention-3-class, 1.4-1.8x
            # the flash backend: bench/results/2026-11-27-h200-reference-kernels). Both are timed.
            def sdpa_flash():
                with sdpa_kernel(SDPBackend.FLASH_ATTENTION):
                    return sdpa()
            err = rel_err(out, sdpa())
            refs = {"sdpa": sdpa}
            try:
                sdpa_flash()
                refs["flash"] = sdpa_flash
            except RuntimeError:  # a shape the flash backend does not take
                pass
            t = time_point(p, refs)
            flops = 4.0 * b * heads * lq * lk * d / (2 if causal else 1)
            row = {"sweep": name, "B": b, "H": heads, "G": groups, "L": lq, "S": lk, "D": d,
                   "hds_us": t["hds"] * 1e3, "ref": "SDPA", "ref_us": t["sdpa"] * 1e3, "ratio": t["sdpa"] / t["hds"],
                   "hds_TFLOPs": flops / t["hds"] / 1e9, "ref_TFLOPs": flops / t["sdpa"] / 1e9, "rel_err": err}
            if "flash" in t:
                row |= {"flash_us": t["flash"] * 1e3, "flash_ratio": t["flash"] / t["hds"]}
            if lq == 1:  # bound by reading k and v: the fraction of copy bandwidth
                row["kv_read_of_copy_bw"] = 2 * k.numel() * k.element_size() / t["hds"] / 1e6 / copy_gbps()
            rows.append(row)
            print(f"{name} B={b} H={heads} G={groups} L={lq} S={lk}: {row['ratio']:.2f}x SDPA, "
                  + (f"{row['flash_ratio']:.2f}x its flash backend, " if "flash_ratio" in row else "")
                  + f"{row['hds_TFLOPs']:.0f} against {row['ref_TFLOPs']:.0f} TFLOP/s"
                  + (f", {row['kv_read_of_copy_bw']:.2f} of copy BW" if lq == 1 else ""), flush=True)


def size_text(r: dict) -> str:
    return " ".join(f"{k}={r[k]}" for k in ("M", "K", "N", "R", "T", "B", "H", "G", "L", "S", "D", "F") if k in r)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--only", nargs="*", default=["gemm", "rows", "mlp", "attention"])
    ap.add_argument("--quick", action="store_true", help="every other size")
    ap.add_argument("--match", default="", help="only the attention graphs whose name contains this")
    args = ap.parse_args()
    # nvcc builds the graphs in parallel first (harness.build_graph caches them).
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(8) as pool:
        prefixes = {"gemm": ("gemm",), "rows": ("softmax", "layer_norm", "rms_norm"), "mlp": ("llama_mlp",),
                    "attention": ("attention",)}
        wanted = tuple(f"sweep_{p}" for part in args.only for p in prefixes[part])
        sources = sorted(f for f in (ROOT / "bench" / "sweep").glob("*.hds") if f.stem.startswith(wanted))
        list(pool.map(lambda f: harness.build_graph(f), sources))
    rows: list = []
    for part in args.only:
        if part == "attention":
            sweep_attention(rows, args.quick, args.match)
        else:
            {"gemm": sweep_gemm, "rows": sweep_rows, "mlp": sweep_mlp}[part](rows, args.quick)
    meta = {"device": torch.cuda.get_device_name(), "date": datetime.date.today().isoformat(),
            "torch": torch.__version__, "copy_GBps": copy_gbps(),
            "note": "untuned defaults: symbolic sizes, no tune cache; GPU time (CUDA-graph replay), alternating samples"}
    cols = [("sweep", lambda r: r["sweep"]), ("sizes", size_text),
            ("hds µs", lambda r: f"{r['hds_us']:.1f}"), ("reference", lambda r: r["ref"]),
            ("ref µs", lambda r: f"{r['ref_us']:.1f}"), ("ratio", lambda r: f"{r['ratio']:.2f}"),
            ("vs eager", lambda r: f"{r['eager_ratio']:.2f}" if "eager_ratio" in r else ""),
            ("vs SDPA flash", lambda r: f"{r['flash_ratio']:.2f}" if "flash_ratio" in r else ""),
            ("of copy BW", lambda r: next((f"{r[k]:.2f}" for k in ("weight_read_of_copy_bw", "of_copy_bw",
                                                                  "kv_read_of_copy_bw") if k in r), "")),
            ("rel err", lambda r: f"{r['rel_err']:.1e}")]
    write_table(args.out, "sweep", rows, cols, meta)


if __name__ == "__main__":
    main()
