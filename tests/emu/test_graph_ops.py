"""Every stdlib operator in a graph, run on the CPU emulator against numpy on
odd shapes, including broadcasting, f16, reductions over any axes and fused
chains. The same graphs compile to CUDA (tests/gpu runs the examples)."""
from math import erf

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(5)
verf = np.vectorize(erf)


def f32(*shape, lo=None):
    x = rng.standard_normal(shape).astype(np.float32)
    return np.abs(x) + lo if lo is not None else x


def graph(params: dict, result: str, body: str, inputs: dict) -> np.ndarray:
    """One graph `g(params) -> result { body }` run on `inputs`."""
    sig = ", ".join(f"{n}: {t}" for n, t in params.items())
    return emulator.run_graph(f"graph g({sig}) -> {result} {{\n{body}\n}}\n", "g", inputs)


def close(out, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    assert out.shape == ref.shape
    err = np.linalg.norm(out.astype(np.float64) - ref) / max(np.linalg.norm(ref), 1e-30)
    assert err < tol, err


UNARY = {
    "neg": lambda x: -x, "abs": np.abs, "exp": np.exp, "log": np.log, "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x), "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0),
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "silu": lambda x: x / (1 + np.exp(-x)),
    "gelu": lambda x: 0.5 * x * (1 + verf(x / np.sqrt(2))),
}


@pytest.mark.parametrize("op", sorted(UNARY))
def test_unary(op):
    x = f32(3, 37, lo=0.1 if op in ("log", "sqrt", "rsqrt") else None)
    out = graph({"x": "f32[A, 37]"}, "f32[A, 37]", f"return {op}(x);", {"x": x})
    close(out, UNARY[op](x.astype(np.float64)))


def test_unary_f16_rounds_once():
    x = f32(5, 9).astype(np.float16)
    out = graph({"x": "f16[5, 9]"}, "f16[5, 9]", "return gelu(x);", {"x": x})
    assert out.dtype == np.float16
    ref = UNARY["gelu"](x.astype(np.float64)).astype(np.float16)
    assert np.max(np.abs(out.astype(np.float64) - ref.astype(np.float64))) <= 2e-3


BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
          "min": np.minimum, "pow": np.power}


@pytest.mark.parametrize("op", sorted(BINARY))
def test_binary_broadcast(op):
    a, b = f32(5, 1, 7, lo=0.5), f32(3, 1, lo=0.5)
    out = graph({"a": "f32[5, 1, 7]", "b": "f32[3, 1]"}, "f32[5, 3, 7]", f"return {op}(a, b);", {"a": a, "b": b})
    close(out, BINARY[op](a.astype(np.float64), b))


def test_operators_and_literals():
    a, b = f32(4, 6), f32(6)
    out = graph({"a": "f32[4, 6]", "b": "f32[6]"}, "f32[4, 6]", "return -(a * 2.0 + b) / 4.0 - 1.0;", {"a": a, "b": b})
    close(out, -(a.astype(np.float64) * 2 + b) / 4 - 1)


def test_where_and_casts():
    c = rng.standard_normal((3, 5)) > 0
    a, b = f32(3, 5), f32(5)
    out = graph({"c": "bool[3, 5]", "a": "f32[3, 5]", "b": "f32[5]"}, "f16[3, 5]",
                "return to_f16(where(c, a, b));", {"c": c, "a": a, "b": b})
    np.testing.assert_array_equal(out, np.where(c, a, b).astype(np.float16))
    h = f32(7).astype(np.float16)
    np.testing.assert_array_equal(graph({"h": "f16[7]"}, "f32[7]", "return to_f32(h);", {"h": h}), h.astype(np.float32))


@pytest.mark.parametrize("width", [301, 37])  # a block per row; a warp per row (short rows)
@pytest.mark.parametrize("op,ref", [("sum", np.sum), ("mean", np.mean), ("max", np.max), ("min", np.min)])
def test_reduce_last_axis(op, ref, width):
    x = f32(11, width)
    out = graph({"x": f"f32[R, {width}]"}, "f32[R]", f"return {op}(x);", {"x": x})
    close(out, ref(x.astype(np.float64), axis=1))


@pytest.mark.parametrize("axes,shape", [([0], "[5, 7]"), ([0, 2], "[5]"), ([1], "[3, 7]")])
def test_reduce_any_axes(axes, shape):
    x = f32(3, 5, 7)
    out = graph({"x": "f32[3, 5, 7]"}, f"f32{shape}", f"return sum(x, axes={axes});", {"x": x})
    close(out, x.astype(np.float64).sum(axis=tuple(axes)))


def test_sum_f16_accumulates_in_f32():
    x = (np.ones((2, 3000)) * 0.1).astype(np.float16)
    out = graph({"x": "f16[2, 3000]"}, "f16[2]", "return sum(x);", {"x": x})
    ref = x.astype(np.float64).sum(axis=1).astype(np.float16)  # an f16 accumulator would stall near 256
    np.testing.assert_array_equal(out, ref)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def test_softmax_and_log_softmax():
    x = f32(7, 33) * 3
    close(graph({"x": "f32[7, 33]"}, "f32[7, 33]", "return softmax(x);", {"x": x}), softmax(x.astype(np.float64)))
    close(graph({"x": "f32[7, 33]"}, "f32[7, 33]", "return log_softmax(x);", {"x": x}),
          np.log(softmax(x.astype(np.float64))))


def test_row_groups_are_one_kernel_without_races():
    # softmax and layer_norm: their row reductions run in the kernel of the row (fuse_rows)
    x, g, b = f32(6, 300), f32(300), f32(300)
    src = "graph g(x: f32[R, 300], g: f32[300], b: f32[300]) -> f32[R, 300] { return softmax(layer_norm(x, g, b)); }"
    out = emulator.run_graph(src, "g", {"x": x, "g": g, "b": b}, racecheck=True)
    xd = x.astype(np.float64)
    ln = (xd - xd.mean(1, keepdims=True)) / np.sqrt(xd.var(1, keepdims=True) + 1e-5) * g + b
    close(out, softmax(ln))


def test_layer_norm_and_rms_norm():
    x, g, b = f32(5, 37), f32(37), f32(37)
    xd = x.astype(np.float64)
    ref = (xd - xd.mean(1, keepdims=True)) / np.sqrt(xd.var(1, keepdims=True) + 1e-5) * g + b
    out = graph({"x": "f32[R, 37]", "g": "f32[37]", "b": "f32[37]"}, "f32[R, 37]", "return layer_norm(x, g, b);",
                {"x": x, "g": g, "b": b})
    close(out, ref)
    ref = xd / np.sqrt((xd * xd).mean(1, keepdims=True) + 1e-3) * g
    out = graph({"x": "f32[R, 37]", "g": "f32[37]"}, "f32[R, 37]", "return rms_norm(x, g, eps=1e-3);", {"x": x, "g": g})
    close(out, ref)


@pytest.mark.parametrize("k,m,n", [(29, 37, 45), (36, 130, 260)])
def test_matmul_with_prologue_and_epilogue(k, m, n):
    # transpose fuses into the schedule's loads, bias + relu into its stores; the
    # second shape has whole 128 x 128 tiles (and rows of multiples of 4), where the schedule's 4-element copies
    # of a slice become four loads of the transposed input
    at, b, c = f32(k, m), f32(k, n), f32(n)
    out = graph({"at": "f32[K, M]", "b": "f32[K, N]", "c": "f32[N]"}, "f32[M, N]",
                "return relu(matmul(transpose(at), b) + c);", {"at": at, "b": b, "c": c})
    close(out, np.maximum(at.T.astype(np.float64) @ b + c, 0))


@pytest.mark.parametrize("m,k,n", [(1, 300, 64), (16, 257, 96), (17, 37, 45), (5, 1000, 45), (3, 7, 1),
                                   (2, 9, 2049), (5, 33, 2050), (256, 9, 33), (257, 9, 33)])
def test_matmul_few_rows(m, k, n):
    """M <= 4 with N >= 2048 runs matmul_gemv (32 warps split K: K = 9 leaves most of them none; a
    partial strip of columns; f16 too where K or N is not a multiple of 8 and M <= 2: (1, 300, 64),
    (2, 9, 2049)), M <= 16 matmul_skinny_simt (strips of 8 columns below N = 2048, of 32 from it: N = 2050;
    N = 2047 is in the GPU tests, too slow here), then 32 x 32 tiles (below 128 tiles of 32 x 128:
    test_matmul_simt_tiles): groups of k past K, a strip past N, rows of b not of whole
    quads (N = 45, 1: read element by element); the bias and relu fuse into its store. Under the
    race checker. The graph is run with constant sizes (each `when` decided when it is built)
    and with symbolic ones (the variant the dispatch chooses for the call)."""
    a, b, c = f32(m, k), f32(k, n), f32(n)
    for dims in (("M", "K", "N"), (m, k, n)):
        src = "graph g(a: f32[{0}, {1}], b: f32[{1}, {2}], c: f32[{2}]) -> f32[{0}, {2}] ".format(*dims)
        src += "{ return relu(matmul(a, b) + c); }\n"
        out = emulator.run_graph(src, "g", {"a": a, "b": b, "c": c}, racecheck=True)
        close(out, np.maximum(a.astype(np.float64) @ b + c, 0))
    h = (a.astype(np.float16), b.astype(np.float16))  # f16: the tensor-core schedules where they apply
    for dims in (("M", "K", "N"), (m, k, n)):
        t = ("f16[{0}, {1}]".format(*dims), "f16[{1}, {2}]".format(*dims), "f16[{0}, {2}]".format(*dims))
        out = graph({"a": t[0], "b": t[1]}, t[2], "return matmul(a, b);", {"a": h[0], "b": h[1]})
        close(out, h[0].astype(np.float64) @ h[1], 2e-3)


@pytest.mark.parametrize("m,k,n,variant", [
    (2016, 5, 129, "g_simt32"), (2017, 5, 129, "g_simt32x128"),  # 63 / 64 rows of 32 x 2 columns of 128
    (128, 3, 8193, "g_simt32x128"), (129, 3, 8193, "g_any"),      # 65 / 130 tiles of 128 x 128
    (4224, 3, 129, "g_simt32x128"), (4225, 3, 129, "g_any")])     # 264 / 266 tiles of 32 x 128
def test_matmul_simt_tiles(m, k, n, variant):
    """f32 matmul past M = 16 (symbolic sizes) on sm_80: 128 x 128 tiles where they number 128 or
    more (about one block per multiprocessor), else 32 x 128 where those make 128 to 264, 128 x 128
    past that, else 32 x 32; the call on each side of every boundary, against float64 (partial
    tiles: M, N not multiples of 32 or 128)."""
    run_matmul(m, k, n, variant)


# sm_90a: K split over clusters. 32 x 128 tiles (T of them) up to 132 split per call in 8 (T * 8 <=
# 132, or <= 240 with K >= 2048), 4 (<= 132, or <= 248 with K >= 1024), 2 (T * 2 <= 132 or K >=
# 512), else 1, and 133 to 186 in 4 where K >= 1024; 100 to 132 tiles of 32 x 32 (K <= 2048 or M <= 64) with four k-groups in 2 (K >=
# 512) or 1; 128 x 128 tiles from 48 of them (M > 96) where that takes fewer waves, in 4
# (simt_split4) where waves of 120 quarters take less than waves of 132 halves, else in 2.
@pytest.mark.parametrize("m,k,n,variant,split", [
    (3168, 3, 32, "g_simt32x128_split", 1),      # 99 tiles of 32 x 32
    (3169, 3, 32, "g_simt32_split", 1),          # 100
    (320, 520, 320, "g_simt32_split", 2),        # 100, K >= 512
    (4224, 3, 32, "g_simt32_split", 1),          # 132
    (4225, 3, 32, "g_simt32x128", 0),            # 133
    (33, 300, 129, "g_simt32x128_split", 8),     # 4 tiles of 32 x 128; 19 slices, 2 or 3 per block
    (544, 40, 100, "g_simt32x128_split", 4),     # 17 tiles: 136 > 132 blocks in 8; 3 slices, a block with none
    (544, 2048, 8, "g_simt32x128_split", 8),     # 17 tiles, K >= 2048
    (960, 2048, 8, "g_simt32x128_split", 8),     # 30 tiles: 240 blocks in clusters of 8
    (961, 2048, 8, "g_simt32x128_split", 4),     # 31 tiles: 248 > 240 in 8
    (1088, 1024, 8, "g_simt32x128_split", 4),    # 34 tiles: 272 > 240 in 8, K >= 1024
    (1984, 1024, 8, "g_simt32x128_split", 4),    # 62 tiles: 248 in clusters of 4
    (1985, 1024, 8, "g_simt32x128_split", 2),    # 63 tiles: 252 > 248 in 4
    (1088, 40, 100, "g_simt32x128_split", 2),    # 34 tiles: 136 in 4, K < 1024
    (2144, 40, 100, "g_simt32x128_split", 1),    # 67 tiles: 134 in 2, K < 512
    (4224, 40, 100, "g_simt32x128_split", 1),    # 132 tiles
    (4225, 40, 100, "g_simt32x128", 0),          # 133 tiles
    (4256, 1024, 8, "g_simt32x128_split", 4),    # 133 tiles, K >= 1024: three waves of quarters
    # (186 / 187 tiles: 5952 / 5953 rows, in tests/gpu/test_gpu_matmul.py::test_matmul_f32_split_sm90)
    (4256, 1023, 8, "g_simt32x128", 0),          # 133, K < 1024
    (2944, 3, 129, "g_simt32x128", 0),           # 46 tiles of 128 x 128
    (2945, 3, 129, "g_simt_split", 2),           # 48: one wave split in two
    (4224, 3, 129, "g_simt_split", 2),           # 66: one wave of halves, three of quarters
    (4225, 3, 129, "g_simt_split4", 4),          # 68: two waves of halves, three of quarters
    (5760, 3, 129, "g_simt_split4", 4),          # 90
    (5761, 3, 129, "g_any", 0),                  # 92: four waves of quarters, one whole
    (8576, 3, 129, "g_simt_split4", 4),          # 134: five of quarters, three of halves, two of two whole
    (9728, 3, 129, "g_simt_split", 2)])          # 152: six of quarters, three of halves
def test_matmul_simt_split(m, k, n, variant, split):
    """f32 matmul with K split over thread block clusters (sm_90a): each variant and each split the
    call chooses, on both sides of every boundary, against float64; the bias and relu fuse into the
    store of the blocks' added sums. The smaller ones under the race checker."""
    emulator.skip_large_under_sanitizers(m * k * n)
    if variant in ("g_simt32x128_split", "g_simt32_split"):  # the rule of matmul_simt.hds, as the kernel evaluates it
        bn, most = (128, 8) if variant == "g_simt32x128_split" else (32, 2)
        tiles = (m + 31) // 32 * ((n + bn - 1) // bn)
        fits = {8: 240, 4: 248, 2: 264}  # blocks of two per multiprocessor that clusters of s hold at once
        rule = next((s for s in (8, 4, 2) if s <= most and tiles * s <= fits[s] and (tiles * s <= 132 or k >= 256 * s)),
                    4 if most >= 4 and tiles * 4 <= 744 and k >= 1024 else 1)
        assert split == rule
    if variant in ("g_simt_split", "g_simt_split4"):  # waves of 120 quarters (clusters of 4) against 132 halves
        tiles = (m + 127) // 128 * ((n + 127) // 128)
        assert split == (4 if -(-tiles * 4 // 120) * 25 < -(-tiles * 2 // 132) * 50 else 2)
        assert variant == f"g_simt_split{'4' if split == 4 else ''}"
    run_matmul(m, k, n, variant, arch="sm_90a", racecheck=m * k * n < 10**6, epilogue=True)


def run_matmul(m, k, n, variant, arch=None, racecheck=False, epilogue=False):
    """`matmul(a, b)` (with `epilogue`: `relu(matmul(a, b) + c)`, fused into its stores) with symbolic
    sizes on the emulator: the variant the dispatch chose, and the result against float64."""
    a, b, c = f32(m, k), f32(k, n), f32(n)
    if epilogue:
        text = "graph g(a: f32[M, K], b: f32[K, N], c: f32[N]) -> f32[M, N] { return relu(matmul(a, b) + c); }\n"
    else:
        text = "graph g(a: f32[M, K], b: f32[K, N]) -> f32[M, N] { return matmul(a, b); }\n"
    inputs = {"a": a, "b": b} | ({"c": c} if epilogue else {})
    out, ran = emulator.run_graph_variant(text, "g", inputs, imports=("elementwise.hds", "nn.hds"),
                                          racecheck=racecheck, arch=arch)
    assert ran == variant
    ref = a.astype(np.float64) @ b
    close(out, np.maximum(ref + c, 0) if epilogue else ref)


def test_matmul_few_rows_kernel(tmp_path):
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\ngraph g(a: f32[M, K], b: f32[K, N]) -> f32[M, N] { return matmul(a, b); }\n')
    cu = emulator.emit(src)
    assert "    if (M <= 4 && N >= 2048)\n        return g_gemv_simt_run(" in cu, cu
    assert "    if (M <= 16 && N < 2048)\n        return g_skinny_simt_narrow_run(" in cu, cu
    assert "    if (M <= 16)\n        return g_skinny_simt_run(" in cu, cu


def test_bmm_and_linear():
    a, b = f32(2, 5, 7), f32(2, 7, 3)
    close(graph({"a": "f32[2, 5, 7]", "b": "f32[2, 7, 3]"}, "f32[2, 5, 3]", "return bmm(a, b);", {"a": a, "b": b}),
          a.astype(np.float64) @ b)
    x, w, bias = f32(4, 6), f32(3, 6), f32(3)
    close(graph({"x": "f32[4, 6]", "w": "f32[3, 6]", "bias": "f32[3]"}, "f32[4, 3]", "return linear(x, w, bias);",
                {"x": x, "w": w, "bias": bias}), x.astype(np.float64) @ w.T + bias)


def conv_ref(x, w, stride, pad):
    n, c, h, wd = x.shape
    o, _, r, s = w.shape
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ho, wo = (h + 2 * pad - r) // stride + 1, (wd + 2 * pad - s) // stride + 1
    y = np.zeros((n, o, ho, wo))
    for p in range(ho):
        for q in range(wo):
            patch = xp[:, :, p * stride:p * stride + r, q * stride:q * stride + s]
            y[:, :, p, q] = np.einsum("ncrs,ocrs->no", patch, w)
    return y


@pytest.mark.parametrize("stride,pad,out_hw", [(1, 1, "7, 6"), (2, 0, "3, 2")])
def test_conv2d(stride, pad, out_hw):
    x, w = f32(2, 3, 7, 6), f32(4, 3, 3, 3)
    out = graph({"x": "f32[2, 3, 7, 6]", "w": "f32[4, 3, 3, 3]"}, f"f32[2, 4, {out_hw}]",
                f"return conv2d(x, w, stride={stride}, pad={pad});", {"x": x, "w": w})
    close(out, conv_ref(x, w, stride, pad))


@pytest.mark.parametrize("bp,tc,kg", [(64, 4, 1), (96, 4, 1), (128, 4, 1), (96, 8, 1), (128, 8, 1), (96, 8, 2),
                                      (128, 4, 2), (64, 8, 4)])
def test_conv2d_igemm_tiles(tmp_path, bp, tc, kg):
    """The SIMT convolution's tiles (stdlib/conv2d_igemm.hds: pixels per block,
    channels per thread, k-groups; 96 threads load weights with 64 of them)
    with three channel slices (the third partial: 27 slices at 3 x 3, so with two
    k-groups the second group's last step is empty), two blocks of output
    channels (the second partial), a partial block of pixels, padding, stride 2."""
    src = tmp_path / "cv.hds"
    src.write_text(f'import "conv2d_igemm.hds";\nkernel cv = conv2d_igemm<f32, 2, 1, {bp}, {tc}, {kg}>;\n')
    x, w = f32(3, 35, 17, 20), f32(70, 35, 3, 3)
    y = emulator.run(src, "cv", {"x": x, "w": w}, ["y"], sizes={"P": 9, "Q": 10})["y"]
    close(y, conv_ref(x, w, 2, 1))


@pytest.mark.parametrize("bp,tc,kg,stride", [(64, 4, 1, 1), (96, 8, 1, 2), (128, 8, 1, 1), (96, 8, 2, 1),
                                             (128, 4, 2, 2), (64, 8, 2, 2)])
def test_conv2d_igemm3x3_tiles(tmp_path, bp, tc, kg, stride):
    """The SIMT convolution for 3 x 3 filters (stdlib/conv2d_igemm3x3.hds, channel
    slices outside, weights staged a slice at a time): 35 channels make three
    slices of 16 (the third partial) or two of 32 with two k-groups (the second
    group's channels of the last slice all past C); two blocks of output channels
    (the second partial), a partial block of pixels, padding, strides 1 and 2."""
    src = tmp_path / "cv.hds"
    src.write_text(f'import "conv2d_igemm3x3.hds";\nkernel cv = conv2d_igemm3x3<f32, {stride}, 1, {bp}, {tc}, {kg}>;\n')
    # 198 pixels at stride 1, 270 at stride 2: partial blocks of pixels for every BP.
    n, h, wd = (2, 9, 11) if stride == 1 else (3, 17, 20)
    x, w = f32(n, 35, h, wd), f32(70, 35, 3, 3)
    p, q = (h + 2 - 3) // stride + 1, (wd + 2 - 3) // stride + 1
    y = emulator.run(src, "cv", {"x": x, "w": w}, ["y"], sizes={"P": p, "Q": q})["y"]
    close(y, conv_ref(x, w, stride, 1))


def test_pools():
    x = f32(1, 2, 7, 9)
    out = graph({"x": "f32[1, 2, 7, 9]"}, "f32[1, 2, 3, 4]", "return max_pool2d(x);", {"x": x})
    close(out, x[:, :, :6, :8].reshape(1, 2, 3, 2, 4, 2).max(axis=(3, 5)))
    # torch's max_pool2d(x, 3, 2, padding=1): the padding counts as -inf
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    out = graph({"x": "f32[1, 2, 7, 9]"}, "f32[1, 2, 4, 5]", "return max_pool2d(x, k=3, stride=2, pad=1);", {"x": x})
    windows = np.stack([padded[:, :, r:r + 7:2, s:s + 9:2] for r in range(3) for s in range(3)])
    close(out, windows.max(axis=0))
    out = graph({"x": "f32[1, 2, 7, 9]"}, "f32[1, 2, 3, 4]", "return avg_pool2d(x);", {"x": x})
    close(out, x[:, :, :6, :8].astype(np.float64).reshape(1, 2, 3, 2, 4, 2).mean(axis=(3, 5)))


def test_layout_ops():
    x, y = f32(2, 3, 5), f32(2, 3, 4)
    close(graph({"x": "f32[2, 3, 5]"}, "f32[5, 2, 3]", "return permute(x, dims=[2, 0, 1]);", {"x": x}),
          x.transpose(2, 0, 1))
    close(graph({"x": "f32[2, 3, 5]"}, "f32[6, 5]", "return reshape(x, shape=[-1, 5]);", {"x": x}), x.reshape(6, 5))
    close(graph({"x": "f32[2, 3, 5]"}, "f32[2, 3, 2]", "return slice(x, axis=2, start=1, end=3);", {"x": x}),
          x[:, :, 1:3])
    close(graph({"x": "f32[2, 3, 5]", "y": "f32[2, 3, 4]"}, "f32[2, 3, 9]", "return concat(x, y, axis=-1);",
                {"x": x, "y": y}), np.concatenate([x, y], axis=-1))


def test_embedding():
    table, ids = f32(10, 4), np.array([[3, 0, 9], [1, 1, 2]], dtype=np.int32)
    out = graph({"table": "f32[10, 4]", "ids": "i32[2, 3]"}, "f32[2, 3, 4]", "return embedding(table, ids);",
                {"table": table, "ids": ids})
    np.testing.assert_array_equal(out, table[ids])


def test_attention():
    q, k, v = f32(2, 5, 8), f32(2, 6, 8), f32(2, 6, 3)
    out = graph({"q": "f32[2, 5, 8]", "k": "f32[2, 6, 8]", "v": "f32[2, 6, 3]"}, "f32[2, 5, 3]",
                "return attention(q, k, v, scale=0.35);", {"q": q, "k": k, "v": v})
    s = q.astype(np.float64) @ k.transpose(0, 2, 1) * 0.35
    close(out, softmax(s) @ v)


@pytest.mark.parametrize("lq,lk,d", [(37, 70, 64), (4, 131, 64), (5, 6, 8)])
def test_attention_schedule(tmp_path, lq, lk, d):
    """Heads of 64 values take the flash schedule (attention_simt.hds) with the
    batch spread [2, 3] as its first dimension; other head sizes the four
    reductions. Odd lengths: partial query blocks and key tiles, and one group
    of the block with no key tile (M <= 64)."""
    q, k, v = f32(2, 3, lq, d), f32(2, 3, lk, d), f32(2, 3, lk, d)
    types = {"q": f"f32[2, 3, L, {d}]", "k": f"f32[2, 3, M, {d}]", "v": f"f32[2, 3, M, {d}]"}
    sig = ", ".join(f"{n}: {t}" for n, t in types.items())
    text = f"graph g({sig}) -> f32[2, 3, L, {d}] {{ return attention(q, k, v, scale=0.2); }}\n"
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert ("attention_simt.hds" in emulator.emit(src)) == (d == 64)
    out = emulator.run_graph(text, "g", {"q": q, "k": k, "v": v}, imports=("nn.hds",), racecheck=True)
    s = q.astype(np.float64) @ k.transpose(0, 1, 3, 2) * 0.2
    close(out, softmax(s) @ v)


@pytest.mark.parametrize("lq,lk,d", [(37, 70, 64), (70, 70, 64), (1, 131, 64), (5, 6, 8)])
def test_attention_causal(tmp_path, lq, lk, d):
    """causal=1: query i sees keys j <= i + M - L. Heads of 64 take the SIMT flash
    schedule (each group of its block masks its own tiles; group 1 has a tile only
    some rows see, or none), other heads the four reductions."""
    q, k, v = f32(2, lq, d), f32(2, lk, d), f32(2, lk, d)
    text = (f"graph g(q: f32[2, L, {d}], k: f32[2, M, {d}], v: f32[2, M, {d}]) -> f32[2, L, {d}] "
            "{ return attention(q, k, v, scale=0.2, causal=1); }\n")
    out = emulator.run_graph(text, "g", {"q": q, "k": k, "v": v}, imports=("nn.hds",), racecheck=True)
    s = q.astype(np.float64) @ k.transpose(0, 2, 1) * 0.2
    s = np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -np.inf, s)
    close(out, softmax(s) @ v)


def test_attention_schedule_f16():
    """The flash schedule reads and writes f16, computing in f32 (one rounding)."""
    q, k, v = (f32(2, n, 64).astype(np.float16) for n in (19, 77, 77))
    out = graph({"q": "f16[2, L, 64]", "k": "f16[2, M, 64]", "v": "f16[2, M, 64]"}, "f16[2, L, 64]",
                "return attention(q, k, v, scale=0.125);", {"q": q, "k": k, "v": v})
    assert out.dtype == np.float16
    qd, kd, vd = (t.astype(np.float64) for t in (q, k, v))
    close(out, softmax(qd @ kd.transpose(0, 2, 1) * 0.125) @ vd, 2e-3)


def test_empty_spreads():
    """A spread may stand for no dimension: softmax of a vector, and attention
    over heads without a batch (its flash schedule then sees a batch of one)."""
    x = f32(37)
    close(graph({"x": "f32[N]"}, "f32[N]", "return softmax(x);", {"x": x}), softmax(x[None])[0])
    q, k, v = f32(2, 9, 64), f32(2, 70, 64), f32(2, 70, 64)
    out = graph({"q": "f32[H, L, 64]", "k": "f32[H, M, 64]", "v": "f32[H, M, 64]"}, "f32[H, L, 64]",
                "return attention(q, k, v, scale=0.3);", {"q": q, "k": k, "v": v})
    close(out, softmax(q.astype(np.float64) @ k.transpose(0, 2, 1) * 0.3) @ v)


@pytest.mark.parametrize("heads,groups,lq,lk,d,causal", [(6, 2, 37, 70, 64, 0), (4, 1, 1, 131, 64, 1),
                                                         (6, 3, 5, 6, 8, 1), (3, 3, 4, 9, 8, 0)])
def test_attention_grouped(heads, groups, lq, lk, d, causal):
    """Grouped-query attention: query head h reads key/value head h / (H / G), in
    place (G = 1: multi-query). Heads of 64 take the flash schedule, heads of 8 the
    four reductions; the head counts symbolic (the `require H % G == 0` checked
    per run)."""
    q, k, v = f32(2, heads, lq, d), f32(2, groups, lk, d), f32(2, groups, lk, d)
    out = graph({"q": f"f32[2, H, L, {d}]", "k": f"f32[2, G, M, {d}]", "v": f"f32[2, G, M, {d}]"},
                f"f32[2, H, L, {d}]", f"return attention(q, k, v, scale=0.2, causal={causal});",
                {"q": q, "k": k, "v": v})
    kk, vv = (np.repeat(t.astype(np.float64), heads // groups, axis=1) for t in (k, v))
    s = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) * 0.2
    if causal:
        s = np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -np.inf, s)
    close(out, softmax(s) @ vv)


def test_attention_requirement_per_run():
    """With symbolic head counts, a run whose H is not a multiple of G stops before
    any kernel, naming the op's `require` and the call."""
    q, k, v = f32(1, 6, 3, 8), f32(1, 4, 5, 8), f32(1, 4, 5, 8)
    with pytest.raises(emulator.EmulatorError, match=r"\(H = 6, L = 3, G = 4, M = 5\) break `require H % G == 0` "
                       r"of attention \(nn.hds:\d+\), called at g.hds:5"):
        graph({"q": "f32[1, H, L, 8]", "k": "f32[1, G, M, 8]", "v": "f32[1, G, M, 8]"}, "f32[1, H, L, 8]",
              "return attention(q, k, v, scale=0.2);", {"q": q, "k": k, "v": v})


def test_common_subexpressions_and_symbolic_batch():
    x = f32(3, 4)
    out = graph({"x": "f32[B, 4]"}, "f32[B, 4]", "let a = exp(x);\nlet b = exp(x);\nreturn a + b;", {"x": x})
    close(out, 2 * np.exp(x.astype(np.float64)))


@pytest.mark.parametrize("cols", [16, 13])
def test_vectorized_elementwise(cols):
    """Rows of 16 f16 take 16-byte accesses (8 per thread), checked at run time for a
    symbolic width; 13 takes the scalar body. A row vector broadcast along rows is read
    8 at a time, a column vector (broadcast along the row) one element at a time."""
    a = rng.standard_normal((5, cols)).astype(np.float16)
    b = rng.standard_normal(cols).astype(np.float16)
    c = rng.standard_normal((5, 1)).astype(np.float16)
    out = graph({"a": "f16[R, C]", "b": "f16[C]", "c": "f16[R, 1]"}, "f16[R, C]", "return relu(a * b + c);",
                {"a": a, "b": b, "c": c})
    ref = np.maximum(a.astype(np.float32) * b.astype(np.float32) + c.astype(np.float32), 0)
    close(out, ref, 2e-3)


def test_vectorized_kernel_shape(tmp_path):
    """A constant width of 32 f32: only the vector body (4 per thread), no run-time check."""
    src = tmp_path / "v.hds"
    src.write_text('import "elementwise.hds";\n'
                   "graph v(x: f32[N, 32], y: f32[N, 32]) -> f32[N, 32] { return x + y; }\n")
    cu = emulator.emit(src)
    assert cu.count("hds::copy<16>") == 3 and "% 4 == 0" not in cu, cu


def test_vectorized_rows():
    """Rows of constant multiple-of-16-byte length: staged in registers, reduced and
    written 16 bytes at a time (softmax f32 over 16, layer norm f16 over 24, row sums over 32)."""
    x = f32(5, 16)
    out = graph({"x": "f32[5, 16]"}, "f32[5, 16]", "return softmax(x);", {"x": x})
    e = np.exp(x - x.max(-1, keepdims=True))
    close(out, e / e.sum(-1, keepdims=True))
    h = rng.standard_normal((3, 24)).astype(np.float16)
    g, b = rng.standard_normal(24).astype(np.float16), rng.standard_normal(24).astype(np.float16)
    out = graph({"h": "f16[3, 24]", "g": "f16[24]", "b": "f16[24]"}, "f16[3, 24]", "return layer_norm(h, g, b);",
                {"h": h, "g": g, "b": b})
    hf = h.astype(np.float64)
    ref = (hf - hf.mean(-1, keepdims=True)) / np.sqrt(hf.var(-1, keepdims=True) + 1e-5) * g + b
    close(out, ref, 2e-3)
    s = f32(7, 32)
    close(graph({"s": "f32[7, 32]"}, "f32[7]", "return sum(s);", {"s": s}), s.astype(np.float64).sum(-1))


@pytest.mark.parametrize("dtype,width", [("f32", 2052), ("f16", 2056), ("f32", 8196)])
def test_staged_rows_over_several_chunks(dtype, width):
    """Layer norm over rows of several 16-byte chunks per thread (256 threads): 3 chunks with
    the last one partial (f32 over 2052), 2 (f16 over 2056), and 9, over the register budget of
    a block of 256: a block of 512 threads, 5 chunks each (f32 over 8196). Under the race checker."""
    np_t = np.float32 if dtype == "f32" else np.float16
    x = (rng.standard_normal((2, width)) * 3 + 1).astype(np_t)
    g, b = rng.standard_normal(width).astype(np_t), rng.standard_normal(width).astype(np_t)
    t = f"{dtype}[{width}]"
    src = f"graph g(x: {dtype}[R, {width}], g: {t}, b: {t}) -> {dtype}[R, {width}] {{ return layer_norm(x, g, b); }}"
    out = emulator.run_graph(src, "g", {"x": x, "g": g, "b": b}, racecheck=True)
    xd = x.astype(np.float64)
    ref = (xd - xd.mean(-1, keepdims=True)) / np.sqrt(xd.var(-1, keepdims=True) + 1e-5) * g + b
    close(out, ref, 1e-5 if dtype == "f32" else 2e-3)


@pytest.mark.parametrize("width,staged", [
    (64, "alignas(16) float row_x[4];"),  # one chunk of 4 per thread, 16 threads idle
    (8192, "alignas(16) float row_x[32];"),  # 8 chunks per thread: 128 bytes, the register budget
    # 9 chunks, over the budget of a block of 256: a block of 512 threads, 5 chunks each
    (8196, "alignas(16) float row_x[20];"),
    (66, "alignas(16) float row_x[6];"),  # rows of 8-byte chunks: 16 threads per row, 3 chunks each
    (67, "float row_x[3];"),  # neither: a warp per row, 3 values per lane
    (8196 + 1, "float row_x[17];"),  # neither: a block of 512 threads, 17 values each
])
def test_staged_rows_kernel_shape(tmp_path, width, staged):
    src = tmp_path / "r.hds"
    src.write_text(f'import "nn.hds";\ngraph r(x: f32[N, {width}]) -> f32[N, {width}] {{ return softmax(x); }}\n')
    cu = emulator.emit(src)
    assert staged in cu, cu
    if width > 8192:
        assert "__launch_bounds__(512)" in cu and "dim3((unsigned)(512), 1, 1)" in cu, cu
    if width % 2:
        assert "cp_async" not in cu and "hds::copy<" not in cu, cu  # element by element
    elif width % 4:
        assert "hds::copy<16>" not in cu and cu.count("hds::copy<8>") == 2, cu  # the staging copy and the store
    else:
        # the staging copy and the output's store; the passes read registers
        assert cu.count("hds::copy<16>") == 2 and "v_row_x" not in cu, cu


@pytest.mark.parametrize("dtype", ["f32", "f16"])
def test_causal_mask(dtype):
    """Scores of keys j > i + M - L become -1e30 (-inf in f16), the others stay."""
    s = f32(2, 3, 5).astype(np.float16 if dtype == "f16" else np.float32)
    out = graph({"s": f"{dtype}[2, 3, 5]"}, f"{dtype}[2, 3, 5]", "return causal_mask(s);", {"s": s})
    masked = np.arange(5)[None, :] > np.arange(3)[:, None] + 2
    np.testing.assert_array_equal(out[:, ~masked], s[:, ~masked])
    assert (out[:, masked] == (-np.inf if dtype == "f16" else np.float32(-1e30))).all()
