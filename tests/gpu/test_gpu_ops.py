"""Stdlib operators in small graphs (tests/gpu/ops/*.hds) on the GPU against
torch on odd shapes: broadcasting, f16/bf16, reductions over axes, softmax,
norms, convolution + pooling, attention, embedding/concat/slice, bmm + linear.
Outputs start as NaN so unwritten elements fail."""
import pytest

import harness

torch = pytest.importorskip("torch", reason="torch is not installed")
F = pytest.importorskip("torch.nn.functional", reason="torch is not installed")
gpu = pytest.mark.gpu


def rnd(*shape, dtype=torch.float32):
    return torch.randn(*shape, device="cuda").to(dtype)


def run(name, inputs, sizes, out_shape, dtype):
    graph = harness.build_graph(f"tests/gpu/ops/{name}.hds")
    out = torch.full(out_shape, float("nan"), device="cuda", dtype=dtype)
    ws = graph.workspace(sizes)
    assert graph.run({**inputs, "out": out}, sizes, ws) == 0
    torch.cuda.synchronize()
    return out


def check(out, ref, tol, scale=None):
    """Relative error against `ref`'s norm (or `scale`: where a relu may zero a small output)."""
    assert torch.isfinite(out).all()
    err = float((out.double() - ref.double()).norm() / (ref.double().norm() if scale is None else scale))
    assert err < tol, err


def up(t):
    return t.double() if t.is_floating_point() else t


@gpu
def test_broadcast():
    a, b = rnd(5, 1, 7), rnd(3, 1)
    check(run("op_broadcast", {"a": a, "b": b}, {}, (5, 3, 7), torch.float32), torch.maximum(a * b - 1, a), 1e-6)


@gpu
def test_unary_f16():
    x = rnd(301, 33, dtype=torch.float16)
    xd = x.double()
    ref = F.silu(xd) + torch.tanh(xd) + torch.sigmoid(xd) + F.gelu(xd)
    check(run("op_unary_f16", {"x": x}, {"N": 301}, (301, 33), torch.float16), ref, 2e-3)


@gpu
def test_gelu_f32_accuracy():
    """hds::gelu's polynomial (runtime/hds/math.h) against x * Phi(x) in float64, over [-12, 12]
    in steps of 1.2e-5 and the special values: the bounds its comment states, plus the ulp of
    the result and ex2.approx's 2 ulp."""
    specials = [0.0, -0.0, 1e-30, -1e-30, 6.0, -6.0, 3e38, -3e38, float("inf"), float("-inf"), float("nan")]
    x = torch.cat([torch.linspace(-12, 12, 2_000_001), torch.tensor(specials)]).cuda()
    out = run("op_gelu_f32", {"x": x}, {"N": x.numel()}, (x.numel(),), torch.float32).double()
    xd = x.double()
    exact = xd * 0.5 * torch.special.erfc(-xd / 2**0.5)
    n = 2_000_001
    err = (out[:n] - exact[:n]).abs()
    assert float((err - 2.6e-7 - exact[:n].abs() * 2**-24).max()) <= 0, float(err.max())
    big = exact[:n].abs() > 1e-6
    assert float((err[big] / exact[:n][big].abs()).max()) <= 3.5e-6
    want = [0.0, 0.0, 5e-31, -5e-31, 6.0, 0.0, 3e38, 0.0, float("inf"), 0.0]
    got = out[n:].tolist()
    assert got[:10] == pytest.approx(want, abs=1e-37, rel=3.5e-6), got
    assert got[10] != got[10]  # NaN stays NaN


@gpu
def test_sigmoid_and_silu_f32_accuracy():
    """hds::sigmoid (runtime/hds/math.h: ex2.approx of -x log2 e, rcp.approx) and silu = x * sigmoid
    against float64 over [-80, 80] in steps of 8e-5: the bound its comment states (4 ulp + |x| 2^-23
    relative), results below 2^-126 flushed to 0, and the special values."""
    specials = [0.0, -0.0, -87.0, -88.0, -100.0, 100.0, float("inf"), float("-inf"), float("nan")]
    x = torch.cat([torch.linspace(-80, 80, 2_000_001), torch.tensor(specials)]).cuda()
    n = 2_000_001
    xd = x.double()[:n]
    exact = torch.sigmoid(xd)
    bound = 4 * 2**-23 + xd.abs() * 2**-23
    sig = run("op_sigmoid_f32", {"x": x}, {"N": x.numel()}, (x.numel(),), torch.float32).double()
    assert float(((sig[:n] - exact).abs() / exact - bound).max()) <= 0
    silu = run("op_silu_f32", {"x": x}, {"N": x.numel()}, (x.numel(),), torch.float32).double()
    nonzero = xd != 0
    rel = (silu[:n] - xd * exact).abs()[nonzero] / (xd * exact).abs()[nonzero]
    assert float((rel - bound[nonzero] - 2**-24).max()) <= 0
    got = sig[n:].tolist()
    want = [0.5, 0.5, float(torch.sigmoid(torch.tensor(-87.0, dtype=torch.float64))), 0.0, 0.0, 1.0, 1.0, 0.0]
    assert got[:8] == pytest.approx(want, rel=2e-5, abs=0), got  # -88: below 2^-126, flushed
    assert got[8] != got[8]  # NaN stays NaN
    assert silu[n:n + 6].tolist() == pytest.approx([0.0, 0.0, -87.0 * want[2], 0.0, 0.0, 100.0], rel=2e-5, abs=0)


@gpu
def test_f16_arith_matches_torch_bit_for_bit():
    """a * b - a + b in f16 as torch eager computes it (each op rounded to f16), over magnitudes
    from subnormal products to overflow: the same bits, NaN where torch has NaN."""
    n = 1_000_003
    scale = torch.pow(10.0, torch.empty(n, device="cuda").uniform_(-6, 4))
    a = (torch.randn(n, device="cuda") * scale).half()
    b = (torch.randn(n, device="cuda") * scale.flip(0)).half()
    out = run("op_f16_arith", {"a": a, "b": b}, {"N": n}, (n,), torch.float16)
    torch.testing.assert_close(out, a * b - a + b, rtol=0, atol=0, equal_nan=True)


@gpu
def test_reduce_axes():
    x = rnd(9, 1001, 13)
    check(run("op_reduce_axes", {"x": x}, {"A": 1001}, (1001,), torch.float32), x.double().mean(dim=(0, 2)), 1e-5)


@gpu
def test_max_rows_f16():
    x = rnd(3001, 37, dtype=torch.float16)
    out = run("op_max_rows", {"x": x}, {"R": 3001}, (3001,), torch.float16)
    assert torch.equal(out, x.max(dim=1).values)


@gpu
@pytest.mark.parametrize("rows", [1, 129])
def test_softmax_f16_and_log_softmax(rows):
    x = rnd(rows, 1000, dtype=torch.float16) * 4
    check(run("op_softmax_f16", {"x": x}, {"R": rows}, (rows, 1000), torch.float16), torch.softmax(x.double(), -1),
          2e-3)
    y = rnd(rows, 77)
    check(run("op_log_softmax", {"x": y}, {"R": rows}, (rows, 77), torch.float32), torch.log_softmax(y.double(), -1),
          1e-5)


@gpu
def test_rms_norm_bf16():
    x, g = rnd(67, 96, dtype=torch.bfloat16), rnd(96, dtype=torch.bfloat16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm", {"x": x, "g": g}, {"R": 67}, (67, 96), torch.bfloat16), ref, 1e-2)


@gpu
def test_conv_relu_pool():
    x, w = rnd(3, 3, 17, 15), rnd(8, 3, 3, 3)
    ref = F.max_pool2d(F.relu(F.conv2d(x.double(), w.double(), stride=2, padding=1)), 2)
    check(run("op_conv_pool", {"x": x, "w": w}, {"N": 3}, (3, 8, 4, 4), torch.float32), ref, 1e-5)


@gpu
@pytest.mark.parametrize("n", [3, 1])
def test_conv_f16_tensor_cores(n):
    x, w, res = rnd(n, 37, 19, 23, dtype=torch.float16), rnd(70, 37, 3, 3, dtype=torch.float16), rnd(
        n, 70, 19, 23, dtype=torch.float16)
    ref = F.relu(F.conv2d(x.double(), w.double(), padding=1) + res.double())
    check(run("op_conv_f16", {"x": x, "w": w, "res": res}, {"N": n}, (n, 70, 19, 23), torch.float16), ref, 2e-3)


@gpu
@pytest.mark.parametrize("kernel,dtype,stride,pad,n,c,h,w,o", [
    ("conv3x3_tw8_bk32", torch.float16, 1, 1, 2, 72, 19, 23, 70),  # 3 slices of 32, the last partial
    ("conv3x3_tw8_bk32", torch.float16, 1, 1, 1, 30, 9, 5, 3),  # C not a multiple of 8: weights one by one
    ("conv3x3_s2_tw16", torch.float16, 2, 1, 3, 24, 17, 69, 40),  # stride 2: halo 17 x 33
    ("conv3x3_pad0_bk32_bf16", torch.bfloat16, 1, 0, 2, 40, 21, 35, 130),  # 3 blocks of output channels
    ("conv3x3_tw64", torch.float16, 1, 1, 1, 16, 5, 70, 64),  # rows of 64 pixels: 2 tiles across
    # two images' 8 x 8 pixels a tile (IMG = 2): ResNet's 7 x 7 maps at batch 32, an odd batch
    # (the last tile's second image past N), maps past 8 x 8 (tiles across and down)
    ("conv3x3_img2", torch.float16, 1, 1, 32, 512, 7, 7, 512), ("conv3x3_img2", torch.float16, 1, 1, 3, 40, 7, 7, 70),
    ("conv3x3_img2", torch.float16, 1, 1, 2, 24, 11, 9, 64),
    ("conv3x3_img2_s2", torch.float16, 2, 1, 5, 72, 14, 13, 64),
])
def test_conv3x3_tensor_cores_tiles(kernel, dtype, stride, pad, n, c, h, w, o):
    """conv2d_mma3x3 at its other tunable tiles (TW 8, 16 and 64; two images a tile) and slices (BK 32),
    launched as kernels."""
    lib = harness.build("tests/gpu/ops/conv3x3_mma_variants.hds")
    x, wt = rnd(n, c, h, w, dtype=dtype), rnd(o, c, 3, 3, dtype=dtype)
    p, q = (h + 2 * pad - 3) // stride + 1, (w + 2 * pad - 3) // stride + 1
    y = torch.full((n, o, p, q), float("nan"), device="cuda", dtype=dtype)
    assert lib.launch_raw(kernel, [x.data_ptr(), wt.data_ptr(), y.data_ptr(), n, c, h, w, o, p, q]) == 0
    torch.cuda.synchronize()
    check(y, F.conv2d(x.double(), wt.double(), stride=stride, padding=pad), 2e-3 if dtype == torch.float16 else 1e-2)


@gpu
@pytest.mark.parametrize("kernel,dtype,stride,pad,k,n,c,h,w,o", [
    ("conv_wgmma", torch.float16, 1, 1, 3, 32, 64, 56, 56, 64),  # ResNet-18's first stage at batch 32: 784 tiles
    ("conv_wgmma", torch.float16, 1, 1, 3, 32, 512, 7, 7, 512),  # its last: 13 x 4 tiles, 72 slices
    ("conv_wgmma", torch.float16, 1, 1, 3, 3, 40, 9, 11, 70),  # C of 40 (the slice's last 3 chunks zeros), O of 70
    ("conv_wgmma_s2", torch.float16, 2, 1, 3, 5, 72, 14, 13, 64),  # stride 2, 2 slices, 64 x 64 tiles
    ("conv_wgmma_n256_bf16", torch.bfloat16, 1, 1, 3, 2, 128, 15, 17, 300),  # O past 256: a 44-channel tile
    ("conv_wgmma_1x1_s2", torch.float16, 2, 0, 1, 32, 64, 56, 56, 128),  # ResNet's 1 x 1 shortcut, a block a tile
    ("conv_wgmma_64x128", torch.float16, 1, 1, 3, 1, 256, 14, 14, 256),  # batch 1: 4 x 2 tiles
    ("conv_wgmma_stem", torch.float16, 2, 3, 7, 32, 8, 224, 224, 64),  # ResNet's stem, a slice per filter row
    ("conv_wgmma_stem", torch.float16, 2, 3, 7, 3, 8, 37, 41, 70),  # odd maps, O past 64
    ("conv_wgmma_split", torch.float16, 1, 1, 3, 32, 512, 7, 7, 512),  # 52 tiles, 72 slices: clusters of 2
    ("conv_wgmma_split", torch.float16, 1, 1, 3, 1, 512, 7, 7, 512),  # 4 tiles: clusters of 8
    ("conv_wgmma_split", torch.float16, 1, 1, 3, 3, 72, 9, 11, 200),  # 6 tiles of 18 slices: clusters of 2
])
def test_conv_wgmma_nhwc(kernel, dtype, stride, pad, k, n, c, h, w, o):
    """conv2d_wgmma (conv2d_nhwc on sm_90a): NHWC x, [O, R, S, C] weights, NHWC y, launched as
    kernels at its tiles, against float64."""
    lib = harness.build("tests/gpu/ops/conv_wgmma.hds")
    x, wt = rnd(n, c, h, w, dtype=dtype), rnd(o, c, k, k, dtype=dtype)
    p, q = (h + 2 * pad - k) // stride + 1, (w + 2 * pad - k) // stride + 1
    xn, wn = x.permute(0, 2, 3, 1).contiguous(), wt.permute(0, 2, 3, 1).contiguous()
    y = torch.full((n, p, q, o), float("nan"), device="cuda", dtype=dtype)
    assert lib.launch_raw(kernel, [xn.data_ptr(), wn.data_ptr(), y.data_ptr(), n, h, w, c, o, k, k, p, q]) == 0
    torch.cuda.synchronize()
    ref = F.conv2d(x.double(), wt.double(), stride=stride, padding=pad).permute(0, 2, 3, 1)
    check(y, ref, 2e-3 if dtype == torch.float16 else 1e-2)


@gpu
@pytest.mark.parametrize("kernel,dtype,stride,n,c,h,w,o", [
    ("conv3x3_split16", torch.float16, 1, 1, 512, 7, 7, 512),  # ResNet's last stage: 8 blocks, split 8 (32 slices)
    ("conv3x3_split16", torch.float16, 1, 1, 256, 14, 14, 256),  # 8 blocks of 8 x 16 pixels, split 8 (16 slices)
    ("conv3x3_split16", torch.float16, 1, 1, 60, 7, 7, 70),  # C not a multiple of 8, 70 channels: split 4
    # clusters of 8 where all fit at once (15), else of 4: one or two of the 8 slices a block
    ("conv3x3_split16", torch.float16, 1, 15, 128, 4, 4, 8), ("conv3x3_split16", torch.float16, 1, 16, 128, 4, 4, 8),
    ("conv3x3_split16", torch.float16, 1, 40, 512, 7, 7, 512),  # 320 blocks: no split
    ("conv3x3_split16_s2", torch.float16, 2, 1, 256, 14, 14, 512),  # stride 2 to 7 x 7: split 8
    ("conv3x3_split32_bf16", torch.bfloat16, 1, 2, 128, 28, 28, 128),  # 28 blocks of 4 x 32 pixels: split 4
])
def test_conv3x3_split_channels(kernel, dtype, stride, n, c, h, w, o):
    """conv2d_mma3x3 with SPLIT (sm_90a): where the tiles are few, each tile's channel slices split
    over a cluster of blocks chosen per call (the most whose clusters fit at once, down to one slice
    a block), which add their sums through distributed shared memory."""
    lib = harness.build("tests/gpu/ops/conv3x3_split.hds")
    x, wt = rnd(n, c, h, w, dtype=dtype), rnd(o, c, 3, 3, dtype=dtype)
    p, q = (h + 2 - 3) // stride + 1, (w + 2 - 3) // stride + 1
    y = torch.full((n, o, p, q), float("nan"), device="cuda", dtype=dtype)
    assert lib.launch_raw(kernel, [x.data_ptr(), wt.data_ptr(), y.data_ptr(), n, c, h, w, o, p, q]) == 0
    torch.cuda.synchronize()
    check(y, F.conv2d(x.double(), wt.double(), stride=stride, padding=1), 2e-3 if dtype == torch.float16 else 1e-2)


@gpu
@pytest.mark.parametrize("n", [3, 1])
def test_conv1x1_f16_vector_copies(n):
    x, w = rnd(n, 45, 6, 12, dtype=torch.float16), rnd(70, 45, 1, 1, dtype=torch.float16)
    ref = F.relu(F.conv2d(x.double(), w.double()))
    check(run("op_conv1x1_f16", {"x": x, "w": w}, {"N": n}, (n, 70, 6, 12), torch.float16), ref, 2e-3)


@gpu
@pytest.mark.parametrize("n", [1, 2, 3, 6])
def test_conv1x1_split_channels(n):
    """A 1 x 1 stride-2 convolution of a small image (ResNet-18's last downsample), ReLU fused:
    conv2d_mma with its 8 channel slices split over a cluster of 8 (sm_90a) at N = 1 and 2 (one
    tile of pixels, 8 channel groups), not at N = 3 (16 groups) nor past N * H * W * O = 540672
    (N = 6)."""
    x, w = rnd(n, 256, 14, 14, dtype=torch.float16), rnd(512, 256, 1, 1, dtype=torch.float16)
    ref = F.relu(F.conv2d(x.double(), w.double(), stride=2))
    check(run("op_conv1x1_split", {"x": x, "w": w}, {"N": n}, (n, 512, 7, 7), torch.float16), ref, 2e-3)


@gpu
def test_conv_strided_bf16_tensor_cores():
    x, w = rnd(5, 21, 15, 18, dtype=torch.bfloat16), rnd(9, 21, 3, 2, dtype=torch.bfloat16)
    ref = F.conv2d(x.double(), w.double(), stride=2, padding=1)
    check(run("op_conv_s2_bf16", {"x": x, "w": w}, {"N": 5}, (5, 9, 8, 10), torch.bfloat16), ref, 1e-2)


@gpu
@pytest.mark.parametrize("n", [1, 3])
def test_conv_stem_few_channels(n):
    """3 input channels, 7 x 7: conv2d_mma's slice per filter row (21 of its 32 k), with batch norm and ReLU."""
    x, w = rnd(n, 3, 61, 58, dtype=torch.float16), rnd(64, 3, 7, 7, dtype=torch.float16)
    s, t = rnd(64, 1, 1, dtype=torch.float16), rnd(64, 1, 1, dtype=torch.float16)
    ref = F.relu(F.conv2d(x.double(), w.double(), stride=2, padding=3) * s.double() + t.double())
    check(run("op_conv_stem", {"x": x, "w": w, "s": s, "t": t}, {"N": n}, (n, 64, 31, 29), torch.float16), ref, 2e-3)


@gpu
@pytest.mark.parametrize("lq,lk", [(129, 77), (1, 1)])
def test_attention_f16(lq, lk):
    q, k, v = rnd(2, lq, 64, dtype=torch.float16), rnd(2, lk, 64, dtype=torch.float16), rnd(2, lk, 32, dtype=torch.float16)
    ref = torch.softmax(q.double() @ k.double().transpose(1, 2) * 0.125, -1) @ v.double()
    check(run("op_attention", {"q": q, "k": k, "v": v}, {"L": lq, "M": lk}, (2, lq, 32), torch.float16), ref, 3e-3)


@gpu
def test_embedding_concat_slice():
    t, ids, y = rnd(50, 6), torch.randint(0, 50, (41,), device="cuda", dtype=torch.int32), rnd(41, 3)
    ref = torch.cat([t[ids.long()], y], dim=1)[:, 2:7]
    out = run("op_embedding_concat", {"t": t, "ids": ids, "y": y}, {"N": 41}, (41, 5), torch.float32)
    assert torch.equal(out, ref)


@gpu
def test_bmm_linear():
    a, b, w, c = rnd(3, 45, 20), rnd(3, 20, 11), rnd(7, 11), rnd(7)
    ref = F.linear(a.double() @ b.double(), w.double(), c.double())
    check(run("op_bmm_linear", {"a": a, "b": b, "w": w, "c": c}, {"M": 45}, (3, 45, 7), torch.float32), ref, 1e-5)


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
    (1, 2047, 4097),   # K just under 2048: matmul_gemv
    (3, 4095, 4097),   # three rows: matmul_skinny_shifted
    (3, 4095, 77),     # N < 136: matmul_gemv_split with blocks of 4 rows (MR = 4)
    (3, 2047, 4097),   # K just under 2048: matmul_skinny
    (4, 4095, 4097),   # four rows: matmul_skinny_shifted
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
@pytest.mark.parametrize("rows,n", [(37, 1), (37, 61), (37, 64), (37, 65), (19, 136), (11, 256), (11, 264),
                                    (11, 512), (11, 513), (11, 520), (5, 1001), (3, 4095), (3, 8191),
                                    (11, 1024), (11, 1025), (11, 2048), (11, 2056), (5, 4096), (5, 4097), (3, 4100),
                                    (3, 8192), (3, 8193), (3, 16384), (2, 16385), (3, 16392), (3, 20001)])
def test_rows_of_symbolic_length(rows, n):
    """Both sides of each regime's kernel (two rows staged: 8 threads up to 64, 16 up to 256 where
    N % 8 == 0, a warp up to 512,
    64 and 128 threads up to 1024 and 2048, blocks of 256, 512 and 1024 threads up to 4096, 8192
    and 16384, then the loops; 16 bytes at a time when N % 8 == 0)."""
    check_layer_norm_of_sum("op_rows_symbolic", rows, n)


@gpu
@pytest.mark.parametrize("rows,n", [(37, 64), (19, 136), (11, 256), (11, 264), (11, 1000), (3, 8192), (3, 8200),
                                    (3, 16384), (3, 16392), (5, 505), (7, 513), (5, 1001), (5, 1017), (3, 1018),
                                    (3, 4095), (3, 8191), (2, 16383), (2, 32761), (2, 32767), (3, 50257),
                                    (3, 65529), (3, 65530), (2, 131065), (2, 131066)])
def test_rms_norm_weight_held(rows, n):
    """f16 rms_norm, sm_90a: the weight copied into registers with the row (8 and 16 threads per
    row, a warp, ..., 512 threads of two chunks up to 8192), copied per chunk past it; rows that
    are not 16-byte multiples from 64 threads per row read in the aligned chunks that hold them
    (each side of each bound, the tensor's last chunk element by element), past 32761 by clusters
    of 8 blocks (of 32 values a thread to 65529, of 64 to 131065), then the loops."""
    x, g = rnd(rows, n, dtype=torch.float16) * 2, rnd(n, dtype=torch.float16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm_rows", {"x": x, "g": g}, {"R": rows, "N": n}, (rows, n), torch.float16), ref, 3e-3)


@gpu
@pytest.mark.parametrize("rows,n", [(37, 4), (37, 60), (37, 68), (19, 100), (19, 252), (11, 260), (11, 300), (11, 508),
                                    (11, 516)])
def test_rows_of_eight_byte_multiples(rows, n):
    """f16 rows of 8-byte multiples that are not 16-byte ones (N % 8 == 4) read 8 bytes at a time
    by 8 and 16 threads and a warp per row (the weight held with them; two rows staged for the
    layer norm of a sum), each side of each bound; f32 softmax at N % 4 == 2 the same, a warp of
    three chunks up to 384."""
    x, g = rnd(rows, n, dtype=torch.float16) * 2, rnd(n, dtype=torch.float16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm_rows", {"x": x, "g": g}, {"R": rows, "N": n}, (rows, n), torch.float16), ref, 3e-3)
    check_layer_norm_of_sum("op_rows_symbolic", rows, n)
    y = rnd(rows, n - 2) * 4  # N % 4 == 2
    out = run("op_softmax_cluster", {"x": y}, {"R": rows, "N": n - 2}, (rows, n - 2), torch.float32)
    check(out, torch.softmax(y.double(), dim=-1), 1e-5)


def check_layer_norm_of_sum(graph, rows, n):
    x, r = rnd(rows, n, dtype=torch.float16), rnd(rows, n, dtype=torch.float16)
    g, b = rnd(n, dtype=torch.float16), rnd(n, dtype=torch.float16)
    ref = F.layer_norm((x + r).double(), (n,), g.double(), b.double(), 1e-5)
    out = run(graph, {"x": x, "r": r, "g": g, "b": b}, {"R": rows, "N": n}, (rows, n), torch.float16)
    check(out, ref, 3e-3)


@gpu
@pytest.mark.parametrize("rows,n", [(5, 4096), (5, 4097), (3, 4104), (3, 8193), (3, 16384), (3, 16385), (3, 16392),
                                    (3, 32768), (2, 32769), (2, 65535), (2, 65536), (2, 65537), (3, 65544)])
def test_rows_in_clusters(rows, n):
    """sm_90a: past a block of 1024 threads' registers (16384 values with two rows staged) a
    cluster of 8 blocks of 256 holds each row (16 values a thread up to 32768, 32 up to 65536);
    the loops past it. Both sides, odd and aligned."""
    check_layer_norm_of_sum("op_rows_cluster", rows, n)


@gpu
@pytest.mark.parametrize("rows,n", [(128, 20000), (127, 32768), (130, 32776), (130, 50257), (127, 65536),
                                    (128, 65536), (129, 65529), (3, 65544), (2, 65530), (3, 131072), (2, 131065)])
def test_rows_in_wide_clusters(rows, n):
    """sm_90a: f16 rows in clusters of up to 8 blocks of 256 holding 64 values a thread (32 with
    two rows staged) past 65536 (32768), and past 32768 (16384) from 128 rows (fewer: 8 blocks
    holding 32, or 16); f32 rows past 65536 on blocks of 512 threads. Both sides of each bound,
    rows of 16-byte multiples and not."""
    x, g = rnd(rows, n, dtype=torch.float16) * 2, rnd(n, dtype=torch.float16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm_rows", {"x": x, "g": g}, {"R": rows, "N": n}, (rows, n), torch.float16), ref, 3e-3)
    if n <= 65536:  # (the loops past it)
        check_layer_norm_of_sum("op_rows_cluster", rows, n)
    x = rnd(rows, n) * 4
    check(run("op_softmax_cluster", {"x": x}, {"R": rows, "N": n}, (rows, n), torch.float32),
          torch.softmax(x.double(), dim=-1), 1e-5)


@gpu
@pytest.mark.parametrize("rows,n", [(9, 384), (9, 385), (7, 768), (7, 769), (5, 1536), (5, 1537), (3, 3072), (3, 3073),
                                    (3, 6144), (3, 6145),
                                    (3, 2048), (3, 2049), (3, 4096), (3, 4100), (3, 8192), (3, 8193), (7, 8196),
                                    (3, 16384), (3, 16385), (3, 32768), (3, 32769), (65, 40000), (2, 131071),
                                    (2, 131072), (2, 131073), (3, 50257), (3, 65533), (3, 65534), (2, 131069)])
def test_softmax_in_clusters(rows, n):
    """sm_90a, f32: a warp, 64 and 128 threads, blocks of 256 and 512 threads holding three
    chunks (12 values) up to 384, 768, 1536, 3072 and 6144; blocks of 256 and 512 threads per row
    up to 2048 and 4096 (8 values each),
    512 up to 8192 and 16384 (16 and 32), 1024 up to 32768, then a cluster of 8 blocks of 256 up
    to 65536 and of 512 up to 131072, then the loops; rows that are not 16-byte multiples in the
    clusters from the aligned chunks that hold them (blocks of 256 up to 65533, of 512 up to 131069)."""
    x = rnd(rows, n) * 4
    ref = torch.softmax(x.double(), dim=-1)
    out = run("op_softmax_cluster", {"x": x}, {"R": rows, "N": n}, (rows, n), torch.float32)
    check(out, ref, 1e-5)


@gpu
@pytest.mark.parametrize("rows,n", [(301, 1), (301, 4), (301, 5), (301, 8), (301, 9), (301, 12), (301, 16), (301, 17),
                                    (133, 20), (133, 24), (133, 31), (133, 32), (133, 33)])
def test_short_rows(rows, n):
    """Rows of one 16-byte chunk at most on a thread each (256 rows a block: f16 up to 8 values,
    f32 up to 4), of up to 16 and 32 values on 2 and 4 threads (128 and 64 rows a block; the last
    block partly full), then 8: f16 rms_norm (16 bytes at a time where N % 8 == 0, 8 where N % 8
    == 4, else through shared memory), the f16 layer norm of a sum, f32 softmax (16 bytes at a time
    where N % 4 == 0, else through shared memory)."""
    x, g = rnd(rows, n, dtype=torch.float16) * 2, rnd(n, dtype=torch.float16)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm_rows", {"x": x, "g": g}, {"R": rows, "N": n}, (rows, n), torch.float16), ref, 3e-3)
    check_layer_norm_of_sum("op_rows_symbolic", rows, n)
    y = rnd(rows, n) * 4
    check(run("op_softmax_cluster", {"x": y}, {"R": rows, "N": n}, (rows, n), torch.float32),
          torch.softmax(y.double(), dim=-1), 1e-5)


@gpu
@pytest.mark.parametrize("rows,n", [(300, 16388), (1, 16388), (300, 16384), (267, 24580), (133, 24576),
                                    (300, 32768), (2, 32768), (133, 32769)])
def test_streamed_rows(rows, n):
    """f32 rows of 16-byte multiples from 16385 to 32768 values: persistent blocks (one a
    multiprocessor) walking the rows, the next one copied into shared memory meanwhile; more rows
    than blocks, and fewer; softmax on sm_90a, layer_norm and rms_norm (one reduction: a barrier
    a row) on the default target over two row dimensions. 16384 and 32769: either side."""
    x = rnd(rows, n) * 4
    check(run("op_softmax_cluster", {"x": x}, {"R": rows, "N": n}, (rows, n), torch.float32),
          torch.softmax(x.double(), dim=-1), 1e-5)
    if rows % 3:
        return
    x, g, b = rnd(3, rows // 3, n) * 2 + 0.5, rnd(n) + 1, rnd(n)
    sizes = {"B": 3, "T": rows // 3, "N": n}
    ref = F.layer_norm(x.double(), (n,), g.double(), b.double(), 1e-5)
    check(run("op_layer_norm_stream", {"x": x, "g": g, "b": b}, sizes, x.shape, torch.float32), ref, 1e-5)
    xd = x.double()
    ref = xd * torch.rsqrt((xd * xd).mean(-1, keepdim=True) + 1e-6) * g.double()
    check(run("op_rms_norm_stream", {"x": x, "g": g}, sizes, x.shape, torch.float32), ref, 1e-5)


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


@gpu
@pytest.mark.parametrize("b,t", [(1, 5), (3, 77), (2, 300)])
def test_reshape_views_sm90(b, t):
    """Reshapes read by TMA are views (of the input x, of w2, of the layer norm's slot), and the
    output's reshape is written in place: on each side of the dispatch on B * T."""
    x = rnd(b, t, 136, dtype=torch.float16)
    g, bb = rnd(136, dtype=torch.float16), rnd(136, dtype=torch.float16)
    w, w2 = rnd(136, 264, dtype=torch.float16) / 12, rnd(264, 136, dtype=torch.float16) / 16
    h = F.layer_norm(x.double(), (136,), g.double(), bb.double()).reshape(b * t, 136)
    y = torch.relu(h @ w.double()) + x.double().reshape(b * t, 136) @ w2.double().reshape(136, 264)
    ref = (y @ w2.double()).reshape(b, t, 136)
    out = run("op_reshape_views_sm90", {"x": x, "g": g, "b": bb, "w": w, "w2": w2}, {"B": b, "T": t}, (b, t, 136),
              torch.float16)
    check(out, ref, 5e-3)
