"""hds.register: loaded graphs as torch.ops.hds.* custom ops on the CPU (emulator):
schema and fake implementation (torch.library.opcheck), inside
torch.compile(fullgraph=True), re-registration after a reload, and the errors."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

import hds

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
STDLIB = ROOT / "stdlib"


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("HDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HDSC", os.environ.get("HDSC", str(ROOT / "build" / "hdsc")))
    torch._dynamo.reset()


def write(tmp_path, name, body):
    src = tmp_path / f"{name}.hds"
    src.write_text('target sm_80;\nimport "nn.hds";\nimport "elementwise.hds";\n' + body)
    return src


def test_op_runs_checks_and_compiles(tmp_path):
    src = write(tmp_path, "lib1", "graph lin_gelu(x: f32[M, K], w: f32[K, N]) -> f32[M, N] { return gelu(matmul(x, w)); }\n")
    ops = hds.register(hds.load(src, include=[STDLIB], device="cpu"))
    x, w = torch.randn(5, 7), torch.randn(7, 3)
    ref = torch.nn.functional.gelu(x @ w)
    assert torch.allclose(ops["lin_gelu"](x, w), ref, atol=1e-5)
    assert torch.allclose(torch.ops.hds.lin_gelu(x, w), ref, atol=1e-5)
    result = torch.library.opcheck(torch.ops.hds.lin_gelu, (x, w),
                                   test_utils=("test_schema", "test_faketensor", "test_aot_dispatch_static"))
    assert set(result.values()) == {"SUCCESS"}, result

    def f(x, w):
        return torch.ops.hds.lin_gelu(x, w).sum(0) * 2

    compiled = torch.compile(f, fullgraph=True, backend="aot_eager")
    for m in (5, 9):  # a second shape: the fake implementation's shapes again
        x = torch.randn(m, 7)
        assert torch.allclose(compiled(x, w), f(x, w), atol=1e-5)


def test_fake_shapes_follow_the_expressions(tmp_path):
    src = write(tmp_path, "lib2", "graph padded(x: f32[R, N]) -> f32[R, N] { return softmax(x); }\n"
                "graph tr(x: f32[A, B]) -> f32[B, A] { return transpose(x); }\n")
    hds.register(hds.load(src, include=[STDLIB], device="cpu"), namespace="hds_test")
    from torch._subclasses.fake_tensor import FakeTensorMode

    with FakeTensorMode():
        y = torch.ops.hds_test.tr(torch.empty(3, 5))
        assert y.shape == (5, 3)


def test_reregistering_points_at_the_new_build(tmp_path):
    src = write(tmp_path, "lib3", "graph scale(x: f32[N]) -> f32[N] { return x * 2.0; }\n")
    hds.register(hds.load(src, include=[STDLIB], device="cpu"))
    x = torch.arange(4.0)
    assert torch.equal(torch.ops.hds.scale(x), 2 * x)
    src.write_text(src.read_text().replace("2.0", "3.0"))
    hds.register(hds.load(src, include=[STDLIB], device="cpu"))
    assert torch.equal(torch.ops.hds.scale(x), 3 * x)
    other = write(tmp_path, "lib4", "graph scale(x: f32[N], y: f32[N]) -> f32[N] { return x * y; }\n")
    with pytest.raises(hds.ArgumentError, match="is registered with"):
        hds.register(hds.load(other, include=[STDLIB], device="cpu"))


def test_errors(tmp_path):
    src = write(tmp_path, "lib5", "graph ok(x: f32[N]) -> f32[N] { return relu(x); }\n")
    mod = hds.load(src, include=[STDLIB], device="cpu")
    with pytest.raises(hds.ArgumentError, match="namespace must be an identifier"):
        hds.register(mod, namespace="not a name")
    ops = hds.register(mod, namespace="hds_err")
    with pytest.raises(hds.ArgumentError, match="parameter 'x' has dtype float64"):
        ops["ok"](torch.zeros(3, dtype=torch.float64))
