"""Every example, built with hdsc + nvcc and run on the GPU against numpy on
odd shapes (not multiples of any tile). Inputs are fresh random data; outputs
are poisoned with NaN before each run so unwritten elements fail."""
import numpy as np
import pytest

import harness

rng = np.random.default_rng(2026)
gpu = pytest.mark.gpu


def rand(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


@gpu
@pytest.mark.parametrize("n", [1, 257, 1_000_003])
def test_vector_add(n):
    lib = harness.build("examples/vector_add.hds")
    a, b = rand(n), rand(n)
    out = lib.run("vector_add", {"a": a, "b": b}, {"c": ((n,), np.float32)}, {"N": n})
    assert harness.rel_error(out["c"], a.astype(np.float64) + b) < 1e-7


@gpu
@pytest.mark.parametrize("kernel", ["matmul_naive", "matmul_tiled"])
@pytest.mark.parametrize("m,n,k", [(1000, 1003, 517), (129, 127, 9), (1, 1, 1), (256, 384, 64), (77, 300, 1031),
                                   (300, 260, 100)])
def test_matmul(kernel, m, n, k):
    lib = harness.build(f"examples/{kernel}.hds")
    a, b = rand(m, k), rand(k, n)
    out = lib.run(kernel, {"a": a, "b": b}, {"c": ((m, n), np.float32)}, {"M": m, "K": k, "N": n})
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert harness.rel_error(out["c"], ref) < 1e-5


@gpu
@pytest.mark.parametrize("r,c", [(1000, 1003), (3, 1), (1, 5000), (37, 255)])
def test_row_sum(r, c):
    lib = harness.build("examples/row_sum.hds")
    x = rand(r, c)
    out = lib.run("row_sum", {"x": x}, {"y": ((r,), np.float32)}, {"R": r, "C": c})
    assert harness.rel_error(out["y"], x.astype(np.float64).sum(axis=1)) < 1e-5


@gpu
@pytest.mark.parametrize("r,c", [(1000, 1003), (7, 1), (2, 4097), (64, 33)])
def test_softmax(r, c):
    lib = harness.build("examples/softmax.hds")
    x = rand(r, c) * 4
    out = lib.run("softmax", {"x": x}, {"y": ((r, c), np.float32)}, {"R": r, "C": c})
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    assert harness.rel_error(out["y"], e / e.sum(axis=1, keepdims=True)) < 1e-5


def _gelu(v):
    from math import erf

    return 0.5 * v * (1.0 + np.vectorize(erf)(v / np.sqrt(2.0)))


@gpu
@pytest.mark.parametrize("n", [1, 1000, 100_003])
def test_gelu_f16(n):
    lib = harness.build("examples/gelu_f16.hds")
    x, bias = rand(n, dtype=np.float16), rand(n, dtype=np.float16)
    out = lib.run("gelu_f16", {"x": x, "bias": bias}, {"y": ((n,), np.float16)}, {"N": n})
    biased = (x + bias).astype(np.float64)  # numpy rounds the f16 sum like __hadd
    ref = _gelu(biased)
    assert out["y"].dtype == np.float16
    assert harness.rel_error(out["y"], ref) < 2e-3


@pytest.mark.skipif(harness.nvcc() is None, reason="nvcc not found")
def test_launchers_reject_bad_arguments():
    """Argument checks happen on the host before any CUDA call, so this runs
    without a GPU: null tensors and non-positive sizes are cudaErrorInvalidValue
    (1); grids over the hardware limits are cudaErrorInvalidConfiguration (9);
    a tensor the kernel copies 16 bytes at a time must be 16-byte aligned (1)."""
    lib = harness.build("examples/matmul_naive.hds")
    dummy = 1 << 20  # never dereferenced: the launcher must refuse first
    assert lib.launch_raw("matmul_naive", [None, dummy, dummy, 4, 4, 4]) == 1
    assert lib.launch_raw("matmul_naive", [dummy, dummy, dummy, 0, 4, 4]) == 1
    assert lib.launch_raw("matmul_naive", [dummy, dummy, dummy, 4, -3, 4]) == 1
    assert lib.launch_raw("matmul_naive", [dummy, dummy, dummy, 1 << 16, 1 << 16, 4]) == 1  # M*K >= 2^31
    assert lib.launch_raw("matmul_naive", [dummy, dummy, dummy, 1_100_000, 1, 1]) == 9  # grid.y > 65535
    tiled = harness.build("examples/matmul_tiled.hds")  # copy_vec4 of a and b
    assert tiled.launch_raw("matmul_tiled", [dummy + 4, dummy, dummy, 4, 4, 4]) == 1
    assert tiled.launch_raw("matmul_tiled", [dummy, dummy + 8, dummy, 4, 4, 4]) == 1


@gpu
@pytest.mark.parametrize("m,n,k", [(256, 384, 64), (1000, 1003, 517), (77, 300, 1031), (129, 136, 40), (1, 8, 8),
                                   (130, 64, 1)])
def test_matmul_tensor_cores_f16(m, n, k):
    # K and N multiples of 8 take the cp.async path, the others the scalar staging.
    lib = harness.build("examples/matmul_tc.hds")
    a, b = rand(m, k, dtype=np.float16), rand(k, n, dtype=np.float16)
    out = lib.run("matmul_mma_f16", {"a": a, "b": b}, {"c": ((m, n), np.float16)}, {"M": m, "K": k, "N": n})
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert harness.rel_error(out["c"], ref) < 2e-3  # f32 accumulation, one f16 rounding


@gpu
@pytest.mark.parametrize("m,n,k", [(1000, 1003, 517), (512, 256, 128)])
def test_matmul_tensor_cores_bf16(m, n, k):
    torch = pytest.importorskip("torch", reason="torch is not installed")
    lib = harness.build("examples/matmul_tc.hds")
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=torch.bfloat16)
    assert lib.launch_raw("matmul_mma_bf16", [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]) == 0
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    assert float((c.double() - ref).norm() / ref.norm()) < 1e-2


@gpu
@pytest.mark.parametrize("dtype", ["f16", "bf16", "f16_small", "f16_n64", "f16_n192", "f16_s8", "c2_f16"])
@pytest.mark.parametrize("m,n,k", [(1001, 264, 520), (128, 256, 64), (333, 1032, 4104), (1, 8, 8),
                                   (2049, 2056, 136)])
def test_matmul_hopper(dtype, m, n, k):
    """TMA + wgmma (sm_90a): tails in every dimension (M odd, N and K multiples of 8
    but not of the 256 x 64 tile), zero-filled by the copy engine; 2049 x 2056 x 136
    has fewer k-slices (3) than stages (4, or 8 for s8). In clusters of two (c2), an odd number of
    128-row tiles (333, 1, 2049) leaves the last cluster a tile wholly past M."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    lib = harness.build("examples/matmul_hopper.hds")
    t = torch.bfloat16 if dtype.endswith("bf16") else torch.float16
    a, b = torch.randn(m, k, device="cuda").to(t), torch.randn(k, n, device="cuda").to(t)
    c = torch.full((m, n), float("nan"), device="cuda", dtype=t)
    assert lib.launch_raw(f"matmul_wgmma_{dtype}", [a.data_ptr(), b.data_ptr(), c.data_ptr(), m, k, n]) == 0
    torch.cuda.synchronize()
    ref = a.double() @ b.double()
    assert float((c.double() - ref).norm() / ref.norm()) < (1e-2 if dtype.endswith("bf16") else 2e-3)


@gpu
def test_matmul_hopper_rejects_unaligned_rows():
    """K = 517: rows of a are not 16-byte multiples, which TMA cannot read."""
    torch = pytest.importorskip("torch", reason="torch is not installed")
    lib = harness.build("examples/matmul_hopper.hds")
    a = torch.randn(64, 517, device="cuda").half()
    b = torch.randn(517, 64, device="cuda").half()
    c = torch.empty(64, 64, device="cuda").half()
    assert lib.launch_raw("matmul_wgmma_f16", [a.data_ptr(), b.data_ptr(), c.data_ptr(), 64, 517, 64]) == 1


@gpu
@pytest.mark.parametrize("n", [512, 384, 128])
def test_cluster_chosen_per_call(n):
    """tests/golden/cluster_per_call.hds, `cluster(N % 256 == 0 ? 2 : 1)`: where N is a multiple
    of 256, pairs of blocks (a cluster of 2) swap their halves through distributed shared memory;
    else there is no cluster and each block copies its own."""
    lib = harness.build("tests/golden/cluster_per_call.hds")
    a = rand(n)
    out = lib.run("swap_halves", {"a": a}, {"out": ((n,), np.float32)}, {"N": n})["out"]
    ref = a.reshape(-1, 2, 128)[:, ::-1].reshape(-1) if n % 256 == 0 else a
    np.testing.assert_array_equal(out, ref)
