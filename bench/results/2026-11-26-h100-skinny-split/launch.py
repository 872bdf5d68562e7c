"""One kernel of skinny.hds launched a few times at one shape, for ncu:
    python3 launch.py KERNEL M K N"""
import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests" / "gpu")]
import harness  # noqa: E402

name, m, k, n = sys.argv[1], *map(int, sys.argv[2:5])
lib = harness.build(Path(__file__).resolve().parent / "skinny.hds")
a = torch.randn(m, k, device="cuda", dtype=torch.float16)
b = torch.randn(k, n, device="cuda", dtype=torch.float16)
c = torch.empty(m, n, device="cuda", dtype=torch.float16)
for _ in range(3):
    assert lib.launchers[name].fn(a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n, None) == 0
torch.cuda.synchronize()
