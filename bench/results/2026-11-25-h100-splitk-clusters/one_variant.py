"""Runs graphs of splitk_variants.hds once each at one size, for ncu:
    ncu ... python3 one_variant.py M K N GRAPH ..."""
import os
import shutil
import sys
import tempfile
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT / "tests" / "gpu"))
sys.path.insert(0, str(ROOT / "bench"))
import harness  # noqa: E402
from bench_sweep import Point  # noqa: E402

os.environ["HDS_EMITTED_DIR"] = str(ROOT / ".devcarry" / "variants")
m, k, n = map(int, sys.argv[1:4])
stubs = Path(tempfile.mkdtemp())
a = torch.randn(m, k, device="cuda", dtype=torch.float16)
b = torch.randn(k, n, device="cuda", dtype=torch.float16)
for name in sys.argv[4:]:
    shutil.copy(HERE / "splitk_variants.hds", stubs / f"{name}.hds")
    c = torch.empty(m, n, device="cuda", dtype=torch.float16)
    Point(harness.build_graph(stubs / f"{name}.hds"), {"a": a, "b": b, "out": c}, {"M": m, "K": k, "N": n}).run(
        torch.cuda.current_stream().cuda_stream)
torch.cuda.synchronize()
