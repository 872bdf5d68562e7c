"""Every example run on the CPU emulator against numpy, on odd shapes: the CI
check of kernel numerics without a GPU (the same examples run on the GPU in
tests/gpu)."""
from math import erf

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(11)


def rel_error(out, ref):
    out, ref = out.astype(np.float64), ref.astype(np.float64)
    assert np.all(np.isfinite(out))
    return np.linalg.norm(out - ref) / max(np.linalg.norm(ref), 1e-300)


@pytest.mark.parametrize("n", [1, 257, 1000])
def test_vector_add(n):
    a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    c = emulator.run("examples/vector_add.hds", "vector_add", {"a": a, "b": b}, ["c"])["c"]
    np.testing.assert_array_equal(c, a + b)  # one f32 add: bit-exact


@pytest.mark.parametrize("kernel", ["matmul_naive", "matmul_tiled"])
@pytest.mark.parametrize("m,n,k", [(37, 45, 29), (129, 127, 9), (1, 1, 1)])
def test_matmul(kernel, m, n, k):
    a, b = rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)
    c = emulator.run(f"examples/{kernel}.hds", kernel, {"a": a, "b": b}, ["c"])["c"]
    assert rel_error(c, a.astype(np.float64) @ b) < 1e-6


@pytest.mark.parametrize("bm,bn", [(32, 32), (64, 128), (128, 32), (32, 64)])
def test_matmul_simt_tiles(tmp_path, bm, bn):
    """The tunable tile sizes of stdlib/matmul_simt.hds (blocks of 64 to 256
    threads) on shapes that leave partial tiles on every side."""
    src = tmp_path / "mm.hds"
    src.write_text(f'import "matmul_simt.hds";\nkernel mm = matmul_simt<f32, {bm}, {bn}>;\n')
    a, b = rng.standard_normal((37, 19)).astype(np.float32), rng.standard_normal((19, 70)).astype(np.float32)
    c = emulator.run(src, "mm", {"a": a, "b": b}, ["c"])["c"]
    assert rel_error(c, a.astype(np.float64) @ b) < 1e-6


@pytest.mark.parametrize("bm,bn,k", [(32, 32, 19), (32, 64, 100), (64, 32, 64), (128, 128, 40)])
def test_matmul_simt_k_groups(tmp_path, bm, bn, k):
    """Two k-groups take alternate 16-wide slices and add up their sums at the
    end: k = 19 gives each group one slice (the second partial), k = 100 and 40
    an odd number of slices (the second group has nothing in its last step);
    partial tiles on every side, vector and element loads."""
    kg = 2
    src = tmp_path / "mm.hds"
    src.write_text(f'import "matmul_simt.hds";\nkernel mm = matmul_simt<f32, {bm}, {bn}, {kg}>;\n')
    a, b = rng.standard_normal((37, k)).astype(np.float32), rng.standard_normal((k, 72)).astype(np.float32)
    c = emulator.run(src, "mm", {"a": a, "b": b}, ["c"])["c"]
    assert rel_error(c, a.astype(np.float64) @ b) < 1e-6


@pytest.mark.parametrize("t", ["f32", "f16"])
@pytest.mark.parametrize("bm,bn,m,n,k", [(32, 32, 64, 96, 36), (32, 64, 70, 100, 40), (128, 128, 128, 128, 20),
                                         (64, 32, 64, 33, 16)])
def test_matmul_simt_vector_slices(tmp_path, t, bm, bn, m, n, k):
    """Tiles inside the matrices with rows of multiples of 4 elements stage their
    k-slices with copy_vec4; the last partial slice, edge tiles and N % 4 != 0
    (the last case) take the guarded element loads."""
    src = tmp_path / "mm.hds"
    src.write_text(f'import "matmul_simt.hds";\nkernel mm = matmul_simt<{t}, {bm}, {bn}>;\n')
    dtype = np.float32 if t == "f32" else np.float16
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    c = emulator.run(src, "mm", {"a": a, "b": b}, ["c"])["c"]
    assert rel_error(c, a.astype(np.float64) @ b.astype(np.float64)) < (1e-6 if t == "f32" else 2e-3)


@pytest.mark.parametrize("r,c", [(3, 1), (5, 300), (2, 1000)])
def test_row_sum(r, c):
    x = rng.standard_normal((r, c)).astype(np.float32)
    y = emulator.run("examples/row_sum.hds", "row_sum", {"x": x}, ["y"])["y"]
    assert rel_error(y, x.astype(np.float64).sum(axis=1)) < 1e-6


@pytest.mark.parametrize("r,c", [(7, 1), (3, 300), (2, 517)])
def test_softmax(r, c):
    x = (rng.standard_normal((r, c)) * 4).astype(np.float32)
    y = emulator.run("examples/softmax.hds", "softmax", {"x": x}, ["y"])["y"]
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    assert rel_error(y, e / e.sum(axis=1, keepdims=True)) < 1e-6


@pytest.mark.parametrize("n", [1, 1003])
def test_gelu_f16(n):
    x, bias = rng.standard_normal(n).astype(np.float16), rng.standard_normal(n).astype(np.float16)
    y = emulator.run("examples/gelu_f16.hds", "gelu_f16", {"x": x, "bias": bias}, ["y"])["y"]
    v = (x.astype(np.float64) + bias).astype(np.float16).astype(np.float64)
    ref = 0.5 * v * (1 + np.vectorize(erf)(v / np.sqrt(2)))
    assert y.dtype == np.float16
    assert rel_error(y, ref) < 1e-3
