"""matmul's schedules and dispatch in small graphs (tests/gpu/ops/*.hds) on the GPU against
torch: f16/bf16 on TMA + wgmma (sm_90a) and mma.sync (sm_80) at every variant of a symbolic
matmul's dispatch, on both sides of its bounds; SwiGLU as one GEMM; f32 on the SIMT cores.
Outputs start as NaN so unwritten elements fail."""
import pytest

torch = pytest.importorskip("torch", reason="torch is not installed")
F = pytest.importorskip("torch.nn.functional", reason="torch is not installed")
gpu = pytest.mark.gpu

from graph_calls import check, rnd, run  # noqa: E402 (after the skip without torch)


@gpu
def test_matmul_bias_gelu_sm90():
    x, w, bias = rnd(1001, 520, dtype=torch.float16), rnd(520, 264, dtype=torch.float16), rnd(264, dtype=torch.float16)
    ref = F.gelu(x.double() @ w.double() + bias.double())
    check(run("op_matmul_sm90", {"x": x, "w": w, "bias": bias}, {"M": 1001}, (1001, 264), torch.float16), ref, 2e-3)


@gpu
def test_matmul_epilogue_widened_sm90():
    """The whole tiles' 16-byte copies with + bias and relu in registers, then f32 stores with a residual."""
    x, w, b = rnd(1001, 136, dtype=torch.float16), rnd(136, 264, dtype=torch.float16), rnd(264, dtype=torch.float16)
    r = rnd(1001, 264)
    ref = F.relu(x.double() @ w.double() + b.double()) + r.double()
    out = run("op_matmul_sm90_f32_out", {"x": x, "w": w, "b": b, "r": r}, {"M": 1001}, (1001, 264), torch.float32)
    check(out, ref, 2e-3)


@gpu
@pytest.mark.parametrize("m,k,n", [
    (1001, 520, 264),  # K, N multiples of 8: TMA + wgmma, 128 x 256 tiles
    (513, 520, 264),   # M just past 512: the same
    (512, 4104, 136),  # M <= 512: 128 x 128 tiles, K past 64-wide slices, N past 128-wide tiles
    (257, 520, 264),   # M just past 256: 128 x 128 tiles
    (256, 520, 264),   # M <= 256: 64 x 128 tiles
    (17, 520, 264),    # M just past 16: 64 x 128 tiles
    (16, 4104, 136),   # M <= 16: matmul_skinny, cp.async staging, K past 256-wide slices
    (1, 520, 264),     # one row: matmul_skinny
    (16, 517, 264),    # M <= 16, K odd: matmul_skinny, scalar staging
    (3, 517, 264),     # M just past 2, K odd: the same
    (16, 4095, 4097),  # K and N odd: matmul_skinny_shifted (K split over 4 blocks a strip), a partial strip
    (8, 4096, 4097),   # N odd only: the same
    (4, 1000, 13),     # N < 16: one partial strip
    (16, 517, 5),      # N < 8: rows shorter than a 16-byte chunk
    (2, 517, 264),     # M <= 2, K odd: matmul_gemv (element reads, 1024 threads per 32 columns)
    (1, 4095, 4097),   # one row, K and N odd, K >= 2048: matmul_gemv_shifted (16-byte reads, 4 blocks
                       # a strip of 248 columns, a second kernel adding them), a partial column strip
    (2, 4095, 4097),   # two rows: the same, blocks of two rows of a
    (2, 4095, 263),    # two rows, N < 264: matmul_skinny_shifted
    (1, 4095, 264),    # N = 264, the least for matmul_gemv_shifted
    (1, 4095, 263),    # N < 264: matmul_gemv_split (element by element, strips of 128 columns)
    (1, 1023, 4097),   # K under 1536, b under 2^22 elements: matmul_gemv
    (1, 768, 50257),   # below K = 2048, b of 2^22 elements or more (GPT-2's vocabulary): matmul_gemv_shifted, 1 block a strip
    (2, 1024, 4097),   # the same for two rows (2^22 + 1024 elements)
    (4, 1024, 8193),   # four rows from 2^23 elements: matmul_skinny_shifted
    (4, 1000, 8191),   # under 2^23 elements: matmul_skinny
    (3, 4095, 4097),   # three rows: matmul_skinny_shifted
    (3, 4095, 77),     # N < 136: matmul_gemv_split with blocks of 4 rows (MR = 4)
    (3, 1535, 4097),   # K under 1536 and b under 2^23 elements: matmul_skinny
    (3, 1536, 1025),   # from K = 1536 whatever b's size: matmul_skinny_shifted
    (1, 1536, 1025),   # ... and matmul_gemv_shifted
    (4, 4095, 4097),   # four rows: matmul_skinny_shifted
    (4, 4096, 8449),   # past 66 strips: matmul_skinny_shifted two stages deep, two blocks a multiprocessor (3 a strip)
    (16, 1025, 8448),  # 66 strips: matmul_skinny_shifted, three stages
    (16, 255, 33792),  # 264 strips, the most for two blocks a multiprocessor: the same, one a strip
    (5, 256, 33793),   # 265 strips: three stages, a partial strip
    (16, 4095, 136),   # N = 136, the least for matmul_skinny_shifted: 2 strips, K split over 8 blocks each
    (16, 4095, 135),   # N < 136: matmul_skinny's element-wise staging
    (11, 2055, 4100),  # K odd only: matmul_skinny_shifted, a partial strip
    (2, 2049, 8447),   # two rows from N = 264: matmul_gemv_shifted (35 strips, 3 blocks each)
    (2, 2049, 136),    # two rows from N = 136: matmul_skinny_shifted (2 strips, 8 blocks each)
    (2, 2049, 120),    # two rows below N = 136: matmul_gemv_split, 1 strip, 8 blocks
    (1, 2049, 8449),   # matmul_gemv_shifted, 35 strips: 3 blocks each
    (1, 2049, 16391),  # 67 strips: 3 blocks each
    (2, 520, 264),     # M <= 2, 16-byte rows: matmul_skinny (cp.async)
    (16, 72, 10240),   # M <= 16, N >= 10240 (40 tiles of 256): wgmma 64 x 256
    (1, 520, 10248),   # one row, a weight of 2^22 elements or more: the swapped product (matmul_wgmma_swap), two consumers
    (16, 72, 10232),   # N just under 10240: matmul_skinny
    (17, 72, 10240),   # M just past 16: 64 x 128 tiles (K < 1024: not split)
    (3, 4096, 4096),   # M <= 16, a weight of 2^24: the swapped product in 16-row tiles, K split over 2 blocks, 16 stages
    (2, 4096, 4104),   # the same, a partial column tile
    (16, 4104, 4096),  # K past 4096: the swapped product with one consumer, 8 stages
    (16, 4104, 4232),  # 67 tiles of 64 columns: a block per tile, K split over 2 blocks (up to 88 tiles)
    (2, 4096, 8456),   # 133 tiles: two consumers, 128 columns a block, 6 stages
    (16, 4096, 5120),  # 80 tiles: K split over 2 blocks
    (32, 4096, 6144),  # 17-48 rows at 67-132 tiles: a block per tile of 64 columns
    (48, 4104, 8448),  # the same, 132 tiles
    (24, 4096, 5120),  # 80 tiles at 32 rows a tile: K split over 2 blocks
    (77, 4096, 6144),  # 65-80 rows at 67-132 tiles: a block per tile of 64 columns
    (129, 4096, 4096),  # 129-192 rows: the swapped product in tiles of 144 (rows past M: TMA's zeros)
    (160, 4104, 2560),  # 160 rows, 40 tiles of 64 columns, K split over 2 blocks
    (176, 8192, 4096),  # 176 rows
    (192, 4096, 4224),  # 192 rows, 66 tiles
    (200, 4096, 4096),  # past 192 rows: 64 x 128 tiles
    (129, 4096, 5696),  # 129-176 rows at 89-132 tiles of 64 columns: a block per tile of 144 rows, not split
    (150, 1024, 6000),  # 160 rows a tile, a partial column tile
    (170, 2048, 8448),  # 176 rows a tile, 132 tiles, rows past M
    (7, 8192, 512),    # a weight of 2^22: 8 tiles of 64 columns, K split over 8 blocks
    (13, 2048, 8200),  # 129 tiles of 64 columns: two consumers, not split; a partial column tile
    (24, 4096, 4096),  # 17-32 rows: 32-row tiles, rows past M (TMA's zeros)
    (32, 4104, 4096),  # 32 rows
    (33, 4096, 4096),  # 33-48 rows: 48-row tiles
    (40, 4096, 1024),  # 16 tiles: K split over 4 blocks
    (16, 4096, 4088),  # a partial column tile
    (16, 4096, 1024),  # N <= 1024 (matmul_skinny_split's) at 2^22 elements: the swapped product
    (77, 4096, 4096),  # 65-80 rows: 80-row tiles, one consumer alone (8 stages), K split over 2 blocks
    (80, 4096, 1032),  # 17 tiles: split over 4, a partial column tile
    (81, 2048, 4096),  # 81-96 rows: 96-row tiles
    (90, 2048, 11000), # 65-192 rows, one wave of 64 x 192 tiles (116), the last one partial
    (90, 2048, 13304), # 208 tiles of 64: the swap's two consumers, the second's columns partial
    (96, 4096, 4096),  # 96 rows
    (97, 4096, 4096),  # 97-112 rows at N = 4096: 112-row tiles, one consumer, rows past M TMA's zeros
    (128, 2048, 4104), # 113-128 rows: 128-row tiles, a partial column tile (65 of them)
    (100, 4096, 2048), # 32 tiles of 64 columns past 96 rows: 64 x 128 tiles, K split over 3 blocks
    (128, 1100, 11008),  # 65-192 rows where 64 x 192 tiles make one wave (116) and 64 x 128 two
    (77, 1100, 8448),  # 65-96 rows, 64 x 128 tiles in one wave of 132: those, not the swap
    (150, 517, 6001),  # padded to 520 x 6008: 64 x 192 tiles, the third row tile from row 86
    (768, 520, 4096),  # 192 x 128 tiles: one wave of 128 (128 x 128 ones would take two)
    (769, 520, 4096),  # one row more: 160 of them would take two waves, 128 x 128 tiles
    (700, 517, 4097),  # padded to 520 x 4104: 132 tiles of 192 x 128, the last row tile from row 508
    (16, 4088, 1024),  # a weight just under 2^22: matmul_skinny_split, K split over clusters of 8
    (5, 2048, 1000),   # the same, a partial 128-column strip, clusters of 8 (K >= 2048)
    (16, 2040, 1024),  # K just under 2048: matmul_skinny
    (16, 2048, 1032),  # N just past 1024: matmul_skinny
    (50, 1100, 264),   # M <= 64, 3 tiles of 64 x 128: K split over clusters of K / 512 = 2 blocks
    (40, 1016, 264),   # K just under 1024: not split
    (50, 2100, 520),   # 5 tiles: K split over 4 blocks, two of which store (2 groups of 64 columns)
    (60, 4100, 1000),  # 8 tiles, K padded to 4104: 8 blocks, a partial column tile
    (64, 4100, 2048),  # 16 tiles: 4 blocks (30 clusters of 4 are resident, 16 of 8 would not be)
    (50, 1600, 4352),  # 34 tiles: 3 blocks
    (64, 1100, 8448),  # 66 tiles: 2 blocks
    (64, 1100, 8456),  # 67 tiles: too many to split
    (65, 1100, 264),   # M just past 64: never split; the second row tile starts at M - 64 = 1
    (77, 1100, 264),   # the same from row 13 (inside a: TMA's zero fill past M is slow), storing rows 64..76
    (17, 517, 264),    # M > 16, K odd: 64 x 128 tiles on copies of x and w padded to K = 520
    (77, 520, 261),    # N odd: the same, w and the result padded to N = 264 (then sliced)
    (256, 4095, 4097), # K and N odd: padded, 64 x 128 tiles
    (257, 1, 9),       # K = 1: padded to 8; 128 x 128 tiles
    (512, 517, 261),   # padded, 128 x 128 tiles
    (513, 1003, 1001), # padded, 128 x 256 tiles
    (3, 7, 9),
    (2, 7, 9),         # matmul_gemv: K shorter than the 32 warps' runs
])
def test_matmul_symbolic_sizes_every_variant_sm90(m, k, n):
    """Every size symbolic: the emitted dispatch picks a variant per call (M, K % 8, N % 8); where
    K or N is not a multiple of 8 and M > 16, the wgmma variants run on zero-padded copies."""
    x, w, bias = rnd(m, k, dtype=torch.float16), rnd(k, n, dtype=torch.float16), rnd(n, dtype=torch.float16)
    ref = F.gelu(x.double() @ w.double() + bias.double())
    out = run("op_matmul_symbolic_sm90", {"x": x, "w": w, "bias": bias}, {"M": m, "K": k, "N": n}, (m, n),
              torch.float16)
    check(out, ref, 2e-3)


@gpu
@pytest.mark.parametrize("m,k,n", [
    (16, 520, 264),    # as written up to 48 rows
    (48, 520, 264),
    (49, 520, 264),    # swiglu, 64 x 64 tiles up to 64 rows
    (64, 4096, 1032),  # the same, the last tile's columns partial
    (65, 264, 200),    # 64 x 128 tiles (one wave either way)
    (300, 1032, 392),  # the same, several tiles per persistent block
    (65, 264, 8576),   # 128 x 128 tiles (one wave of 67), rows past M recomputed from the tile before
    (200, 136, 5128),  # the same, the last tile's columns partial
    (300, 1031, 392),  # K odd: as written, padded
    (77, 64, 199),     # N odd: as written, padded
])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_swiglu_symbolic_sizes_sm90(m, k, n, dtype):
    """silu(x @ wg) * (x @ wu) + r written as separate ops: one GEMM computing both products
    (swiglu) where a variant has it, the products as written elsewhere; against float64."""
    x, wg, wu = rnd(m, k, dtype=dtype), rnd(k, n, dtype=dtype) / 4, rnd(k, n, dtype=dtype) / 4
    r = rnd(m, n, dtype=dtype)
    ref = F.silu(x.double() @ wg.double()) * (x.double() @ wu.double()) + r.double()
    graph = "op_swiglu_sm90" if dtype == torch.float16 else "op_swiglu_sm90_bf16"
    out = run(graph, {"x": x, "wg": wg, "wu": wu, "r": r}, {"M": m, "K": k, "N": n}, (m, n), dtype)
    check(out, ref, 5e-3 if dtype == torch.float16 else 2e-2)


@gpu
@pytest.mark.parametrize("m,k,n", [
    (16, 520, 264),  # M <= 16: matmul_skinny
    (17, 520, 264),  # M > 16: mma.sync, 128 x 128 tiles
    (17, 517, 263),  # M > 16, K and N odd: mma.sync on copies padded to K = 520, N = 264
    (17, 1024, 264),   # K >= 1024, at most 66 tiles, K >= 8 M: matmul_mma_split, K split over 8 blocks a tile
    (128, 4096, 4096), # 32 tiles: K split over 4 blocks
    (77, 1032, 1000),  # 33 slices over 8 blocks of 5 (the last one's share past K: zeros), partial tiles
    (129, 4104, 4224), # 66 tiles: K split over 4 blocks, a second row of tiles
    (64, 2048, 11008), # 86 tiles (up to 132 while K >= 16 M): K split over 3 blocks
    (129, 1024, 4352), # 68 tiles, K < 16 M: mma.sync, not split
    (100, 1016, 4096), # K just under 1024: not split
    (1300, 520, 1664), # 143 tiles of 128 x 128: 128 x 256 tiles, partial rows and columns
    (1300, 520, 1536), # 132 tiles: 128 x 128 ones
    (1300, 517, 1663), # 128 x 256 tiles on copies padded to K = 520, N = 1664
    (1, 2048, 2048),   # one row against a weight of 2^22 elements: matmul_gemv_shifted
    (1, 4096, 11008),  # the same, 45 strips of 248 columns
    (300, 9, 7),     # the same, padded to K = N = 16
    (5, 4095, 77),   # matmul_skinny, scalar staging, K past 256-wide slices
    (16, 2049, 3),   # the same, N < 8
    (2, 4095, 77),   # M <= 2, K odd, K >= 2048: matmul_gemv_split (8 blocks, one strip)
    (3, 4095, 77),   # M = 3: the same, blocks of 4 rows
    (2, 1023, 77),   # K < 2048: matmul_gemv
    (5, 2049, 301),  # from M = 2, K >= 2048, N >= 136: matmul_skinny_shifted, the residual added by its second kernel
    (1, 2049, 301),  # one row from N = 264: matmul_gemv_shifted, likewise
    (2, 2049, 301),  # two rows: the same, blocks of two rows
    (1, 8, 8),
])
def test_matmul_symbolic_sizes_sm80_bf16(m, k, n):
    """The sm_80 target: matmul_gemv for M <= 2 where K or N is not a multiple of 8 (one row against
    a weight of 2^22 elements or more matmul_gemv_shifted whatever K and N; from K = 2048
    matmul_gemv_split, with the residual added by its second kernel; from M = 2 and N = 136
    matmul_skinny_shifted, likewise), matmul_skinny for M <= 16, mma.sync otherwise (on padded copies where K or N
    is not a multiple of 8; from K = 1024 where 128 x 128 tiles are few for K, K split over
    blocks, the residual added by the second kernel); bf16, with a residual epilogue."""
    x, w, r = rnd(m, k, dtype=torch.bfloat16), rnd(k, n, dtype=torch.bfloat16), rnd(m, n, dtype=torch.bfloat16)
    ref = x.double() @ w.double() + r.double()
    out = run("op_matmul_symbolic_sm80", {"x": x, "w": w, "r": r}, {"M": m, "K": k, "N": n}, (m, n), torch.bfloat16)
    check(out, ref, 1e-2)


@gpu
@pytest.mark.parametrize("m,k,n", [(1, 4096, 4096), (4, 1000, 2051), (4, 1000, 2047), (5, 1000, 2051),
                                   (16, 1000, 1003), (17, 1000, 1003), (3, 37, 1), (2, 4095, 2048), (9, 300, 64),
                                   (256, 77, 129), (257, 77, 129), (5, 64, 2047), (5, 64, 2048)])
def test_matmul_f32_few_rows(m, k, n):
    """M <= 4 and N >= 2048: matmul_gemv (element reads; 32 warps split K); M <= 16: matmul_skinny_simt (16-byte
    reads of b when N % 4 == 0, else one element at a time; strips of 8 columns below N = 2048, of 32 from it);
    M <= 256: 32 x 32 tiles (two k-groups); past it 128 x 128."""
    a, b, c = rnd(m, k), rnd(k, n), rnd(n)
    pre = a.double() @ b.double() + c.double()
    out = run("op_matmul_f32_symbolic", {"a": a, "b": b, "c": c}, {"M": m, "K": k, "N": n}, (m, n), torch.float32)
    # Measured against the values before the relu: with M = 3, N = 1 all three may be negative.
    check(out, torch.relu(pre), 1e-5, scale=float(pre.norm()))


@gpu
@pytest.mark.parametrize("m,k,n", [(32, 4096, 4096), (33, 300, 129), (77, 1000, 1003), (256, 1000, 1003),
                                   (544, 2048, 8), (1088, 1024, 8), (544, 40, 100), (2144, 40, 100),
                                   (4224, 40, 100), (4225, 40, 100), (2944, 3, 129), (2945, 3, 129),
                                   (256, 4096, 4096), (4224, 3, 129), (4225, 3, 129), (512, 4093, 11001),
                                   (128, 1000, 1003), (128, 2048, 1000), (128, 2049, 1000), (96, 4096, 1200),
                                   (3168, 3, 32), (3169, 3, 32), (320, 520, 320), (960, 2048, 8), (961, 2048, 8),
                                   (1984, 1024, 8), (1985, 1024, 8), (5760, 3, 129), (5761, 3, 129),
                                   (8576, 3, 129), (9728, 3, 129), (128, 4096, 11008), (100, 2000, 11001),
                                   (4256, 1024, 8), (5952, 1024, 8), (5953, 1024, 8), (64, 4096, 11008), (33, 1500, 9001)])
def test_matmul_f32_split_sm90(m, k, n):
    """sm_90a, f32 past M = 16: 32 x 128 tiles with K split over clusters of 8, 4, 2 or 1 (chosen per
    call; some blocks with no k-slice at K = 40; in 4 from 133 to 186 tiles), 32 x 32 tiles with four k-groups split in 2 or 1
    (from 100 to 132 of them, where K <= 2048: 2048 / 2049), 128 x 128 tiles split in 4 or 2, and the
    unsplit tiles on each side of the boundaries (tests/emu/test_graph_ops.py::test_matmul_simt_split
    has the same cases), the bias and relu fused into the store of the added sums."""
    a, b, c = rnd(m, k), rnd(k, n), rnd(n)
    pre = a.double() @ b.double() + c.double()
    out = run("op_matmul_f32_split_sm90", {"a": a, "b": b, "c": c}, {"M": m, "K": k, "N": n}, (m, n), torch.float32)
    check(out, torch.relu(pre), 1e-5, scale=float(pre.norm()))
