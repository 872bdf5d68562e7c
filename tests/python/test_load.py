"""hds.load on the CPU emulator (no GPU needed): numerics against torch on odd
shapes and on both sides of each dispatch condition, every checked-call error,
the build cache (keys, invalidation by an imported file, two processes at once)
and hdsc's diagnostics as exceptions."""
from __future__ import annotations

import multiprocessing
import os
import time
from pathlib import Path

import numpy as np
import pytest
import torch

import hds
from hds import _build

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BLOCKS = HERE / "graphs" / "blocks.hds"
STDLIB = ROOT / "stdlib"


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    """Each test builds into its own cache, with the tree's hdsc."""
    monkeypatch.setenv("HDS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HDSC", os.environ.get("HDSC", str(ROOT / "build" / "hdsc")))
    return tmp_path / "cache"


@pytest.fixture
def mod():
    return hds.load(BLOCKS, include=[STDLIB], device="cpu")


def rel(out: torch.Tensor, ref: torch.Tensor) -> float:
    return float((out.double() - ref.double()).norm() / ref.double().norm())


@pytest.mark.parametrize("m,k,n", [(3, 37, 2049), (7, 61, 129), (17, 40, 33), (300, 9, 5)])
def test_linear_relu_each_variant(mod, m, k, n):
    """M <= 4 with N >= 2048 (gemv), M <= 16 narrow, M <= 256, any: each side of each condition."""
    g = torch.Generator().manual_seed(m * n)
    x, w, b = (torch.randn(s, generator=g) for s in ((m, k), (k, n), (n,)))
    assert rel(mod.linear_relu(x, w, b), torch.relu(x @ w + b)) < 1e-5


@pytest.mark.parametrize("m,k,n,variant", [(5, 24, 40, "mm_rows16_skinny"), (19, 24, 40, "mm_rows16_wgmma_split"),
                                           (70, 24, 40, "mm_rows16_wgmma64x128"), (19, 21, 13, "mm_wgmma_split")])
def test_sm90a_on_the_emulator(tmp_path, m, k, n, variant):
    """Loaded for sm_90a, the CPU emulator runs the sm_90a schedules (TMA + wgmma, K split over
    a cluster) and dispatch, as the GPU would."""
    src = tmp_path / "mm.hds"
    src.write_text('import "nn.hds";\ngraph mm(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n')
    m90 = hds.load(src, include=[STDLIB], arch="sm_90a", device="cpu")
    assert m90.manifest["target"] == "sm_90a"
    assert variant in [v["name"] for v in m90.manifest["graphs"][0]["variants"]]
    g = torch.Generator().manual_seed(m + n)
    a, b = torch.randn(m, k, generator=g).half(), torch.randn(k, n, generator=g).half()
    assert rel(m90.mm(a, b), a.double() @ b.double()) < 2e-3


@pytest.mark.parametrize("t,d,f", [(2, 20, 12), (5, 24, 40), (19, 24, 40), (19, 21, 13)])
def test_gated_f16(mod, t, d, f):
    """silu(rms_norm(x) @ wg) * (rms_norm(x) @ wu) in f16 (gemv, skinny, rows of 16 bytes, any)."""
    g = torch.Generator().manual_seed(t + d)
    x = torch.randn(t, d, generator=g).half()
    gain = (1 + 0.1 * torch.randn(d, generator=g)).half()
    wg, wu = ((torch.randn(d, f, generator=g) / d**0.5).half() for _ in range(2))
    h = torch.nn.functional.rms_norm(x.float(), (d,), gain.float(), eps=1e-6)
    ref = torch.nn.functional.silu(h @ wg.float()) * (h @ wu.float())
    out = mod.gated(x, gain, wg, wu)
    assert out.dtype == torch.float16 and out.shape == (t, f)
    assert rel(out, ref) < 5e-3


def test_rows_bf16_and_numpy(mod):
    x = torch.randn(5, 77).bfloat16()
    out = mod.rows(x)
    assert out.dtype == torch.bfloat16
    assert rel(out, torch.softmax(x.float(), -1)) < 1e-2
    # numpy in, numpy out (bf16 as raw uint16 bits)
    raw = mod.rows(x.view(torch.int16).numpy().view(np.uint16))
    assert isinstance(raw, np.ndarray) and np.array_equal(raw, out.view(torch.int16).numpy().view(np.uint16))


def test_grouped_attention(mod):
    g = torch.Generator().manual_seed(3)
    q = torch.randn(1, 4, 3, 16, generator=g).half()
    k, v = (torch.randn(1, 2, 37, 16, generator=g).half() for _ in range(2))
    kk, vv = (t.repeat_interleave(2, dim=1).float() for t in (k, v))
    ref = torch.nn.functional.scaled_dot_product_attention(q.float(), kk, vv, scale=0.25)
    assert rel(mod.gqa(q, k, v), ref) < 5e-3


def test_parameters_by_name_and_sizes(mod):
    x, w, b = torch.randn(2, 3), torch.randn(3, 4), torch.randn(4)
    assert torch.equal(mod.linear_relu(b=b, w=w, x=x), mod.linear_relu(x, w, b))
    tensors, sizes = mod.linear_relu.bind(x, w, b)
    assert sizes == {"M": 2, "K": 3, "N": 4}
    assert mod.linear_relu.graph.variant_for(sizes) == "linear_relu_skinny_simt_narrow"


def errors_of(mod):
    x, w, b = torch.randn(5, 7), torch.randn(7, 3), torch.randn(3)
    q, kv = torch.zeros(1, 3, 2, 16).half(), torch.zeros(1, 2, 5, 16).half()
    return [
        (lambda: mod.linear_relu(x, w), hds.ArgumentTypeError, "missing parameter 'b'"),
        (lambda: mod.linear_relu(x, w, b, b), hds.ArgumentTypeError, "takes 3 tensors"),
        (lambda: mod.linear_relu(x, w, b, bias=b), hds.ArgumentTypeError, "no parameter 'bias'"),
        (lambda: mod.linear_relu(x, w, x=x, b=b), hds.ArgumentTypeError, "parameter 'x' twice"),
        (lambda: mod.linear_relu([[1.0]], w, b), hds.ArgumentTypeError, "parameter 'x': expected a torch.Tensor"),
        (lambda: mod.linear_relu(x.double(), w, b), hds.ArgumentError, "parameter 'x' has dtype float64, expected float32"),
        (lambda: mod.linear_relu(x[None], w, b), hds.ArgumentError, "parameter 'x' has shape [1, 5, 7] (rank 3), expected f32[M, K]"),
        # K bound by x (7), contradicted by w (6)
        (lambda: mod.linear_relu(x, torch.randn(6, 3), b), hds.ArgumentError,
         "parameter 'w' has shape [6, 3], expected [K, N]: dimension 0 is 6 but K = 7 (from parameter 'x', dimension 1)"),
        (lambda: mod.linear_relu(x, w, torch.randn(4)), hds.ArgumentError, "dimension 0 is 4 but N = 3"),
        (lambda: mod.linear_relu(x.t().contiguous().t(), w, b), hds.ArgumentError, "parameter 'x' is not contiguous"),
        (lambda: mod.linear_relu(x.to("meta"), w, b), hds.ArgumentError, "parameter 'x' is on meta"),
        (lambda: mod.linear_relu(x, w, b, sizes={"Q": 1}), hds.ArgumentError, "'Q' is not a size of the graph"),
        (lambda: mod.linear_relu(x, w, b, sizes={"M": 6}), hds.ArgumentError, "dimension 0 is 5 but M = 6 (from sizes=)"),
        (lambda: mod.gqa(q, kv, kv), hds.ArgumentError, "break `require H % G == 0` of attention"),
        (lambda: mod.rows(torch.zeros(0, 4).bfloat16()), hds.ArgumentError, "size R = 0"),
    ]


@pytest.mark.parametrize("case", range(15))
def test_call_errors_name_the_parameter(mod, case):
    fn, kind, text = errors_of(mod)[case]
    with pytest.raises(kind) as e:
        fn()
    assert text in str(e.value)


def test_load_errors(tmp_path):
    with pytest.raises(hds.ArgumentError, match="device must be 'cuda' or 'cpu'"):
        hds.load(BLOCKS, device="tpu")
    with pytest.raises(hds.ArgumentError, match="arch must be"):
        hds.load(BLOCKS, arch="sm_70", device="cpu")
    with pytest.raises(hds.ArgumentError, match="no file"):
        hds.load(tmp_path / "missing.hds", device="cpu")
    with pytest.raises(hds.ArgumentError, match="include: no folder"):
        hds.load(BLOCKS, include=[tmp_path / "nowhere"], device="cpu")
    with pytest.raises(hds.ArgumentError, match="declares no graph"):
        hds.load(ROOT / "examples" / "vector_add.hds", device="cpu")
    with pytest.raises(AttributeError, match="has no graph 'nope'"):
        hds.load(BLOCKS, include=[STDLIB], device="cpu").nope


def test_compile_error_carries_diagnostics(tmp_path):
    bad = tmp_path / "bad.hds"
    bad.write_text('import "nn.hds";\ngraph g(x: f32[N]) -> f32[N] {\n    return softmax(y);\n}\n')
    with pytest.raises(hds.CompileError) as e:
        hds.load(bad, include=[STDLIB], device="cpu")
    assert f"{bad}:3:20: error:" in str(e.value) and "^" in str(e.value)


def test_warnings_become_python_warnings(tmp_path):
    src = tmp_path / "w.hds"
    src.write_text("op tiny<T>(x: T[N]) -> T[N] { compute y[i] = x[i] * 1e-50; }\n"
                   "graph w(x: f32[N]) -> f32[N] { return tiny(x); }\n")
    with pytest.warns(hds.HdsWarning, match="-Wliteral-conversion"):
        hds.load(src, include=[STDLIB], device="cpu")


def test_cache_hits_and_imports_invalidate(tmp_path, cache):
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "act.hds").write_text("op act<T>(x: T[*S]) -> T[*S] { compute y[*i] = x[*i] * 2.0; }\n")
    src = tmp_path / "m.hds"
    src.write_text('target sm_80;\nimport "act.hds";\ngraph m(x: f32[N]) -> f32[N] { return act(x); }\n')
    first = hds.load(src, include=[lib], device="cpu")
    assert first.timings["hdsc_s"] > 0
    again = hds.load(src, include=[lib], device="cpu")
    assert again.timings["hdsc_s"] == 0 and again.folder == first.folder
    x = torch.arange(5.0)
    assert torch.equal(again.m(x), 2 * x)
    (lib / "act.hds").write_text("op act<T>(x: T[*S]) -> T[*S] { compute y[*i] = x[*i] * 3.0; }\n")
    changed = hds.load(src, include=[lib], device="cpu")
    assert changed.timings["hdsc_s"] > 0
    assert torch.equal(changed.m(x), 3 * x)
    other_flags = hds.load(src, include=[lib], arch="sm_80", device="cpu")
    assert other_flags.folder != changed.folder


def _load_in_child(args):
    cache_dir, hdsc = args
    os.environ["HDS_CACHE_DIR"], os.environ["HDSC"] = cache_dir, hdsc
    m = hds.load(BLOCKS, include=[STDLIB], device="cpu")
    return str(m.folder), m.timings["hdsc_s"] > 0


def test_two_processes_build_once(cache):
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_load_in_child, [(str(cache), os.environ["HDSC"])] * 2)
    assert results[0][0] == results[1][0]
    assert sorted(built for _, built in results) == [False, True]
    entries = [p for p in cache.iterdir() if p.is_dir()]
    assert len(entries) == 1, entries


def test_announces_slow_compiles(capsys):
    with _build._announce("slow.hds (hdsc)", delay=0.05):
        time.sleep(0.2)
    err = capsys.readouterr().err
    assert "hds: compiling slow.hds (hdsc) ..." in err and "hds: compiled slow.hds (hdsc) in" in err
    with _build._announce("fast.hds (hdsc)", delay=5):
        pass
    assert capsys.readouterr().err == ""


def test_cuda_without_gpu_says_so():
    if torch.cuda.is_available():
        pytest.skip("a GPU is here")
    with pytest.raises(hds.HdsError, match="no CUDA GPU"):
        hds.load(BLOCKS, include=[STDLIB])


SM80 = ["-gencode=arch=compute_80,code=sm_80", "-gencode=arch=compute_80,code=compute_80"]


@pytest.mark.parametrize("target,gpu,flags", [
    ("sm_80+sm_90a", "NVIDIA H100 80GB HBM3 sm_90", ["-gencode=arch=compute_90a,code=sm_90a"]),
    ("sm_80+sm_90a", "NVIDIA A100-SXM4-80GB sm_80", SM80),
    ("sm_80+sm_90a", "NVIDIA GeForce RTX 4090 sm_89", SM80),
    ("sm_80+sm_90a", "NVIDIA B200 sm_100", SM80),
    ("sm_80+sm_90a", "NVIDIA GeForce RTX 5090 sm_120", SM80),
    ("sm_90a", "NVIDIA H200 sm_90", ["-gencode=arch=compute_90a,code=sm_90a"]),
    ("sm_80", "NVIDIA H100 80GB HBM3 sm_90", SM80 + ["-gencode=arch=compute_90,code=sm_90"]),
    ("sm_80", "NVIDIA B200 sm_100", SM80 + ["-gencode=arch=compute_90,code=sm_90"]),
])
def test_nvcc_builds_what_the_device_runs(target, gpu, flags):
    """A .cu of both targets is built for the one the device runs (the sm_90a variants on an
    H100, where variant_for's default says sm90a_code() holds; the sm_80 code elsewhere, with
    its PTX, which the driver compiles for a GPU newer than the SASS: a Blackwell one)."""
    assert _build.nvcc_targets(target, gpu) == flags
