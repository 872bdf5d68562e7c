"""Prints the Triton kernels torch.compile generates for the row sweep's graphs at the given N (the
harness's row counts: at least 64 MB moved). On the GPU machine:

    TORCH_LOGS=output_code python3 triton_code.py rms_norm_f16:250 layer_norm_f32:126 2>&1 | ...
"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from bench_sweep import compiled, row_reference  # noqa: E402

for arg in sys.argv[1:]:
    name, n = arg.split(":")
    n = int(n)
    dtype = torch.float16 if name.endswith("f16") else torch.float32
    r = max(4, (64 << 20) // (2 * n * torch.tensor([], dtype=dtype).element_size()))
    x = torch.randn(r, n, device="cuda", dtype=dtype)
    g, b = torch.randn(n, device="cuda", dtype=dtype), torch.randn(n, device="cuda", dtype=dtype)
    print(f"==== {name} N={n} R={r}", flush=True)
    compiled(row_reference(name, x, g, b))()
    torch.cuda.synchronize()
