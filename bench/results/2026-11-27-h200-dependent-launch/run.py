"""Programmatic dependent launch between a graph's kernels, side by side: the sweep's graphs as
build.sh emits them with it (`pdl`) and without (`plain`), with the reference, in one process,
alternating samples, CUDA-graph replay (ten calls a graph, back to back). Graphs of one kernel
(rms_norm, the GEMM) launch their first kernel plainly either way: they are the control. On the
GPU machine, with .devcarry carried:

    python3 bench/results/2026-11-27-h200-dependent-launch/run.py --out DIR
"""
import argparse
import json
import math
import os
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_core import graphs_ms  # noqa: E402
from bench_sweep import Point, compiled, copy_gbps, rel_err  # noqa: E402

SETS = (ROOT / ".devcarry" / "pdl" / "sets").read_text().split()


def graphs(name):
    out = {}
    for s in SETS:
        os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "pdl" / s)
        out[s] = harness.build_graph(ROOT / "bench" / "sweep" / f"{name}.hds")
    return out


def timed(gs, inputs, sizes, out, ref_out, refs, tol):
    fns = dict(refs)
    for name, graph in gs.items():
        out.fill_(float("nan"))
        p = Point(graph, inputs | {"out": out}, sizes)
        p.run(torch.cuda.current_stream().cuda_stream)
        torch.cuda.synchronize()
        err = rel_err(out, ref_out)
        assert err < tol, (name, sizes, err)
        fns[name] = p.run
    return graphs_ms(fns, calls=10, reps=15)


def row(kind, params, t, ref, run):
    r = {"kind": kind, **params, "run": run, **{f"{x}_us": y * 1e3 for x, y in t.items()}}
    r |= {f"{s}_ratio": t[ref] / t[s] for s in SETS}
    print(f"run{run} {kind} {params}: {ref} {t[ref] * 1e3:.1f} us; " +
          " ".join(f"{s} {t[s] * 1e3:.1f} us {t[ref] / t[s]:.3f}x" for s in SETS), flush=True)
    return r


def mlp(gs, run, d=4096, f=11008):
    dt = torch.float16
    g = torch.rand(d, device="cuda", dtype=dt) + 0.5
    wg, wu = (torch.randn(d, f, device="cuda", dtype=dt) / math.sqrt(d) for _ in range(2))
    wd = torch.randn(f, d, device="cuda", dtype=dt) / math.sqrt(f)

    def eager(x):
        xf = x.float()
        h = (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(dt)
        return x + (F.silu(h @ wg) * (h @ wu)) @ wd
    comp = compiled(eager)
    rows = []
    for t_ in (1, 4, 16, 64, 128, 512):
        x = torch.randn(t_, d, device="cuda", dtype=dt)
        comp(x)
        t = timed(gs, {"x": x, "g": g, "wg": wg, "wu": wu, "wd": wd}, {"T": t_, "D": d, "F": f},
                  torch.empty_like(x), eager(x), {"compile": lambda s: comp(x)}, 2e-2)
        rows.append(row("llama_mlp", {"T": t_}, t, "compile", run))
    return rows


def decode(gs, d, run):
    rows = []
    for b, s in ((1, 4096), (1, 16384), (1, 32768), (4, 4096), (4, 16384)):
        q = torch.randn(b, 64, 1, d, device="cuda", dtype=torch.float16)
        k, v = (torch.randn(b, 8, s, d, device="cuda", dtype=torch.float16) for _ in range(2))

        def sdpa():
            return F.scaled_dot_product_attention(q, k, v, scale=d ** -0.5, enable_gqa=True)
        t = timed(gs, {"q": q, "k": k, "v": v}, {"B": b, "H": 64, "G": 8, "L": 1, "M": s},
                  torch.empty_like(q), sdpa(), {"sdpa": lambda st: sdpa()}, 2e-3)
        r = row("decode_gqa", {"D": d, "B": b, "S": s}, t, "sdpa", run)
        kv = 2 * k.numel() * k.element_size()
        r |= {f"{x}_of_copy_bw": kv / (r[f"{x}_us"] * 1e-6) / 1e9 / copy_gbps() for x in SETS + ["sdpa"]}
        rows.append(r)
    return rows


def controls(rms, gemm, run):
    rows = []
    for n in (4096, 8192):
        x = torch.randn(4096, n, device="cuda", dtype=torch.float16)
        g = torch.randn(n, device="cuda", dtype=torch.float16)

        def ref():
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(x.dtype)
        t = timed(rms, {"x": x, "g": g}, {"R": 4096, "N": n}, torch.empty_like(x), ref(), {"eager": lambda s: ref()},
                  1e-2)
        rows.append(row("rms_norm", {"N": n}, t, "eager", run))
    b = torch.randn(4096, 4096, device="cuda", dtype=torch.float16) / 64
    for m in (1, 16):
        a = torch.randn(m, 4096, device="cuda", dtype=torch.float16)
        t = timed(gemm, {"a": a, "b": b}, {"M": m, "K": 4096, "N": 4096}, torch.empty(m, 4096, device="cuda",
                  dtype=torch.float16), a @ b, {"cublas": lambda s: a @ b}, 1e-2)
        rows.append(row("gemm_f16", {"M": m}, t, "cublas", run))
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    gs = {n: graphs(n) for n in ("sweep_llama_mlp", "sweep_attention_gqa_d64", "sweep_attention_gqa_d128",
                                 "sweep_rms_norm_f16", "sweep_gemm_f16")}
    rows = []
    for run in (1, 2):
        rows += mlp(gs["sweep_llama_mlp"], run)
        rows += decode(gs["sweep_attention_gqa_d64"], 64, run)
        rows += decode(gs["sweep_attention_gqa_d128"], 128, run)
        rows += controls(gs["sweep_rms_norm_f16"], gs["sweep_gemm_f16"], run)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "dependent_launch.json").write_text(json.dumps(rows, indent=1))
