"""Stdlib operators in small graphs (tests/gpu/ops/*.hds) on the GPU against
torch on odd shapes: broadcasting, f16/bf16, reductions over axes, softmax,
norms, convolution + pooling, attention, embedding/concat/slice, bmm + linear (matmul's
schedules and dispatch: test_gpu_matmul.py).
Outputs start as NaN so unwritten elements fail."""
import pytest

import harness

torch = pytest.importorskip("torch", reason="torch is not installed")
F = pytest.importorskip("torch.nn.functional", reason="torch is not installed")
gpu = pytest.mark.gpu

from graph_calls import check, rnd, run  # noqa: E402 (after the skip without torch)


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
