"""Which kernels cuBLAS and SDPA run at the sweep's weak points, and how SDPA's backends compare.

python3 probe.py OUT_DIR  (on the GPU machine; torch only, no hds)
"""
import json, sys
from pathlib import Path
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import profile, ProfilerActivity

out = Path(sys.argv[1])
res = {"torch": torch.__version__, "device": torch.cuda.get_device_name(), "gemm": [], "sdpa": []}


def kernels(fn):
    """The kernels one call of fn launches: name, grid, block."""
    fn(); torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(); torch.cuda.synchronize()
    trace = out / "trace.json"
    prof.export_chrome_trace(str(trace))
    ev = json.loads(trace.read_text())["traceEvents"]
    trace.unlink()
    return [{"name": e["name"][:200], "grid": e["args"].get("grid"), "block": e["args"].get("block"),
             "us": e.get("dur")} for e in ev if e.get("cat") == "kernel"]


def time_us(fn, reps=50):
    g = torch.cuda.CUDAGraph()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    with torch.cuda.graph(g):
        for _ in range(10):
            fn()
    g.replay(); torch.cuda.synchronize()
    best = []
    for _ in range(reps):
        a, b = torch.cuda.Event(True), torch.cuda.Event(True)
        a.record(); g.replay(); b.record(); b.synchronize()
        best.append(a.elapsed_time(b) * 100)  # us per call
    best.sort()
    return best[len(best) // 2]


torch.backends.cuda.matmul.allow_tf32 = False
for dt in (torch.float16, torch.bfloat16, torch.float32):
    for k, n in ((4096, 4096), (4096, 11008), (11008, 4096)):
        b = torch.randn(k, n, device="cuda", dtype=dt)
        for m in (16, 48, 65, 77, 96, 128, 256, 512):
            if dt == torch.float32 and (k, n) != (4096, 4096):
                continue
            a = torch.randn(m, k, device="cuda", dtype=dt)
            r = {"dtype": str(dt), "M": m, "K": k, "N": n, "kernels": kernels(lambda: torch.matmul(a, b)),
                 "us": time_us(lambda: torch.matmul(a, b))}
            res["gemm"].append(r)
            print(r["dtype"], m, k, n, f"{r['us']:.1f}us", [(x["name"][:110], x["grid"]) for x in r["kernels"]], flush=True)

backends = {"default": None, "flash": SDPBackend.FLASH_ATTENTION, "cudnn": SDPBackend.CUDNN_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
for d in (64, 128):
    for causal in (False, True):
        for L in (512, 2048, 8192, 16384):
            B, H = 16384 // L, 2048 // d
            q, k, v = (torch.randn(B, H, L, d, device="cuda", dtype=torch.float16) for _ in range(3))
            r = {"D": d, "causal": causal, "L": L, "B": B, "H": H}
            for name, be in backends.items():
                def f():
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                try:
                    if be is None:
                        r["default_kernels"] = [x["name"][:120] for x in kernels(f)]
                        r["default_us"] = time_us(f)
                    else:
                        with sdpa_kernel(be):
                            r[name + "_us"] = time_us(f)
                except Exception as e:  # a backend that does not take the shape
                    r[name + "_us"] = None
                    r[name + "_error"] = str(e)[:200]
            flops = 4.0 * B * H * L * L * d / (2 if causal else 1)
            r["tflops"] = {n: (flops / r[n + "_us"] / 1e6 if r.get(n + "_us") else None) for n in backends}
            res["sdpa"].append(r)
            print(d, causal, L, r["default_kernels"], {n: (round(x) if x else None) for n, x in r["tflops"].items()}, flush=True)

(out / "probe.json").write_text(json.dumps(res, indent=1))
