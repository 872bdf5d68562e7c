"""Times matmul_tiled.cu variants (one folder each, HDS_EMITTED_DIR) against cuBLAS fp32, all side by side
(CUDA-graph replays, alternating), and checks each on an odd shape.
    python3 .devcarry/sv/stime.py DIR..."""
import os, sys
from pathlib import Path
import torch
sys.path.insert(0, "tests/gpu"); sys.path.insert(0, "bench")
import harness
from bench_core import graphs_ms
torch.backends.cuda.matmul.allow_tf32 = False
dirs = sys.argv[1:]
fns = {}
for d in dirs:
    os.environ["HDS_EMITTED_DIR"] = str(Path(d).resolve())
    fns[d] = harness.build("examples/matmul_tiled.hds").launchers["matmul_tiled"].fn
for m, n, k in [(1000, 1003, 517)]:
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    ref = a.double() @ b.double()
    for d, fn in fns.items():
        c = torch.full((m, n), float("nan"), device="cuda")
        assert fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, None) == 0
        torch.cuda.synchronize()
        print(f"{d}: rel err {float((c.double() - ref).norm() / ref.norm()):.1e}")
for m, n, k in [(4096, 4096, 4096), (2048, 2048, 2048)]:
    a, b = torch.randn(m, k, device="cuda"), torch.randn(k, n, device="cuda")
    c = torch.empty(m, n, device="cuda")
    runs = {d: (lambda fn: lambda s: fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, s))(fn) for d, fn in fns.items()}
    runs["cublas"] = lambda s: torch.matmul(a, b)
    for rep in range(2):
        t = graphs_ms(runs, calls=10, reps=15)
        print(f"{m}x{n}x{k} round {rep}: cuBLAS {2*m*n*k/t['cublas']/1e9:.1f} TFLOP/s; " +
              ", ".join(f"{Path(d).name} {t['cublas'] / t[d]:.3f}x" for d in dirs))
