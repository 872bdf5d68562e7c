"""The sm_90a built-ins on the CPU emulator (codegen/cpu/compile_hopper.cpp,
hopper_runtime.cpp, scheduler.cpp): TMA boxes landing swizzled as the tensor maps say,
mbarrier phases, wgmma through the descriptors' layouts, clusters; the stdlib's TMA + wgmma
GEMM (every tile shape, clusters with multicast, K split over a cluster) and its wgmma
attention against numpy on odd sizes; and each check on a broken kernel
(tests/emu/hopper.hds), located at its .hds line."""
import re

import numpy as np
import pytest

import emulator
from emulator import skip_large_under_sanitizers

HOPPER = "tests/emu/hopper.hds"
rng = np.random.default_rng(9)


def line_of(text: str) -> int:
    """The line of tests/emu/hopper.hds that holds `text` (once)."""
    lines = [i + 1 for i, l in enumerate((emulator.ROOT / HOPPER).read_text().splitlines()) if text in l]
    assert len(lines) == 1, (text, lines)
    return lines[0]


def fails(kernel: str, inputs: dict, outputs: list, at: str, message: str, **kw):
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(HOPPER, kernel, inputs, outputs, **kw)
    msg = str(e.value)
    assert re.search(rf"hopper\.hds:{line_of(at)}:\d+: error: ", msg), msg
    assert message in msg, msg


@pytest.mark.parametrize("kernel,cols,chunk_of", [
    ("tma_box_128", 64, lambda r, c: c ^ r % 8),      # 128-byte rows: 8 chunks of 16 bytes
    ("tma_box_64", 32, lambda r, c: c ^ r // 2 % 4),  # 64-byte rows: two rows per 128 bytes
    ("tma_box_32", 16, lambda r, c: c ^ r // 4 % 2),
])
@pytest.mark.parametrize("r0,c0", [(0, 0), (5, 8), (-2, -8), (17, 72)])
def test_tma_box_swizzled(kernel, cols, chunk_of, r0, c0):
    """A box lands with the 16-byte chunk c of row r at chunk_of(r, c) of that row (the
    tensor map's swizzle for its row width); elements outside the 20 x 80 tensor read 0."""
    a = rng.standard_normal((20, 80)).astype(np.float16)
    out = emulator.run(HOPPER, kernel, {"a": a}, ["out"], scalars={"r0": r0, "c0": c0}, racecheck=True)["out"]
    want = np.zeros((8, cols), np.float16)
    for r in range(8):
        for c in range(cols):
            if 0 <= r0 + r < 20 and 0 <= c0 + c < 80:
                want[r, chunk_of(r, c // 8) * 8 + c % 8] = a[r0 + r, c0 + c]
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("r0,c0", [(0, 0), (5, 8), (-2, -8), (17, 72)])
def test_tma_rows(r0, c0):
    """tma_load_2d_rows copies a box of 8 rows into rows 8..15 of a 16-row buffer, swizzled as
    a 128-byte box is (by the shared address); outside the 20 x 80 tensor, zeros."""
    a = rng.standard_normal((20, 80)).astype(np.float16)
    out = emulator.run(HOPPER, "tma_rows", {"a": a}, ["out"], scalars={"r0": r0, "c0": c0, "rest": 0},
                       racecheck=True)["out"]
    want = np.zeros((8, 64), np.float16)
    for r in range(8):
        for c in range(64):
            if 0 <= r0 + r < 20 and 0 <= c0 + c < 80:
                want[r, (c // 8 ^ r % 8) * 8 + c % 8] = a[r0 + r, c0 + c]
    np.testing.assert_array_equal(out, want)


@pytest.mark.parametrize("b0,h0,r0,c0", [(0, 0, 0, 0), (1, 2, 5, 8), (1, 0, -3, 16), (0, 3, 0, 0), (2, 0, 0, 0)])
def test_tma_slice(b0, h0, r0, c0):
    """tma_load_2d from a [2, 3, 9, 80] tensor: the box comes from slice [b0, h0] alone (its rows
    past 9 read 0, not the next slice's rows); a slice outside the tensor reads 0."""
    a = rng.standard_normal((2, 3, 9, 80)).astype(np.float16)
    out = emulator.run(HOPPER, "tma_slice", {"a": a}, ["out"], scalars={"b0": b0, "h0": h0, "r0": r0, "c0": c0},
                       racecheck=True)["out"]
    want = np.zeros((8, 64), np.float16)
    for r in range(8):
        for c in range(64):
            if b0 < 2 and h0 < 3 and 0 <= r0 + r < 9 and 0 <= c0 + c < 80:
                want[r, (c // 8 ^ r % 8) * 8 + c % 8] = a[b0, h0, r0 + r, c0 + c]
    np.testing.assert_array_equal(out, want)


def test_tma_rows_leave_the_rest():
    """The rows of the buffer past the box are not written: reading them is reported."""
    fails("tma_rows", {"a": np.zeros((20, 80), np.float16)}, ["out"], "out[i, j] = box[(1 - rest) * 8 + i, j];",
          "read of uninitialized shared memory 'box'", scalars={"r0": 0, "c0": 0, "rest": 1})


@pytest.mark.parametrize("kernel,n", [("wgmma_tile_64", 64), ("wgmma_tile_256", 256)])
def test_wgmma_tile(kernel, n):
    """Four m64nNk16 over TMA-loaded tiles: the accumulators where the fragment layout says."""
    a = rng.standard_normal((64, 64)).astype(np.float16)
    b = rng.standard_normal((64, n)).astype(np.float16)
    c = emulator.run(HOPPER, kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


GEMMS = ["matmul_wgmma_f16", "matmul_wgmma_bf16", "matmul_wgmma_f16_small", "matmul_wgmma_f16_n64",
         "matmul_wgmma_f16_n192", "matmul_wgmma_f16_s8", "matmul_wgmma_c2_f16"]


def round_to(x: np.ndarray, dtype: str) -> np.ndarray:
    if dtype == "f16":
        return x.astype(np.float16)
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)  # bf16 as raw bits
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def from_bits(x: np.ndarray) -> np.ndarray:
    if x.dtype == np.uint16:
        return (x.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    return x.astype(np.float64)


@pytest.mark.parametrize("kernel", GEMMS)
@pytest.mark.parametrize("m,k,n", [(77, 40, 136), (200, 264, 264), (1, 8, 8), (129, 128, 192)])
def test_stdlib_wgmma_gemm(kernel, m, k, n):
    """examples/matmul_hopper.hds (stdlib/matmul_wgmma.hds: warp-specialized TMA + wgmma,
    mbarrier ring, setmaxnreg; clusters of two with multicast) against numpy on sizes that
    are not multiples of its tiles, with racecheck."""
    skip_large_under_sanitizers(m * k * n, limit=5_000_000)
    dtype = "bf16" if kernel.endswith("bf16") else "f16"
    a = round_to(rng.standard_normal((m, k)), dtype)
    b = round_to(rng.standard_normal((k, n)), dtype)
    c = emulator.run("examples/matmul_hopper.hds", kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    ref = from_bits(a) @ from_bits(b)
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(c), ref, rtol=tol, atol=tol * 4)


@pytest.mark.parametrize("m,k,n", [(64, 1024, 128), (50, 2048, 104), (128, 640, 64)])
def test_stdlib_wgmma_split_k(m, k, n):
    """matmul_wgmma with SPLITK: where tiles are few, each tile's K is split over a cluster
    chosen per call, whose blocks add their sums through distributed shared memory."""
    skip_large_under_sanitizers(m * k * n, limit=10_000_000)
    a = rng.standard_normal((m, k)).astype(np.float16)
    b = rng.standard_normal((k, n)).astype(np.float16)
    c = emulator.run(HOPPER, "matmul_splitk", {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    np.testing.assert_allclose(c.astype(np.float64), a.astype(np.float64) @ b.astype(np.float64), rtol=3e-3,
                               atol=2e-2)


@pytest.mark.parametrize("m,k,n", [(192, 64, 128), (200, 136, 136), (77, 64, 264), (400, 72, 128)])
def test_stdlib_wgmma_192_rows(m, k, n):
    """matmul_wgmma with BM = 192 (three consumer warp groups, persistent): partial tiles in both
    directions, fewer rows than a tile, several tiles per block's loop."""
    skip_large_under_sanitizers(max(m, 192) * k * n, limit=10_000_000)
    a = round_to(rng.standard_normal((m, k)), "f16")
    b = round_to(rng.standard_normal((k, n)), "f16")
    c = emulator.run(HOPPER, "matmul_bm192", {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    np.testing.assert_allclose(from_bits(c), from_bits(a) @ from_bits(b), rtol=2e-3, atol=8e-3 * np.sqrt(k / 64))


def silu_mul_ref(g: np.ndarray, h: np.ndarray) -> np.ndarray:
    return g / (1 + np.exp(-g)) * h


@pytest.mark.parametrize("kernel,m,k,n", [
    ("glu", 200, 136, 264),     # 2 x 3 tiles over 3 blocks: partial tiles both ways, the last rows recomputed
    ("glu", 77, 64, 128),       # fewer rows than a tile, one slice
    ("glu", 129, 520, 72),      # 9 slices over the ring of 4, a tile past 64 columns of c
    ("glu_tile", 130, 200, 136),  # bf16, one block per tile
    ("glu_64", 150, 264, 200),  # 64 x 64 tiles (one consumer), 12 of them over 2 blocks
    ("glu_64", 3, 40, 8)])      # one tile, almost empty
def test_stdlib_wgmma_glu(kernel, m, k, n):
    """stdlib/matmul_wgmma_glu.hds (swiglu's schedule: silu(a @ b) * (a @ u) as one GEMM, both
    products of a tile side by side from one slice of a) against float64, with racecheck."""
    skip_large_under_sanitizers(max(m, 128) * k * n * 2, limit=10_000_000)
    dtype = "bf16" if kernel == "glu_tile" else "f16"
    a = round_to(rng.standard_normal((m, k)) / 2, dtype)
    b = round_to(rng.standard_normal((k, n)) / np.sqrt(k), dtype)
    u = round_to(rng.standard_normal((k, n)) / np.sqrt(k), dtype)
    c = emulator.run(HOPPER, kernel, {"a": a, "b": b, "u": u}, ["c"], racecheck=True)["c"]
    ref = silu_mul_ref(from_bits(a) @ from_bits(b), from_bits(a) @ from_bits(u))
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(c), ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("kernel,m,k,n", [
    ("matmul_abox", 1, 1024, 136), ("matmul_abox", 9, 520, 64), ("matmul_abox", 17, 64, 200),
    ("matmul_abox", 31, 2048, 64), ("matmul_abox", 33, 128, 136), ("matmul_abox", 70, 128, 72),
    ("matmul_abox_c2", 5, 64, 136), ("matmul_abox_c2", 64, 40, 64), ("matmul_abox_c2", 100, 24, 72)])
def test_stdlib_wgmma_abox(kernel, m, k, n):
    """matmul_wgmma with ABOX: up to 32 rows of a left in a tile, one box of 8, 16 or 32 rows
    (the rest of the tile zeros, read by the wgmma all the same); 33 rows and more, the whole
    tile; with clusters of two, a tile past M (a box wholly past a's edge: M = 5, 64)."""
    skip_large_under_sanitizers(max(m, 64) * k * n, limit=10_000_000)
    dtype = "bf16" if kernel.endswith("c2") else "f16"
    a = round_to(rng.standard_normal((m, k)), dtype)
    b = round_to(rng.standard_normal((k, n)), dtype)
    c = emulator.run(HOPPER, kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(c), from_bits(a) @ from_bits(b), rtol=tol, atol=tol * 4 * np.sqrt(k / 64))


@pytest.mark.parametrize("kernel,m,k,n,split", [
    ("skinny_split", 3, 2048, 136, 8), ("skinny_split", 16, 1024, 264, 4), ("skinny_split", 5, 520, 40, 2),
    ("skinny_split", 17, 200, 8, 1), ("skinny_split_256", 1, 2048, 264, 8), ("skinny_split_256", 16, 256, 600, 1)])
def test_skinny_split(kernel, m, k, n, split):
    """matmul_skinny_split (decoding against a narrow weight): 128 or 256 columns of b per
    block, K split over a cluster of `split` blocks that add their sums through distributed
    shared memory; rows of a past M (and 17 rows: a second row of blocks), columns past N."""
    skip_large_under_sanitizers(16 * k * n, limit=20_000_000)
    sn = 256 if kernel.endswith("256") else 128
    strips, occ = (n + sn - 1) // sn, 1 if sn == 256 else 2
    assert split == next(s for s in (8, 4, 2, 1) if s == 1 or (strips * s <= 132 * occ and k >= s * 256))
    dtype = "bf16" if sn == 256 else "f16"
    a = round_to(rng.standard_normal((m, k)), dtype)
    b = round_to(rng.standard_normal((k, n)) / np.sqrt(k), dtype)
    c = emulator.run(HOPPER, kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(c), from_bits(a) @ from_bits(b), rtol=tol, atol=tol)


@pytest.mark.parametrize("kernel,bms,wgs,m,k,n,cons,split", [
    ("swap16", 16, 1, 9, 1024, 72, 1, 2), ("swap16", 16, 1, 40, 64, 200, 1, 1),
    ("swap16", 16, 1, 3, 1024, 5632, 1, 2), ("swap16", 16, 1, 3, 1024, 5640, 1, 1),
    ("swap32_1", 32, 1, 20, 1024, 4352, 1, 2), ("swap32_1", 32, 1, 40, 1024, 64, 1, 2),
    ("swap48_2", 48, 2, 40, 1536, 72, 1, 3), ("swap48_2", 48, 2, 20, 64, 4296, 2, 1),
    ("swap80", 80, 2, 77, 1024, 64, 1, 2), ("swap80", 80, 2, 170, 96, 64, 1, 1),
    ("swap80_1", 80, 1, 77, 1536, 72, 1, 3),
    ("swap112_1", 112, 1, 100, 1024, 72, 1, 2),
    ("swap128_nosplit", 128, 2, 130, 128, 104, 1, 1),
    ("swap144_1", 144, 1, 130, 1024, 72, 1, 2), ("swap160_1", 160, 1, 150, 512, 136, 1, 1),
    ("swap176_1", 176, 1, 170, 1024, 64, 1, 2), ("swap176_1_nosplit", 176, 1, 161, 512, 136, 1, 1),
    ("swap192_1", 192, 1, 200, 1536, 72, 1, 3)])
def test_stdlib_wgmma_swap(kernel, bms, wgs, m, k, n, cons, split):
    """matmul_wgmma_swap: c^T = b^T a^T on wgmma with both operands given transposed (b's
    columns as A, M-major; a's rows as B), BMS rows of a per tile (a partial last tile computes
    the BMS rows before M: M = 170 in tiles of 80), columns past N; per call one consumer (and
    the other idle through the split's cluster barriers) or two past 66 tiles of 64 columns,
    and K split over a cluster of `split` blocks or not at all (the kernel's rules: one consumer
    of 16 or 32 rows splits up to 88 tiles, 5632 columns)."""
    skip_large_under_sanitizers(max(m, bms) * k * n, limit=15_000_000)
    tiles64 = -(-m // bms) * -(-n // 64)
    rule = 1 if tiles64 > (88 if bms <= 32 and wgs == 1 else 66) else max(
        1, min(k // 512, next(s for lim, s in ((15, 8), (30, 4), (39, 3)) if tiles64 <= lim) if tiles64 <= 39 else 2))
    assert cons == (2 if wgs > 1 and tiles64 > 66 else 1)
    assert split == (1 if kernel.endswith("nosplit") else rule)
    dtype = "bf16" if kernel in ("swap48_2", "swap144_1") else "f16"
    a = round_to(rng.standard_normal((m, k)), dtype)
    b = round_to(rng.standard_normal((k, n)) / np.sqrt(k), dtype)
    c = emulator.run(HOPPER, kernel, {"a": a, "b": b}, ["c"], racecheck=True)["c"]
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(c), from_bits(a) @ from_bits(b), rtol=tol, atol=tol)


def attention_ref(q, k, v, scale, causal):
    h, g = q.shape[1], k.shape[1]
    k, v = np.repeat(k, h // g, axis=1), np.repeat(v, h // g, axis=1)
    s = q @ k.transpose(0, 1, 3, 2) * scale
    if causal:
        length, keys = q.shape[2], k.shape[2]
        s = np.where(np.arange(keys)[None, :] <= np.arange(length)[:, None] + keys - length, s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    return (p / p.sum(-1, keepdims=True)) @ v


@pytest.mark.parametrize("kernel,dtype,hd,scale,causal", [("attn_d64", "f16", 64, 0.125, 0),
                                                         ("attn_d64_causal", "bf16", 64, 0.125, 1),
                                                         ("attn_d128", "f16", 128, 0.088, 0),
                                                         ("attn_d64_wgs3", "f16", 64, 0.125, 0),
                                                         ("attn_d64_causal_pingpong", "f16", 64, 0.125, 1),
                                                         ("attn_d128_pingpong", "bf16", 128, 0.088, 0),
                                                         ("attn_d64_persistent", "bf16", 64, 0.125, 1),
                                                         ("attn_d64_wgs3_persistent", "f16", 64, 0.125, 0),
                                                         ("attn_d128_persistent", "f16", 128, 0.088, 1),
                                                         ("attn_d128_persistent_k64", "bf16", 128, 0.088, 0)])
@pytest.mark.parametrize("b,h,g,length,keys", [(1, 2, 1, 77, 150), (2, 4, 2, 200, 333), (1, 1, 1, 1, 1),
                                               (1, 140, 70, 77, 150), (1, 67, 67, 300, 300)])
def test_stdlib_wgmma_attention(kernel, dtype, hd, scale, causal, b, h, g, length, keys):
    """stdlib/attention_wgmma.hds (cp.async into the swizzled layout it writes by hand, Q K^T
    with B given transposed, P V with A from registers, mbarrier ring) against float64: the
    emulator's wgmma layouts agree with the one the kernel writes, which runs on the GPU.
    Persistent blocks (CTAS = 132) with more than 132 items take them two at a time (140
    heads of one item; 67 heads of 3 items on two consumers, an odd count: odd heads start
    with their middle item), the producer copying the next item's while the consumers finish;
    outputs staged in the last key tile's buffer, one of their own, or the queries'."""
    if h > 4 and "persistent" not in kernel:
        pytest.skip("many items only matter to the persistent kernels")
    if causal and keys < length:
        pytest.skip("causal needs L <= S")
    skip_large_under_sanitizers(b * h * length * keys * hd, limit=2_000_000)
    q, k, v = (round_to(rng.standard_normal((b, n, rows, hd)), dtype)
               for n, rows in ((h, length), (g, keys), (g, keys)))
    o = emulator.run(HOPPER, kernel, {"q": q, "k": k, "v": v}, ["o"], racecheck=True)["o"]
    ref = attention_ref(from_bits(q), from_bits(k), from_bits(v), scale, causal)
    tol = 2e-3 if dtype == "f16" else 2e-2
    np.testing.assert_allclose(from_bits(o), ref, rtol=tol, atol=tol)


def test_tma_read_before_landing():
    fails("tma_read_early", {"a": np.ones((8, 64), np.float16)}, ["out"], "<- read early",
          "read of 'box' (element 0) before the TMA copy that writes it has landed (the phase of its mbarrier "
          "has not completed)")


def test_mbarrier_deadlock():
    """A wait that can never complete is reported with the barrier's state, not hung on."""
    fails("mbar_deadlock", {}, ["out"], "<- deadlock",
          "deadlock: mbarrier_wait on 'bar' (element 0) for the phase of parity 0 can never complete: it has had "
          "1 of its 2 arrivals, and no thread that could arrive is running; 64 threads wait on it (0, 1, 2, 3, 4, 5, "
          "6, 7, ...)")


def test_mbarrier_misuse():
    fails("mbar_uninit", {}, ["out"], "<- uninitialized",
          "'bar' (element 1) is not an mbarrier: no mbarrier_init initialized it")
    fails("mbar_extra", {}, ["out"], "<- extra arrival",
          "arrival on 'bar' (element 0) beyond its count of 1 in one phase (the phase still awaits 16 bytes")


def test_mbarrier_orders_for_racecheck():
    """racecheck knows an mbarrier wait orders the arrivals' earlier accesses before it."""
    out = emulator.run(HOPPER, "mbar_handoff", {}, ["out"], scalars={"wait": 1}, racecheck=True)["out"]
    assert out[0] == 42.0
    fails("mbar_handoff", {}, ["out"], "<- handed over", "shared-memory race on 's' (element 0): read after a "
          "write by thread 0", scalars={"wait": 0}, racecheck=True)


def test_named_barriers():
    """barrier_arrive / barrier_sync hand a value over each way (racecheck sees the order); a
    count no arrivals reach is a deadlock, reported; without the wait, a race."""
    out = emulator.run(HOPPER, "named_handoff", {}, ["out"], scalars={"count": 64, "wait": 1}, racecheck=True)["out"]
    np.testing.assert_array_equal(out, [7.0] * 32 + [42.0] * 32)
    fails("named_handoff", {}, ["out"], "<- other count", "named barrier 1 reached with 32 threads while its "
          "phase counts 64", scalars={"count": 32, "wait": 1})
    fails("named_handoff", {}, ["out"], "<- too many", "named barrier 1 waits for 96 threads; the block has 64",
          scalars={"count": 96, "wait": 1})
    # (warp 1 waits at barrier 3 for ever, so warp 0 at barrier 2: the first waiting thread's is reported)
    fails("named_handoff", {}, ["out"], "barrier_sync(2, 64);", "deadlock: barrier_sync on named barrier 2 can "
          "never complete: 32 of its 64 threads have arrived", scalars={"count": 0, "wait": 1})
    fails("named_handoff", {}, ["out"], "<- read after the name", "shared-memory race on 's' (element 0): read "
          "after a write by thread 0", scalars={"count": 64, "wait": 0}, racecheck=True)


@pytest.mark.parametrize("how,at,message", [
    (1, "<- wgmma", "wgmma A (64 x 16 from element 6144 of 'sa') reaches element 8192, outside the array of 8192 "
                    "elements"),
    (2, "<- acc early", "read of 'acc' (element 0) while the wgmma_m64n64k16 issued at line"),
    (3, "<- wgmma", "wgmma_m64n64k16 uses registers of 'acc' (elements 0..31) written since the last "
                    "wgmma_fence()"),
    (4, "<- wgmma", "the thread finished before a wgmma_wait covered this wgmma_m64n64k16"),
    (5, "<- overwrite", "TMA copy into 'sa' (element 0) while a wgmma still reads it"),
])
def test_wgmma_misuse(how, at, message):
    a, b = np.ones((128, 64), np.float16), np.ones((64, 64), np.float16)
    fails("wgmma_broken", {"a": a, "b": b}, ["c"], at, message, scalars={"how": how})


def test_wgmma_broken_kernel_runs_when_used_right():
    """The same kernel with none of the misuses: its checks are silent."""
    a, b = np.ones((128, 64), np.float16), np.ones((64, 64), np.float16)
    emulator.run(HOPPER, "wgmma_broken", {"a": a, "b": b}, ["c"], scalars={"how": 0}, racecheck=True)


def test_setmaxnreg_budget():
    fails("setmaxnreg_over", {}, ["c"], "<- over budget",
          "setmaxnreg_inc(256): the warpgroups' register limits add up to 70656 registers, more than the 64512 "
          "the block has (384 threads launched with 168 each): the inc would wait for ever")


def test_cluster_shared_memory():
    """Blocks of a cluster run together: each reads the other's shared memory after cluster_sync."""
    out = emulator.run(HOPPER, "cluster_swap", {}, ["out"], scalars={"from": 0}, racecheck=True)["out"]
    np.testing.assert_array_equal(out, [101, 0, 103, 2])
    fails("cluster_swap", {}, ["out"], "<- remote", "block rank 2 is outside the cluster of 2 blocks",
          scalars={"from": 2})


def conv_nhwc_ref(x: np.ndarray, w: np.ndarray, stride: int, pad: int) -> np.ndarray:
    """float64 convolution of NHWC x with [O, R, S, C] weights."""
    n, h, wd, c = x.shape
    o, r_, s_, _ = w.shape
    p, q = (h + 2 * pad - r_) // stride + 1, (wd + 2 * pad - s_) // stride + 1
    xp = np.zeros((n, h + 2 * pad, wd + 2 * pad, c))
    xp[:, pad:pad + h, pad:pad + wd] = x
    y = np.zeros((n, p, q, o))
    for r in range(r_):
        for s in range(s_):
            taps = xp[:, r:r + stride * (p - 1) + 1:stride, s:s + stride * (q - 1) + 1:stride]
            y += np.einsum("npqc,oc->npqo", taps, w[:, r, s, :].astype(np.float64))
    return y


@pytest.mark.parametrize("kernel,stride,pad,n,h,wd,c,o,r", [
    ("conv_wgmma_s2", 2, 1, 3, 11, 9, 24, 70, 3),     # 3 blocks over 5 x 2 tiles; C of 24: one slice, 3 chunks read
    ("conv_wgmma_s2", 2, 1, 1, 4, 4, 8, 8, 3),        # one tile, mostly padding
    ("conv_wgmma_n256", 1, 1, 2, 10, 13, 136, 200, 3),  # 3 slices of C (the last 8 channels), O past 128
    ("conv_wgmma_1x1", 1, 0, 1, 7, 5, 64, 130, 1),    # 1 x 1, one block per tile, O of 130
    ("conv_wgmma_bf16", 1, 1, 1, 6, 9, 72, 64, 3),    # bf16, 6 stages over 18 slices
    ("conv_wgmma_taps", 2, 3, 2, 23, 21, 8, 70, 7),   # a slice per filter row: (s, c) pairs of the 7 x 7 stem
    ("conv_wgmma_taps16", 1, 1, 1, 9, 10, 16, 130, 3),  # the same with 16 channels: two chunks a tap
    ("conv_wgmma_split", 1, 1, 1, 7, 7, 512, 128, 3),  # one tile, 72 slices: 8 blocks of 9
    ("conv_wgmma_split", 1, 1, 1, 7, 7, 136, 200, 3),  # 2 tiles, 27 slices: 3 blocks (at least 8 slices each)
    ("conv_wgmma_split", 1, 1, 2, 16, 17, 64, 70, 3),  # 5 tiles, 9 slices: no split
    ("conv_wgmma_split", 1, 1, 1, 40, 28, 72, 130, 3),  # 18 tiles of 18 slices: 2 blocks each
])
def test_stdlib_conv_wgmma(kernel, stride, pad, n, h, wd, c, o, r):
    """stdlib/conv2d_wgmma.hds (conv2d_nhwc on sm_90a: the producer's cp.async gathers of
    each tap's rows into 128-byte swizzled rows, mbarriers, wgmma with B transposed) against
    float64: padding, strides, tails of C, O and the pixels, several tiles a persistent block;
    with racecheck."""
    dtype = "bf16" if kernel.endswith("bf16") else "f16"
    x = round_to(rng.standard_normal((n, h, wd, c)), dtype)
    w = round_to(rng.standard_normal((o, r, r, c)) / np.sqrt(r * r * c), dtype)
    p, q = (h + 2 * pad - r) // stride + 1, (wd + 2 * pad - r) // stride + 1
    y = np.zeros((n, p, q, o), dtype=x.dtype)
    y = emulator.run(HOPPER, kernel, {"x": x, "w": w, "y": y}, ["y"], racecheck=True)["y"]
    ref = conv_nhwc_ref(from_bits(x), from_bits(w), stride, pad)
    tol = 2e-3 if dtype == "f16" else 1e-2
    np.testing.assert_allclose(from_bits(y), ref, rtol=tol, atol=tol * 4)
