"""Runs chosen GEMM kernels of bench/tc_variants a few times each, for a profiler
(bench/run_profile_on_device.sh runs it under ncu):
    python3 bench/profile_gemm.py M N K KERNEL [KERNEL...]"""
import sys
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "gpu"))
import harness  # noqa: E402


def main():
    m, n, k = (int(v) for v in sys.argv[1:4])
    lib = harness.build("bench/tc_variants/wgmma_tiles.hds")
    a = torch.randn(m, k, device="cuda").half()
    b = torch.randn(k, n, device="cuda").half()
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    for kernel in sys.argv[4:]:
        for _ in range(3):
            assert lib.launch_raw(kernel, [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]) == 0
        torch.cuda.synchronize()


if __name__ == "__main__":
    main()
