"""sm_80 code on GPUs of 99 KiB of shared memory a block (sm_86/89/120): the dispatch tests
hds::shared_memory_per_block() before a kernel over 99 KiB (docs/graphs.md, "Shared memory of
the device"), and HDS_SHARED_MEMORY_PER_BLOCK=101376 makes it take their paths here. Each case
runs in a process of its own (the runtime reads the variable once), under torch's profiler:
with the cap no kernel of a variant that needs the room (`_smem_`, or a row regime streamed
through shared memory) launches, without it one does, and the outputs match torch both ways.

    python3 tests/gpu/test_gpu_shared_memory.py CASE   (what each test runs: kernels, error)
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

gpu = pytest.mark.gpu
CAP = 101376
# case: (graph source, the mark of the kernels that need more than 99 KiB)
CASES = {
    "matmul_shifted": ("tests/gpu/ops/op_matmul_symbolic_sm80.hds", "_smem_"),
    "matmul_aligned": ("tests/gpu/ops/op_matmul_symbolic_sm80.hds", "_smem_"),
    "rows_streamed": ("tests/gpu/ops/op_rms_norm_stream.hds", "_vec_stream"),
    "decode_heads128": ("bench/sweep/sweep_attention_d128_sm80.hds", "_smem_"),
}


def probe(case: str) -> dict:
    """Runs `case` once: the kernels it launched and its error against float64 torch."""
    import torch

    import harness
    source, _ = CASES[case]
    graph = harness.build_graph(source)
    torch.manual_seed(0)
    dev = "cuda"
    if case.startswith("matmul"):
        m, k, n = (5, 2049, 137) if case == "matmul_shifted" else (5, 64, 136)
        x, w, r = (torch.randn(*s, device=dev).to(torch.bfloat16) for s in ((m, k), (k, n), (m, n)))
        inputs, sizes, shape, dtype = {"x": x, "w": w, "r": r}, {"M": m, "K": k, "N": n}, (m, n), torch.bfloat16
        ref = x.double() @ w.double() + r.double()
    elif case == "rows_streamed":
        x, g = torch.randn(1, 3, 16388, device=dev), torch.randn(16388, device=dev)
        inputs, sizes, shape, dtype = {"x": x, "g": g}, {"B": 1, "T": 3, "N": 16388}, (1, 3, 16388), torch.float32
        xd = x.double()
        ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    else:
        q = torch.randn(1, 4, 1, 128, device=dev).half()
        k, v = (torch.randn(1, 4, 3000, 128, device=dev).half() for _ in range(2))
        inputs, sizes = {"q": q, "k": k, "v": v}, {"B": 1, "H": 4, "L": 1, "M": 3000}
        shape, dtype = (1, 4, 1, 128), torch.float16
        s = q.double() @ k.double().transpose(-1, -2) * 0.08838834764831843
        ref = torch.softmax(s, -1) @ v.double()
    out = torch.full(shape, float("nan"), device=dev, dtype=dtype)
    ws = graph.workspace(sizes)
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        status = graph.run({**inputs, "out": out}, sizes, ws)
        torch.cuda.synchronize()
    kernels = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
    err = float((out.double() - ref).norm() / ref.norm()) if torch.isfinite(out).all() else float("inf")
    return {"status": status, "kernels": kernels, "err": err}


def run_probe(case: str, cap: int | None) -> dict:
    env = dict(os.environ)
    env.pop("HDS_SHARED_MEMORY_PER_BLOCK", None)
    if cap:
        env["HDS_SHARED_MEMORY_PER_BLOCK"] = str(cap)
    proc = subprocess.run([sys.executable, __file__, case], env=env, capture_output=True, text=True,
                          cwd=Path(__file__).parent)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


@gpu
@pytest.mark.parametrize("case", CASES)
def test_paths_of_99_kib_devices(case):
    mark = CASES[case][1]
    tol = 1e-2 if case.startswith("matmul") else 3e-3
    full, capped = run_probe(case, None), run_probe(case, CAP)
    for got in (full, capped):
        assert got["status"] == 0 and got["err"] < tol, got
    assert any(mark in k for k in full["kernels"]), full
    assert capped["kernels"] and not any(mark in k for k in capped["kernels"]), capped


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    print(json.dumps(probe(sys.argv[1])))
