"""The Python package on the GPU: hds.load (hdsc and nvcc on this machine; on the
lent GPU HDSC names .devcarry/bin/hdsc) against torch on odd shapes and on each
side of the dispatch, the checks that only a GPU call has (device, alignment),
the current stream, CUDA-graph capture, custom ops under torch.compile, and
torch.compile(backend="hds") on the test models in f16 against eager."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
sys.path.insert(0, str(ROOT / "tests" / "python"))
import hds  # noqa: E402
import hds.dynamo  # noqa: E402
import torch_models as models  # noqa: E402

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not torch.cuda.is_available(), reason="torch sees no CUDA GPU")]
BLOCKS = ROOT / "tests" / "python" / "graphs" / "blocks.hds"


@pytest.fixture(scope="module")
def mod():
    return hds.load(BLOCKS, include=[ROOT / "stdlib"])


def rel(out, ref) -> float:
    return float((out.double() - ref.double()).norm() / ref.double().norm())


@pytest.mark.parametrize("m,k,n", [(3, 37, 2049), (7, 61, 129), (17, 40, 33), (300, 129, 77)])
def test_linear_relu(mod, m, k, n):
    x, w, b = (torch.randn(s, device="cuda") for s in ((m, k), (k, n), (n,)))
    assert rel(mod.linear_relu(x, w, b), torch.relu(x @ w + b)) < 1e-5


@pytest.mark.parametrize("t,d,f", [(2, 20, 12), (5, 24, 40), (19, 24, 40), (19, 21, 13), (300, 128, 200)])
def test_gated_f16(mod, t, d, f):
    x = torch.randn(t, d, device="cuda").half()
    gain = (1 + 0.1 * torch.randn(d, device="cuda")).half()
    wg, wu = ((torch.randn(d, f, device="cuda") / d**0.5).half() for _ in range(2))
    h = torch.nn.functional.rms_norm(x.float(), (d,), gain.float(), eps=1e-6)
    ref = torch.nn.functional.silu(h @ wg.float()) * (h @ wu.float())
    assert rel(mod.gated(x, gain, wg, wu), ref) < 5e-3


def test_rows_and_attention(mod):
    x = torch.randn(33, 1000, device="cuda").bfloat16()
    assert rel(mod.rows(x), torch.softmax(x.float(), -1)) < 1e-2
    q = torch.randn(2, 8, 5, 16, device="cuda").half()
    k, v = (torch.randn(2, 2, 77, 16, device="cuda").half() for _ in range(2))
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), k.float(), v.float(), scale=0.25,
                                                           enable_gqa=True)
    assert rel(mod.gqa(q, k, v), ref) < 5e-3


def test_gpu_only_checks(mod):
    x, w, b = torch.randn(4, 8, device="cuda"), torch.randn(8, 16, device="cuda"), torch.randn(16, device="cuda")
    with pytest.raises(hds.ArgumentError, match="parameter 'b' is on cpu, expected a CUDA tensor"):
        mod.linear_relu(x, w, b.cpu())
    with pytest.raises(hds.ArgumentTypeError, match="expected a CUDA torch.Tensor"):
        mod.linear_relu(x.cpu().numpy(), w, b)
    big = torch.randn(4 * 8 + 1, device="cuda")
    with pytest.raises(hds.ArgumentError, match="parameter 'x' starts at an address that is not a multiple of 16"):
        mod.linear_relu(big[1:].view(4, 8), w, b)


def test_current_stream_and_cuda_graph(mod):
    x = torch.randn(19, 24, device="cuda").half()
    gain = torch.ones(24, device="cuda").half()
    wg, wu = (torch.randn(24, 40, device="cuda").half() for _ in range(2))
    expected = mod.gated(x, gain, wg, wu)
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        on_side = mod.gated(x, gain, wg, wu)
    side.synchronize()
    assert torch.equal(on_side, expected)
    graph = torch.cuda.CUDAGraph()
    mod.gated(x, gain, wg, wu)  # warm up outside capture
    with torch.cuda.graph(graph):
        captured = mod.gated(x, gain, wg, wu)
    x.copy_(torch.randn_like(x))
    graph.replay()
    torch.cuda.synchronize()
    assert torch.equal(captured, mod.gated(x, gain, wg, wu))


def test_custom_op_in_torch_compile(mod):
    ops = hds.register(mod, namespace="hds_gpu")

    def f(x, w, b):
        return ops["linear_relu"](x, w, b) * 2 + 1

    x, w, b = torch.randn(77, 40, device="cuda"), torch.randn(40, 33, device="cuda"), torch.randn(33, device="cuda")
    compiled = torch.compile(f, fullgraph=True)
    assert rel(compiled(x, w, b), f(x, w, b)) < 1e-6


@pytest.mark.parametrize("make,shape,dtype", [
    (lambda: models.GPT2Block(d=64, heads=2), (2, 77, 64), torch.float16),
    (lambda: models.LlamaLayer(d=128, heads=4, kv_heads=2, ffn=192, max_len=128), (2, 100, 128), torch.float16),
    (lambda: models.LlamaLayer(d=128, heads=4, kv_heads=2, ffn=192, max_len=128), (1, 33, 128), torch.bfloat16),
    (lambda: models.ResNet18(classes=10, width=16), (2, 3, 64, 64), torch.float16),
])
def test_backend_against_eager(make, shape, dtype):
    torch.manual_seed(0)
    model = make().eval().to("cuda", dtype)
    x = torch.randn(shape, device="cuda", dtype=dtype)
    torch._dynamo.reset()
    with torch.no_grad():
        ref = model(x)
        out = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)(x)
    assert rel(out, ref) < 2e-2


@pytest.mark.parametrize("shape,nhwc", [((8, 3, 128, 128), 4), ((32, 3, 224, 224), 19)])
def test_backend_channels_last_convolutions(tmp_path, monkeypatch, shape, nhwc):
    """On sm_90a the convolutions with enough tiles run NHWC (conv2d_nhwc, weights as [O, R, S, C]):
    all of ResNet-18's at batch 32 but the stem on RGB; at width 16 on 128 x 128 images at batch 8
    those of the first stage only, the rest NCHW (permutes between)."""
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("sm_90a only")
    monkeypatch.setenv("HDS_DEBUG_DIR", str(tmp_path))
    torch.manual_seed(3)
    model = models.ResNet18(classes=10, width=16 if shape[0] == 8 else 64).eval().to("cuda", torch.float16)
    x = torch.randn(shape, device="cuda", dtype=torch.float16)
    torch._dynamo.reset()
    with torch.no_grad():
        ref = model(x)
        out = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)(x)
    assert rel(out, ref) < 2e-2
    text = "".join(f.read_text() for f in tmp_path.glob("*/fused_*.hds"))
    assert text.count("conv2d_nhwc(") == nhwc and text.count("conv2d(") == 20 - nhwc, text


@pytest.mark.parametrize("make,batch,dim", [
    # the Llama layer: one token against 257 cached positions of its 2 key/value heads of 32
    (lambda: models.LlamaLayer(d=128, heads=4, kv_heads=2, ffn=192, max_len=300), 1, 128),
    # GPT-2's block: the same against its 2 heads of 32, a batch of 2
    (lambda: models.GPT2Block(d=64, heads=2), 2, 64),
])
def test_backend_decode(make, batch, dim):
    torch.manual_seed(1)
    model = make().eval().to("cuda", torch.float16)
    x = torch.randn(batch, 1, dim, device="cuda").half()
    kc, vc = (torch.randn(batch, 2, 257, 32, device="cuda").half() for _ in range(2))
    torch._dynamo.reset()
    with torch.no_grad():
        ref = model(x, kc, vc)
        out = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=False)(x, kc, vc)
    assert rel(out, ref) < 2e-2


@pytest.mark.parametrize("make,dim", [(lambda: models.GPT2Block(d=64, heads=2), 64),
                                      (lambda: models.LlamaLayer(d=128, heads=4, kv_heads=2, ffn=192, max_len=400), 128)])
def test_backend_dynamic_shapes(make, dim):
    """dynamic=True: one build serves every length (symbolic sizes as the graph's sizes), f16."""
    torch.manual_seed(2)
    model = make().eval().to("cuda", torch.float16)
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=hds.dynamo.backend, fullgraph=True, dynamic=True)
    with torch.no_grad():
        for b, t in ((1, 7), (2, 77), (1, 300)):
            x = torch.randn(b, t, dim, device="cuda").half()
            assert rel(compiled(x), model(x)) < 2e-2


@pytest.mark.parametrize("m,k,n", [(128, 512, 256), (5, 100, 37)])
def test_load_a_file_of_no_target(tmp_path, monkeypatch, m, k, n):
    """hds.load of a graph of both targets (no target declared) builds the one this GPU runs:
    on an H100/H200 variant_for names an sm_90a variant and its kernels launch (torch's
    profiler) where the sizes give one of its own; the output matches torch."""
    monkeypatch.setenv("HDS_CACHE_DIR", str(tmp_path))
    mod = hds.load(ROOT / "tests" / "gpu" / "ops" / "op_default_target.hds", include=[ROOT / "stdlib"])
    assert mod.manifest["target"] == "sm_80+sm_90a"
    x, w = torch.randn(m, k, device="cuda").half(), (torch.randn(k, n, device="cuda") / k**0.5).half()
    b = torch.randn(n, device="cuda").half()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        out = mod.op_default_target(x, w, b)
        torch.cuda.synchronize()
    kernels = {e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA}
    hopper = torch.cuda.get_device_capability() == (9, 0)
    variant = mod.op_default_target.graph.variant_for({"M": m, "K": k, "N": n})
    assert variant.startswith("op_default_target_sm90a") == hopper
    if hopper and (m, k, n) == (128, 512, 256):
        assert any("_sm90a_" in name for name in kernels), kernels
    assert rel(out, torch.softmax(x.double() @ w.double() + b.double(), -1)) < 5e-3
