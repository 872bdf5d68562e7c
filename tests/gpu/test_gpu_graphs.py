"""The example graphs on the GPU against torch eager (odd batch sizes), the
CUDA-graph capture helper, and the argument checks of NAME_run."""
import pytest

import harness

torch = pytest.importorskip("torch", reason="torch is not installed")
gpu = pytest.mark.gpu


def run_example(example, size, graph=None):
    import models
    make, ref_fn, size_name, out_shape = models.MODELS[example]
    graph = graph or harness.build_graph(models.source(example))
    inputs = make(size)
    out = torch.full(out_shape(inputs), float("nan"), dtype=inputs["x"].dtype, device="cuda")
    sizes = {size_name: size}
    ws = graph.workspace(sizes)
    assert graph.run({**inputs, "out": out}, sizes, ws) == 0
    torch.cuda.synchronize()
    ref = ref_fn(**{k: v.double() if v.dtype != torch.float16 else v.float() for k, v in inputs.items()}).double()
    return out, ref, graph, inputs, sizes, ws


def rel(out, ref):
    return float((out.double() - ref).norm() / ref.norm())


@gpu
@pytest.mark.parametrize("example,size,tol", [("mlp", 77, 5e-3), ("mlp", 1, 5e-3), ("transformer_block", 129, 1e-5),
                                              ("transformer_block", 7, 1e-5), ("resnet_block", 3, 1e-5),
                                              ("mlp_sm90a", 77, 5e-3), ("mlp_sm90a", 1, 5e-3),
                                              ("mm_bias_gelu", 333, 5e-3), ("conv3x3_f16", 3, 5e-3),
                                              ("conv1x1_f16", 2, 5e-3), ("llama_block", 300, 5e-3),
                                              ("llama_block", 3, 5e-3), ("llama_block", 1, 5e-3)])
def test_example_matches_torch(example, size, tol):
    out, ref, *_ = run_example(example, size)
    assert torch.isfinite(out).all()
    assert rel(out, ref) < tol


@gpu
@pytest.mark.parametrize("example", ["resnet_block", "mlp_sm90a"])  # the second passes tensor maps
def test_capture_and_replay(example):
    out, ref, graph, inputs, sizes, ws = run_example(example, 2)
    import ctypes
    stream = torch.cuda.Stream()
    out2 = torch.full_like(out, float("nan"))
    exec_ = ctypes.c_void_p()
    args = graph.args({**inputs, "out": out2}, sizes)
    assert graph.capture_fn(*args, ws.data_ptr(), stream.cuda_stream, ctypes.byref(exec_)) == 0
    assert torch.isnan(out2).all()  # captured, not run
    assert graph.replay_fn(exec_, stream.cuda_stream) == 0
    stream.synchronize()
    assert torch.equal(out, out2)


@gpu
def test_run_checks_arguments():
    out, ref, graph, inputs, sizes, ws = run_example("mlp", 5)
    bad = dict(sizes, B=0)
    assert graph.run({**inputs, "out": out}, bad, ws) == 1  # cudaErrorInvalidValue
    assert graph.run({**inputs, "out": out}, sizes, None) == 1  # the MLP needs a workspace
    args = graph.args({**inputs, "out": out}, sizes)
    assert graph.run_fn(*args, ws.data_ptr() + 4, 0) == 1  # ... 16-byte aligned
