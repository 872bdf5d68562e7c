"""The sm_80 tensor-core built-ins on the CPU emulator (codegen/cpu/compile_tensor_core.cpp):
ldmatrix_x4[_trans] and mma_16816 with each lane's fragment registers as the PTX ISA lays
them out, cp.async landing at the wait that covers its group, syncwarp() as a barrier of the
warp's lanes; and the checks on broken kernels (tests/emu/tensor_core.hds), located at the
.hds line. The stdlib's mma.sync GEMM (examples/matmul_tc.hds) runs against numpy on sizes
on both sides of its 128 x 128 tiles and 32-deep slices."""
import re

import numpy as np
import pytest

import emulator

TC = "tests/emu/tensor_core.hds"
rng = np.random.default_rng(5)


def located(message: str, line: int) -> bool:
    return re.search(rf"tensor_core\.hds:{line}:\d+: error: ", message) is not None


def round_bf16(x: np.ndarray) -> np.ndarray:
    """f32 -> bf16 (round to nearest even) -> f32."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    return bits.astype(np.uint32).view(np.float32)


@pytest.mark.parametrize("kernel", ["mma_tile_f16", "mma_tile_bf16"])
def test_mma_tile(kernel):
    """ldmatrix_x4 (A), ldmatrix_x4_trans (B, two n-tiles), mma_16816 onto accumulators of 1:
    every element of the 16 x 16 result where the fragments say (a wrong lane mapping moves
    values); products exact, sums in f32."""
    a, b = rng.standard_normal((16, 16)).astype(np.float32), rng.standard_normal((16, 16)).astype(np.float32)
    rnd = round_bf16 if kernel.endswith("bf16") else (lambda x: x.astype(np.float16).astype(np.float32))
    c = emulator.run(TC, kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    ref = rnd(a).astype(np.float64) @ rnd(b).astype(np.float64) + 1.0
    np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("m,k,n", [(16, 16, 16), (77, 40, 33), (130, 64, 129), (128, 96, 256), (1, 8, 8)])
def test_mma_gemm(m, k, n):
    """stdlib/matmul_mma.hds (cp.async pipeline, ldmatrix, mma.sync, syncwarp before its
    stores) with racecheck: one f16 rounding of the f32 sums."""
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = emulator.run("examples/matmul_tc.hds", "matmul_mma_f16", {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), ref, rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("nbytes", [16, 8, 0])
def test_cp_async_groups(nbytes):
    """Two groups landing at wait(1) and wait(0); a copy of fewer than 16 bytes fills the rest
    with zeros."""
    a = rng.standard_normal((8, 8)).astype(np.float16)
    b = emulator.run(TC, "cp_groups", {"a": a}, ["b"], scalars={"bytes": nbytes}, racecheck=True)["b"]
    want = a.copy()
    want[4:, nbytes // 2:] = 0
    np.testing.assert_array_equal(b, want)


def test_read_before_cp_async_lands():
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(TC, "cp_no_wait", {"a": np.ones((8, 8), np.float16)}, ["b"])
    msg = str(e.value)
    assert located(msg, 75), msg
    assert "read of 's' (element 0) before the cp.async that writes it has landed" in msg


def test_mma_not_reached_by_every_lane():
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(TC, "mma_divergent", {"a": np.ones((16, 16), np.float32)}, ["c"])
    msg = str(e.value)
    assert located(msg, 92), msg
    assert "mma_16816 not reached by every lane of the warp" in msg


def test_syncwarp_orders_lanes():
    """A lane reads its neighbour's shared write after syncwarp() (racecheck silent: the
    warp's lanes are ordered by it); without one the read is reported."""
    a = rng.standard_normal(32).astype(np.float32)
    b = emulator.run(TC, "neighbours", {"a": a}, ["b"], racecheck=True)["b"]
    np.testing.assert_array_equal(b, np.roll(a, -1))
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(TC, "neighbours_racy", {"a": a}, ["b"], racecheck=True)
    assert located(str(e.value), 110) and "read of uninitialized shared memory 's' (element 1)" in str(e.value), \
        str(e.value)


def test_race_on_a_landed_copy():
    """racecheck counts a cp.async's write at the wait that lands it."""
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(TC, "cp_landed_race", {"a": np.ones((8, 8), np.float16)}, ["b"], racecheck=True)
    msg = str(e.value)
    assert located(msg, 121) and "read after a write by thread 0" in msg, msg
