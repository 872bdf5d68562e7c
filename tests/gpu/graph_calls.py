"""The GPU tests' calls of the small graphs of tests/gpu/ops on torch tensors (test_gpu_ops.py,
test_gpu_matmul.py). Outputs start as NaN so unwritten elements fail."""
import torch

import harness


def rnd(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda").to(dtype)


def run(name, inputs, sizes, out_shape, dtype):
    graph = harness.build_graph(f"tests/gpu/ops/{name}.hds")
    out = torch.full(out_shape, float("nan"), device="cuda", dtype=dtype)
    ws = graph.workspace(sizes)
    assert graph.run({**inputs, "out": out}, sizes, ws) == 0
    torch.cuda.synchronize()
    return out


def check(out, ref, tol, scale=None):
    """Relative error against `ref`'s norm (or `scale`: where a relu may zero a small output)."""
    assert torch.isfinite(out).all()
    err = float((out.double() - ref.double()).norm() / (ref.double().norm() if scale is None else scale))
    assert err < tol, err
