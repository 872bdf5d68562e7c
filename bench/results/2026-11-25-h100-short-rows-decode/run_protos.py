"""Prototypes against the current kernels and the references, side by side in
one process (alternating samples, CUDA-graph replay), each table twice:
  - rms_norm f16 over short rows (N <= 64): the emitted kernel (rms_base.cu,
    8 threads per row, 32 rows per block) against copies whose N <= 64 branch
    gives each group of 8 threads 2 or 4 rows, every row's loads first;
  - M = 1 GEMMs: the sweep graphs against gemv_proto.cu (4 variants) and cuBLAS.
    python3 run_protos.py OUTDIR     (on the GPU machine, .devcarry/emitted present)
"""
import json, math, subprocess, sys, ctypes
from pathlib import Path
import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu")); sys.path.insert(0, str(ROOT / "bench"))
import harness
from bench_core import graphs_ms

out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
build = Path("/tmp/protos"); build.mkdir(exist_ok=True)

def nvcc_so(cu, name):
    so = build / f"lib{name}.so"
    subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-I", str(ROOT / "runtime"),
                    "-gencode", "arch=compute_90a,code=sm_90a", str(cu), "-o", str(so)], check=True)
    return so

import make_protos  # noqa: E402
make_protos.main()
rms = {name: harness.Graph(nvcc_so(HERE / f"{name}.cu", name), HERE / f"{name}.h")
       for name in ("rms_base", "rms_rpt2", "rms_staged")}
gemv = ctypes.CDLL(str(nvcc_so(HERE / "gemv_proto.cu", "gemv")))
gemv.gemv_proto.argtypes = [ctypes.c_int, ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
sweep = {t: harness.build_graph(ROOT / f"bench/sweep/sweep_gemm_{t}.hds") for t in ("f16", "f32")}
torch._dynamo.config.cache_size_limit = 64
results = []

def rel(o, r):
    if not torch.isfinite(o).all():
        return float("inf")  # an element left unwritten (NaN-poisoned)
    return float((o.double() - r.double()).norm() / r.double().norm())

def rows_table(run):
    for n in (61, 33, 37):
        r = (64 << 20) // (2 * n * 2)
        x = torch.randn(r, n, device="cuda", dtype=torch.float16)
        g = torch.randn(n, device="cuda", dtype=torch.float16)
        def eager():
            xf = x.float()
            return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6) * g.float()).to(x.dtype)
        comp = torch.compile(eager, dynamic=False); comp()
        fns, errs = {"compile": lambda s: comp()}, {}
        for name, gr in rms.items():
            o = torch.full_like(x, float("nan"))
            ws = gr.workspace({"R": r, "N": n})
            assert gr.run({"x": x, "g": g, "out": o}, {"R": r, "N": n}, ws) == 0
            torch.cuda.synchronize()
            errs[name] = rel(o, eager())
            fns[name] = lambda s, gr=gr, o=o, ws=ws: gr.run({"x": x, "g": g, "out": o}, {"R": r, "N": n}, ws, s)
        t = graphs_ms(fns, calls=10, reps=15)
        row = {"run": run, "table": "rms_norm_f16", "N": n, "R": r, **{k + "_us": v * 1e3 for k, v in t.items()},
               "errs": errs}
        results.append(row)
        print(f"run {run} rms f16 N={n} R={r}: " + "  ".join(f"{k} {v*1e3:.1f}us" for k, v in t.items())
              + "  vs compile: " + " ".join(f"{k} {t['compile']/t[k]:.2f}" for k in rms) + f"  errs {max(errs.values()):.1e}", flush=True)

def gemv_table(run):
    for tname, dt, shapes in (("f16", torch.float16, [(4095, 4097), (4096, 4096), (11008, 4096), (4096, 11008)]),
                              ("f32", torch.float32, [(4096, 4096), (1000, 1003), (4095, 4097)])):
        torch.backends.cuda.matmul.allow_tf32 = False
        for k, n in shapes:
            a = torch.randn(1, k, device="cuda", dtype=dt)
            b = torch.randn(k, n, device="cuda", dtype=dt) / math.sqrt(k)
            ref = a.double() @ b.double()
            gr = sweep[tname]
            o = torch.empty(1, n, device="cuda", dtype=dt)
            ws = gr.workspace({"M": 1, "K": k, "N": n})
            fns = {"hds": lambda s: gr.run({"a": a, "b": b, "out": o}, {"M": 1, "K": k, "N": n}, ws, s),
                   "cublas": lambda s: torch.matmul(a, b)}
            errs = {}
            for v in range(4):
                ov = torch.full((1, n), float("nan"), device="cuda", dtype=dt)
                assert gemv.gemv_proto(dt.itemsize, v, a.data_ptr(), b.data_ptr(), ov.data_ptr(), k, n, None) == 0
                torch.cuda.synchronize()
                errs[f"v{v}"] = rel(ov, ref)
                fns[f"v{v}"] = lambda s, v=v, ov=ov: gemv.gemv_proto(dt.itemsize, v, a.data_ptr(), b.data_ptr(), ov.data_ptr(), k, n, s)
            fns["hds"](0); torch.cuda.synchronize(); errs["hds"] = rel(o, ref)
            t = graphs_ms(fns, calls=10, reps=15)
            results.append({"run": run, "table": f"gemv_{tname}", "K": k, "N": n, **{x + "_us": y * 1e3 for x, y in t.items()},
                            "errs": errs})
            print(f"run {run} M=1 {tname} K={k} N={n}: " + "  ".join(f"{x} {y*1e3:.1f}" for x, y in t.items())
                  + "  vs cuBLAS: " + " ".join(f"{x} {t['cublas']/t[x]:.2f}" for x in t if x != "cublas")
                  + f"  errs {max(errs.values()):.1e}", flush=True)

parts = sys.argv[2:] or ["rows", "gemv"]
for run in (1, 2):
    if "rows" in parts:
        rows_table(run)
    if "gemv" in parts:
        gemv_table(run)
(out / "protos.json").write_text(json.dumps(results, indent=1))
