"""torch.compile(backend="hds") on the CPU (the emulator runs the graphs): small
models in plain torch against eager, what is translated and what falls back
(HDS_DEBUG_DIR's log), the generated sources, and the cache across compiles."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

import torch_models as models

ROOT = Path(__file__).resolve().parents[2]

# Under the sanitizers (scripts/test.sh --sanitize) whole models through the sanitized emulator
# take minutes each: the plain pass runs them; the sanitizer pass runs hds.load's graphs
# (test_load.py) through the same compiler (CI's time: docs/testing.md).
pytestmark = pytest.mark.skipif(bool(os.environ.get("ASAN_OPTIONS")),
                                reason="whole models: run in the plain pass (CI's time under the sanitizers)")


@pytest.fixture(autouse=True)
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("HDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HDS_DEBUG_DIR", str(tmp_path / "debug"))
    monkeypatch.setenv("HDSC", os.environ.get("HDSC", str(ROOT / "build" / "hdsc")))
    torch._dynamo.reset()
    return tmp_path


def compile_and_compare(model, x, tol=1e-5):
    torch.manual_seed(0)
    model = model.eval()
    with torch.no_grad():
        ref = model(x)
        out = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)(x)
    err = float((out.double() - ref.double()).norm() / ref.double().norm())
    assert out.dtype == ref.dtype and out.shape == ref.shape
    assert err < tol, err


def logs(env) -> list[str]:
    return [line for f in sorted((env / "debug").glob("*/log.txt")) for line in f.read_text().splitlines()]


@pytest.mark.parametrize("model,shape", [
    (models.GPT2Block, (2, 9, 32)),
    (models.LlamaLayer, (2, 11, 64)),
    (models.ResNetBlock, (2, 8, 7, 7)),
])
def test_whole_model_is_one_hds_graph(env, model, shape):
    torch.manual_seed(1)
    compile_and_compare(model(), torch.randn(shape))
    log = logs(env)
    assert len([line for line in log if line.startswith("fused_")]) == 1, log
    assert not [line for line in log if line.startswith("eager:")], log
    debug = next((env / "debug").iterdir())
    assert (debug / "fused_0.hds").exists() and (debug / "fused_0_0.cu").exists() and (debug / "aten.py").exists()


def test_llama_layer_bf16(env):
    torch.manual_seed(2)
    compile_and_compare(models.LlamaLayer().to(torch.bfloat16), torch.randn(1, 5, 64).to(torch.bfloat16), tol=3e-2)


class Partial(torch.nn.Module):
    """An op hds does not run (cumsum) between two it does: two partitions, eager between."""

    def __init__(self):
        super().__init__()
        self.a, self.b = torch.nn.Linear(16, 24), torch.nn.Linear(24, 8)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)).cumsum(-1))


def test_unsupported_ops_run_in_eager(env):
    torch.manual_seed(3)
    compile_and_compare(Partial(), torch.randn(5, 16))
    log = logs(env)
    assert len([line for line in log if line.startswith("fused_")]) == 2, log
    assert any(line.startswith("eager: aten.cumsum") and line.endswith(": aten.cumsum") for line in log), log


def test_generated_source_is_readable(env):
    torch.manual_seed(4)
    compile_and_compare(Partial(), torch.randn(3, 16))
    text = "".join(f.read_text() for f in next((env / "debug").iterdir()).glob("fused_*.hds"))
    assert "graph fused_0_0(" in text and "graph fused_1_0(" in text and "matmul(" in text and "relu(" in text
    assert "// aten.addmm(" in text and "// aten.relu(" in text


def test_warm_cache_compiles_nothing(env):
    torch.manual_seed(5)
    model, x = models.GPT2Block(), torch.randn(1, 4, 32)
    compile_and_compare(model, x)
    entries = sorted(p.name for p in (env / "cache").iterdir())
    torch._dynamo.reset()
    compile_and_compare(model, x)
    assert sorted(p.name for p in (env / "cache").iterdir()) == entries


@pytest.mark.parametrize("make,x,cache", [
    # the Llama layer: one token after 13 cached positions of its 2 key/value heads of 16
    (models.LlamaLayer, (1, 1, 64), (1, 2, 13, 16)),
    # GPT-2's block: one token after 11 cached positions of its 2 heads of 16, a batch of 2
    (models.GPT2Block, (2, 1, 32), (2, 2, 11, 16)),
])
def test_decode_against_a_cache(env, make, x, cache):
    """The cache is concatenated (concat) and attended to without a mask: one graph, nothing in eager."""
    torch.manual_seed(6)
    model = make().eval()
    x, kc, vc = torch.randn(x), torch.randn(cache), torch.randn(cache)
    with torch.no_grad():
        ref = model(x, kc, vc)
        out = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)(x, kc, vc)
    assert float((out - ref).norm() / ref.norm()) < 1e-5
    log = logs(env)
    assert len([line for line in log if line.startswith("fused_")]) == 1, log
    assert not [line for line in log if line.startswith("eager:")], log


def test_resnet18_small(env):
    """ResNet-18's layout at width 8 on 32 x 32 images, its padded max pool included: one graph."""
    torch.manual_seed(7)
    compile_and_compare(models.ResNet18(classes=10, width=8), torch.randn(2, 3, 32, 32))
    assert not [line for line in logs(env) if line.startswith("eager:")], logs(env)
    assert len([line for line in logs(env) if line.startswith("fused_")]) == 1, logs(env)


def test_transposed_weights_follow_in_place_updates(env):
    """nn.Linear's weight transposes are kept between calls, and computed again after the weight changes."""
    torch.manual_seed(8)
    model, x = Partial().eval(), torch.randn(4, 16)
    with torch.no_grad():
        compiled = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)
        first = compiled(x)
        assert torch.allclose(first, model(x), atol=1e-5)
        model.a.weight.mul_(2.0)  # in place: the version counter moves
        second = compiled(x)
    assert torch.allclose(second, model(x), atol=1e-5) and not torch.allclose(first, second)
    assert any("transposed parameter(s) kept transposed" in line for line in logs(env))


def test_models_of_the_same_shapes_keep_their_own_weights(env):
    """Kept transposes belong to the compiled graph and its parameters: a second model with
    weights of the same shapes (perhaps at the first one's freed addresses) gets its own."""
    import gc

    x = torch.randn(4, 16)
    with torch.no_grad():
        for seed in (9, 10, 11):
            torch.manual_seed(seed)
            model = Partial().eval()
            torch._dynamo.reset()
            out = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)(x)
            assert torch.allclose(out, model(x), atol=1e-5)
            del model
            gc.collect()


@pytest.mark.parametrize("model,shapes", [
    (models.GPT2Block, [(2, 5, 32), (2, 9, 32), (3, 13, 32)]),
    (models.LlamaLayer, [(1, 5, 64), (2, 9, 64), (1, 12, 64)]),
])
def test_dynamic_shapes_compile_once(env, model, shapes):
    """torch.compile(dynamic=True): symbolic sizes become the graph's sizes (s0, s1, products in
    reshapes), so new lengths run the same build; hdsc's dispatch picks per call."""
    torch.manual_seed(12)
    m = model().eval()
    compiled = torch.compile(m, backend="hds", fullgraph=True, dynamic=True)
    with torch.no_grad():
        for shape in shapes:
            x = torch.randn(shape)
            ref = m(x)
            assert float((compiled(x) - ref).norm() / ref.norm()) < 1e-5
    log = logs(env)
    assert [line for line in log if line.startswith("fused_")], log
    assert not [line for line in log if "runs in eager" in line], log
    if model is models.GPT2Block:  # the whole block; the Llama layer's rotary slices of a symbolic length stay in eager
        assert not [line for line in log if line.startswith("eager:")], log
    builds = [p for p in (env / "cache").iterdir() if p.is_dir() and p.name != "dynamo"]
    assert len(builds) == len([line for line in log if line.startswith("fused_")]), builds


@pytest.mark.parametrize("model,shape,converts", [
    # RGB padded to 8 channels (to_nhwc) for the stem, the max pool NHWC: no permute at all
    (lambda: models.ResNet18(classes=10, width=8), (2, 3, 32, 32), "to_nhwc("),
    (models.ResNetBlock, (2, 8, 7, 7), "permute("),  # the residual adds an NCHW input to an NHWC result
])
def test_channels_last_convolutions(env, monkeypatch, model, shape, converts):
    """HDS_CHANNELS_LAST=1 (what sm_90a gets for convolutions with enough tiles): conv2d_nhwc with
    weights kept as [O, R, S, C], its batch norm, ReLU, max pool and residual add held NHWC, a
    conversion only where an NCHW value meets them — against eager."""
    monkeypatch.setenv("HDS_CHANNELS_LAST", "1")
    torch.manual_seed(9)
    compile_and_compare(model(), torch.randn(shape))
    log = logs(env)
    assert not [line for line in log if line.startswith("eager:")], log
    assert any("convolution weight(s) kept as [O, R, S, C]" in line for line in log), log
    text = "".join(f.read_text() for f in next((env / "debug").iterdir()).glob("fused_*.hds"))
    assert "conv2d_nhwc(" in text and "conv2d(" not in text, text
    assert "(NHWC)" in text and converts in text, text
    assert ("permute(" in text) == (converts == "permute("), text


def test_channels_last_fallback_restores_weights(env, monkeypatch):
    """A partition that fails to compile runs in eager with its convolutions' weights permuted back
    from [O, R, S, C] (and the stem's zero channels dropped)."""
    import hds

    def fail(*args, **kwargs):
        raise hds.CompileError("no build")
    monkeypatch.setenv("HDS_CHANNELS_LAST", "1")
    monkeypatch.setattr(hds, "load", fail)
    torch.manual_seed(12)
    compile_and_compare(models.ResNet18(classes=10, width=8), torch.randn(1, 3, 16, 16))
    assert any("runs in eager: no build" in line for line in logs(env)), logs(env)


@pytest.mark.parametrize("channels_last,update", [
    ("1", lambda m: m.conv1.weight.mul_(-1.0)),  # weights kept as [O, R, S, C]
    ("0", lambda m: m.bn2.running_var.mul_(4.0)),  # a folded batch norm's scale and shift
])
def test_kept_parameters_follow_in_place_updates(env, monkeypatch, channels_last, update):
    """What the compiled graph keeps between calls from parameters and buffers (convolution weights
    permuted to [O, R, S, C]; batch norms as a scale and a shift per channel computed once in eager,
    no batch norm op in the .hds) is computed again after an in-place update."""
    monkeypatch.setenv("HDS_CHANNELS_LAST", channels_last)
    torch.manual_seed(10)
    model, x = models.ResNetBlock().eval(), torch.randn(1, 8, 5, 5)
    with torch.no_grad():
        compiled = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)
        first = compiled(x)
        assert torch.allclose(first, model(x), atol=1e-5)
        update(model)
        second = compiled(x)
    assert torch.allclose(second, model(x), atol=1e-5) and not torch.allclose(first, second)
    assert any(line.startswith("2 batch norm(s) folded") for line in logs(env)), logs(env)
    text = "".join(f.read_text() for f in next((env / "debug").iterdir()).glob("fused_*.hds"))
    assert "bn_scale" in text and "rsqrt" not in text, text


def test_projections_of_one_input_are_merged(env):
    """A Llama layer's q, k and v projections read one input: one product over their weights
    concatenated (kept between calls, computed again after an in-place update of one of them),
    each former product a slice of its columns; the MLP's gate and up stay two products (the
    graph builder runs those as swiglu where it has a schedule)."""
    torch.manual_seed(11)
    model, x = models.LlamaLayer().eval(), torch.randn(1, 6, 64)
    with torch.no_grad():
        compiled = torch.compile(model, backend="hds", fullgraph=True, dynamic=False)
        first = compiled(x)
        assert torch.allclose(first, model(x), atol=1e-5)
        model.k.weight.mul_(-1.0)
        second = compiled(x)
    assert torch.allclose(second, model(x), atol=1e-5) and not torch.allclose(first, second)
    assert "3 products of one input merged over their weights concatenated, kept between calls" in logs(env)
    text = "".join(f.read_text() for f in next((env / "debug").iterdir()).glob("fused_*.hds"))
    assert text.count("matmul(") == 5 and "merged_weights: f32[64, 128]" in text, text


class ParallelBlock(torch.nn.Module):
    """Four projections of one input: two summed, two a SwiGLU."""

    def __init__(self, d=32, f=48):
        super().__init__()
        self.a, self.b = torch.nn.Linear(d, f, bias=False), torch.nn.Linear(d, f, bias=False)
        self.gate, self.up = torch.nn.Linear(d, f, bias=False), torch.nn.Linear(d, f, bias=False)

    def forward(self, x):
        return self.a(x) + self.b(x) + torch.nn.functional.silu(self.gate(x)) * self.up(x)


def test_swiglu_products_stay_apart(env):
    """Of four products of one input, the two that are not a SwiGLU's are merged; the gate and
    up projections stay two products (for the graph builder's swiglu)."""
    torch.manual_seed(13)
    compile_and_compare(ParallelBlock(), torch.randn(2, 7, 32))
    assert "2 products of one input merged over their weights concatenated, kept between calls" in logs(env)
    text = "".join(f.read_text() for f in next((env / "debug").iterdir()).glob("fused_*.hds"))
    assert text.count("matmul(") == 3, text
