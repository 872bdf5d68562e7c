"""M = 1 f16 GEMMs: a prototype's variants against the sweep graph
(bench/sweep/sweep_gemm_f16.hds as emitted in .devcarry/emitted) and cuBLAS, side by side
in one process (alternating samples, CUDA-graph replay), twice.
    python3 run.py OUTDIR [proto1|proto2|proto3]     (on the GPU machine; default proto1)
"""
import ctypes, json, math, subprocess, sys
from pathlib import Path
import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu")); sys.path.insert(0, str(ROOT / "bench"))
import harness
from bench_core import graphs_ms
from bench_sweep import copy_gbps

out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
proto = sys.argv[2] if len(sys.argv) > 2 else "proto1"
so = Path(f"/tmp/gemv_{proto}.so")
source = "proto.cu" if proto == "proto1" else "proto23.cu"  # proto2, proto3: -DPROTO=2, 3
defines = [] if proto == "proto1" else [f"-DPROTO={proto[-1]}"]
subprocess.run(["nvcc", "-shared", "-Xcompiler", "-fPIC", "-std=c++17", "-O3", "-gencode", "arch=compute_90a,code=sm_90a",
                *defines, str(HERE / source), "-o", str(so)], check=True)
fn = getattr(ctypes.CDLL(str(so)), "gemv_" + proto)
fn.argtypes = [ctypes.c_int] + [ctypes.c_void_p] * 3 + [ctypes.c_int, ctypes.c_int, ctypes.c_void_p]
graph = harness.build_graph(ROOT / "bench/sweep/sweep_gemm_f16.hds")
VARIANTS = {"proto1": {0: "elem", 1: "vec_u4", 2: "vec_u8", 3: "shfl_u4", 4: "vec_u2"},
            "proto3": {0: "a1024", 1: "b4_nosplit", 2: "b4_396", 3: "b4_792", 4: "b16u4_132", 5: "b16u8_132", 6: "b8_264"},
            "proto2": {0: "a1024", 1: "b4_528", 2: "b4_1056", 3: "b8_264", 4: "b8_528", 5: "b16_132", 6: "b16_264"}}[proto]
SHAPES = {"proto1": [(4095, 4097), (4096, 4096), (4095, 11007), (11007, 4095), (4096, 11008), (1000, 1003), (8191, 8193)],
          "proto3": [(4095, 4097), (4096, 4096), (4096, 11008), (11008, 4096), (4095, 11007), (11007, 4095),
                     (4096, 14336), (14336, 4096), (1000, 1003), (4096, 1024), (4096, 32000), (8191, 8193)],
          "proto2": [(4095, 4097), (4096, 4096), (4096, 11008), (11008, 4096), (4095, 11007), (11007, 4095),
                     (4096, 14336), (14336, 4096), (1000, 1003), (4096, 1024), (4096, 32000), (8191, 8193)]}[proto]
results = []
for run in (1, 2):
    for k, n in SHAPES:
        a = torch.randn(1, k, device="cuda", dtype=torch.float16)
        b = torch.randn(k, n, device="cuda", dtype=torch.float16) / math.sqrt(k)
        ref = (a.double() @ b.double())
        o = torch.empty(1, n, device="cuda", dtype=torch.float16)
        sizes = {"M": 1, "K": k, "N": n}
        ws = graph.workspace(sizes)
        fns = {"hds": lambda s: graph.run({"a": a, "b": b, "out": o}, sizes, ws, s), "cublas": lambda s: torch.matmul(a, b)}
        errs = {}
        for v, name in VARIANTS.items():
            ov = torch.full((1, n), float("nan"), device="cuda", dtype=torch.float16)
            assert fn(v, a.data_ptr(), b.data_ptr(), ov.data_ptr(), k, n, None) == 0
            torch.cuda.synchronize()
            errs[name] = float((ov.double() - ref).norm() / ref.norm())
            fns[name] = lambda s, v=v, ov=ov: fn(v, a.data_ptr(), b.data_ptr(), ov.data_ptr(), k, n, s)
        fns["hds"](0); torch.cuda.synchronize(); errs["hds"] = float((o.double() - ref).norm() / ref.norm())
        t = graphs_ms(fns, calls=10, reps=15)
        bw = {x: b.numel() * 2 / y / 1e6 / copy_gbps() for x, y in t.items()}
        results.append({"run": run, "K": k, "N": n, "us": {x: y * 1e3 for x, y in t.items()}, "of_copy_bw": bw, "errs": errs})
        print(f"run {run} K={k} N={n}: " + "  ".join(f"{x} {y*1e3:.1f}us ({bw[x]:.2f} BW, {t['cublas']/y:.2f}x)" for x, y in t.items())
              + f"  max err {max(errs.values()):.1e}", flush=True)
(out / f"{proto}.json").write_text(json.dumps(results, indent=1))
