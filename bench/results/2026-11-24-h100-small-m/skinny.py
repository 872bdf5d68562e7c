"""Experiment: matmul_skinny (M <= 16) and matmul_wgmma tile shapes for small M, against cuBLAS, side by side."""
import sys
from pathlib import Path
import torch
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests" / "gpu")); sys.path.insert(0, str(ROOT / "bench"))
import harness
from bench_core import graphs_ms

lib = harness.build(Path(__file__).parent / "skinny_kernels.hds")
torch.backends.cuda.matmul.allow_tf32 = False
def call(name, a, b, c, M, K, N, stream=None):
    return lib.launchers[name].fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), M, K, N, stream)
src = torch.empty(1 << 28, dtype=torch.uint8, device="cuda"); dst = torch.empty_like(src)
copy = 2 * src.numel() / graphs_ms({"c": lambda s: dst.copy_(src)}, 10, 10)["c"] / 1e6
print(f"copy {copy:.0f} GB/s")
for (M, K, N) in [(1, 4096, 4096), (7, 520, 264), (16, 4104, 136), (3, 4095, 4097), (16, 33, 9), (40, 264, 72)]:
    for name, dt in [("sk32_4", torch.float16), ("sk64_3", torch.float16), ("sk32_4b", torch.bfloat16)]:
        a = torch.randn(M, K, device="cuda").to(dt); b = torch.randn(K, N, device="cuda").to(dt)
        c = torch.full((M, N), float("nan"), device="cuda", dtype=dt)
        assert call(name, a, b, c, M, K, N) == 0
        torch.cuda.synchronize()
        ref = a.double() @ b.double()
        err = float((c.double() - ref).norm() / ref.norm())
        print(f"check {name} {M}x{K}x{N}: rel err {err:.1e}", "OK" if err < 1e-2 else "FAIL")
SK = ["sk32_4", "sk64_3"]
WG = ["w64_64_p8", "w64_128", "w64_128_p6", "w128_128_p", "w128_256", "w128_256_p", "w64_192", "w64_256"]
for (K, N) in [(4096, 4096), (4096, 11008), (11008, 4096)]:
    for M in [1, 16, 17, 32, 64, 77, 128, 256, 512, 1024, 2048]:
        a = torch.randn(M, K, device="cuda").half(); b = torch.randn(K, N, device="cuda").half()
        c = torch.empty(M, N, device="cuda").half()
        fns = {"cublas": lambda s: torch.matmul(a, b)}
        names = (SK if M <= 16 else []) + (WG if M >= 16 else [])
        for name in names:
            fns[name] = lambda s, name=name: call(name, a, b, c, M, K, N, s)
        t = graphs_ms(fns, 10, 15)
        line = " ".join(f"{n}={t['cublas']/t[n]:.2f}" for n in names)
        best = max(names, key=lambda n: t['cublas'] / t[n])
        print(f"M={M} K={K} N={N}: cublas {t['cublas']*1e3:.1f}us | {line} | best {best}")
