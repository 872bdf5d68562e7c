"""Runs chosen GEMM kernels a few times each, for a profiler (bench/run_profile_on_device.sh
runs it under ncu): kernels of bench/tc_variants/wgmma_tiles.hds in f16, or of the file in
$HDS_PROFILE_SOURCE with element type $HDS_PROFILE_DTYPE (f16, bf16, f32):
    python3 bench/profile_gemm.py M N K KERNEL [KERNEL...]"""
import os
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "gpu"))
import harness  # noqa: E402


def main():
    m, n, k = (int(v) for v in sys.argv[1:4])
    lib = harness.build(os.environ.get("HDS_PROFILE_SOURCE", "bench/tc_variants/wgmma_tiles.hds"))
    dtype = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}[os.environ.get("HDS_PROFILE_DTYPE", "f16")]
    a = torch.randn(m, k, device="cuda").to(dtype)
    b = torch.randn(k, n, device="cuda").to(dtype)
    c = torch.empty(m, n, device="cuda", dtype=dtype)
    for kernel in sys.argv[4:]:
        for _ in range(3):
            assert lib.launch_raw(kernel, [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]) == 0
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
