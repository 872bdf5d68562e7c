"""Row groups over rows of symbolic length N (graph/row_regimes.cpp): the kernel
holds a row by a warp (N <= 32·C), by a block with the row in registers
(N <= 256·C), or by a block reading the row again per pass (longer); 16 bytes
at a time where N is a multiple of 16 bytes. C = 32 values per thread over the
rows staged, 16 with two of them. Each op runs on both sides of each
boundary, against numpy in float64."""
import re

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(23)


def close(out, ref, tol):
    ref = np.asarray(ref, dtype=np.float64)
    assert out.shape == ref.shape
    err = np.linalg.norm(out.astype(np.float64) - ref) / max(np.linalg.norm(ref), 1e-30)
    assert err < tol, err


def softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def layer_norm(x, g, b, eps=1e-5):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + eps) * g + b


def rms_norm(x, g, eps=1e-6):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * g


# (op, graph signature, body, reference)
OPS = {
    "softmax": ("x: {t}[R, N]", "return softmax(x);", lambda x, g, b: softmax(x)),
    "log_softmax": ("x: {t}[R, N]", "return log_softmax(x);", lambda x, g, b: np.log(softmax(x))),
    "layer_norm": ("x: {t}[R, N], g: {t}[N], b: {t}[N]", "return layer_norm(x, g, b);", layer_norm),
    "rms_norm": ("x: {t}[R, N], g: {t}[N]", "return rms_norm(x, g);", lambda x, g, b: rms_norm(x, g)),
}


def run(op, dtype, rows, n, racecheck=False, arch=None):
    # The sanitizer pass keeps rows of up to 100000 elements (every regime, 3 rows of 32769 in
    # the clusters): the longer ones reach the same code, at minutes of emulation there.
    emulator.skip_large_under_sanitizers(rows * n, 100_000)
    sig, body, ref = OPS[op]
    np_t = np.float32 if dtype == "f32" else np.float16
    x = (rng.standard_normal((rows, n)) * 2 + 0.5).astype(np_t)
    g = (rng.standard_normal(n) + 1).astype(np_t)
    b = rng.standard_normal(n).astype(np_t)
    inputs = {"x": x}
    if "g:" in sig:
        inputs["g"] = g
    if "b:" in sig:
        inputs["b"] = b
    src = f"graph g({sig.format(t=dtype)}) -> {dtype}[R, N] {{ {body} }}\n"
    out = emulator.run_graph(src, "g", inputs, racecheck=racecheck, arch=arch)
    f64 = lambda a: a.astype(np.float64)
    close(out, ref(f64(x), f64(g), f64(b)), 1e-5 if dtype == "f32" else 3e-3)


@pytest.mark.parametrize("n", [1, 4, 5, 16, 17, 32, 33, 61, 64, 65, 128, 132, 256, 257, 384, 385, 512, 513, 768, 769, 1536, 1537, 3072, 3073,
                               6144, 6145, 1024, 1025, 2048, 2049, 4096, 4097, 8192, 8193,
                               16384, 16385, 32768, 32769])
@pytest.mark.parametrize("op", sorted(OPS))
def test_each_side_of_each_regime(op, n):
    # 11 rows: the warp regime's last block holds 3 rows and 5 idle warps, 64 and 128 threads
    # per row's 3 and 1 (idle groups still meet the block's barrier); 37 rows: the 8-thread
    # regime's last block holds 5 rows, its first warp one row and 3 idle groups; 133 rows: the
    # 2- and 4-thread regimes' (128 and 64 rows a block) two and three blocks, the last with
    # 5 rows; 261: a thread per row's two blocks (past 1024: blocks of 256, 512 and 1024
    # threads, then past 32768 the loops)
    rows = 261 if n <= 4 else 133 if n <= 33 else 37 if n <= 65 else 11 if n <= 1025 else 3 if n <= 8193 else 2
    run(op, "f32", rows, n)


@pytest.mark.parametrize("n", [1, 4, 7, 8, 9, 12, 16, 17, 24, 28, 33, 1000, 2048, 2049])
def test_f16_rows(n):
    # Rows of up to 33 values: 261 rows, two or more blocks of the 1-, 2- and 4-thread regimes
    # (256, 128 and 64 rows a block), the last partly full.
    run("rms_norm", "f16", 261 if n <= 33 else 5, n)
    run("layer_norm", "f16", 261 if n <= 33 else 3, n)


@pytest.mark.parametrize("n", [61, 300, 1000, 1025, 8193, 16385])
def test_regimes_without_races(n):
    run("layer_norm", "f32", 2, n, racecheck=True)


@pytest.mark.parametrize("n", [16384, 16388, 24580, 32768])
@pytest.mark.parametrize("op", ["softmax", "layer_norm"])
def test_streamed_rows(op, n):
    """f32 rows of 16385 to 32768 values (16-byte multiples) go to persistent blocks (one a
    multiprocessor; the emulator has two) that walk the rows, copying the next into shared
    memory meanwhile: 5 rows, so each block takes two or three of them. 16384: a block per row."""
    run(op, "f32", 5, n)


@pytest.mark.parametrize("op", ["softmax", "rms_norm"])
def test_streamed_rows_over_several_dimensions_without_races(op):
    """The next row's indices unravelled over the row dimensions as this row's; the racecheck
    sees the stage's copies land as each thread's own writes and, rms_norm's one reduction, the
    barrier after the next row's copies keep its partial sums until every thread read the last
    row's (softmax's two reductions' barriers keep each other's)."""
    x = rng.standard_normal((2, 2, 16400)).astype(np.float32)
    g = (rng.standard_normal(16400) + 1).astype(np.float32)
    sig, body, ref = OPS[op]
    src = f"graph h({sig.format(t='f32').replace('[R, N]', '[B, T, N]')}) -> f32[B, T, N] {{ {body} }}\n"
    inputs = {"x": x, "g": g} if "g:" in sig else {"x": x}
    out = emulator.run_graph(src, "h", inputs, racecheck=True)
    close(out, ref(x.astype(np.float64), g.astype(np.float64), None), 1e-5)


def test_streamed_rows_kernels(tmp_path):
    """Only f32 rows of 16-byte multiples past 16384 values stream; the launch says so."""
    cu = emit(tmp_path, "softmax(x)")
    assert "block1024_vec_stream" in cu and "__launch_bounds__(1024, 1)" in cu
    assert "block512_32_vec_stream" not in cu and "block1024_stream" not in cu  # 16384; rows of other lengths
    assert "hds::persistent_grid((long long)R, 1)" in cu
    assert "// persistent: at most 1 block a multiprocessor, each walking the work" in cu
    two = emit(tmp_path, "softmax(x * y + x)")  # two rows staged: blocks of 1024 hold 16384
    assert "_stream" not in two
    src = tmp_path / "h.hds"
    src.write_text('import "nn.hds";\ngraph h(x: f16[R, N], g: f16[N]) -> f16[R, N] { return rms_norm(x, g); }\n')
    assert "_stream" not in emulator.emit(src)


@pytest.mark.parametrize("n", [512, 513, 4096, 4097, 16384, 16385])
def test_two_staged_rows_halve_the_bounds(n):
    """softmax(x * y + x): both rows are read by all three passes, at most 16 values of each per
    thread (8 up to 4096, a block of 512 threads)."""
    x, y = rng.standard_normal((3, n)).astype(np.float32), rng.standard_normal((3, n)).astype(np.float32)
    src = "graph g(x: f32[R, N], y: f32[R, N]) -> f32[R, N] { return softmax(x * y + x); }\n"
    out = emulator.run_graph(src, "g", {"x": x, "y": y})
    xd, yd = x.astype(np.float64), y.astype(np.float64)
    close(out, softmax(xd * yd + xd), 1e-5)


@pytest.mark.parametrize("n", [256, 257, 300, 2048, 2049])
def test_three_staged_rows_keep_whole_chunks(n):
    """Three rows staged: 32 / 3 values per thread round down to whole 16-byte chunks (8), so
    a warp takes rows of up to 256 and a block of 256 up to 2048 (300 read 16 bytes at a time)."""
    x, y, z = (rng.standard_normal((4, n)).astype(np.float32) for _ in range(3))
    src = "graph g(x: f32[R, N], y: f32[R, N], z: f32[R, N]) -> f32[R, N] { return softmax(x * y + z); }\n"
    out = emulator.run_graph(src, "g", {"x": x, "y": y, "z": z})
    xd, yd, zd = x.astype(np.float64), y.astype(np.float64), z.astype(np.float64)
    close(out, softmax(xd * yd + zd), 1e-5)


def emit(tmp_path, body):
    src = tmp_path / "r.hds"
    src.write_text(f'import "elementwise.hds";\nimport "nn.hds";\n'
                   f'graph r(x: f32[R, N], y: f32[R, N]) -> f32[R, N] {{ return {body}; }}\n')
    return emulator.emit(src, arch="sm_80")  # (the sm_80 regimes: the default target has sm_90a's beside them)


def test_kernel_shape(tmp_path):
    """The dispatch is readable: a kernel per regime, each with its own block and registers, and an
    `if` chain on N in the host code with a comment per regime, each launch with its grid."""
    cu = emit(tmp_path, "softmax(x)")
    chain = [
        "if (N % 4 == 0 && N <= 64) {  // rows of up to 64: 8 threads per row (32 rows per block), 8 values per "
        "thread in registers, 4 at a time\n",
        "r_k0_softmax_lanes8_vec<<<dim3((unsigned)(((long long)R + 31) / 32), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N <= 64) {  // rows of up to 64: 8 threads per row (32 rows per block), 8 values per thread "
        "in registers, the block's rows copied through shared memory, a warp's rows a warp apart\n",
        # 16 threads per row only where rows are read 16 bytes at a time (no kernel element by element)
        "} else if (N % 4 == 0 && N <= 128) {  // rows of up to 128: 16 threads per row (16 rows per block), 8 "
        "values per thread in registers, 4 at a time\n",
        "r_k0_softmax_lanes16_vec<<<dim3((unsigned)(((long long)R + 15) / 16), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N % 4 == 0 && N <= 256) {  // rows of up to 256: a warp per row, 8 values per thread in "
        "registers, 4 at a time\n",
        "r_k0_softmax_warp_vec<<<dim3((unsigned)(((long long)R + 7) / 8), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N <= 256) {  // rows of up to 256: a warp per row, 8 values per thread in registers\n",
        "} else if (N % 4 == 0 && N <= 512) {  // rows of up to 512: 64 threads per row (4 rows per block), 8 "
        "values per thread in registers, 4 at a time\n",
        "r_k0_softmax_lanes64_vec<<<dim3((unsigned)(((long long)R + 3) / 4), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N <= 1024) {  // rows of up to 1024: 128 threads per row (2 rows per block), 8 values per "
        "thread in registers\n",
        "r_k0_softmax_lanes128<<<dim3((unsigned)(((long long)R + 1) / 2), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N % 4 == 0 && N <= 2048) {  // rows of up to 2048: a block of 256 threads per row, 8 values "
        "per thread in registers, 4 at a time\n",
        "r_k0_softmax_block256_vec<<<dim3((unsigned)((long long)R), 1, 1), dim3((unsigned)(256), 1, 1)",
        "} else if (N % 4 == 0 && N <= 4096) {  // rows of up to 4096: a block of 512 threads per row, 8 values "
        "per thread in registers, 4 at a time\n",
        "} else if (N % 4 == 0 && N <= 8192) {  // rows of up to 8192: a block of 512 threads per row, 16 values "
        "per thread in registers, 4 at a time\n",
        "r_k0_softmax_block512_16_vec<<<dim3((unsigned)((long long)R), 1, 1), dim3((unsigned)(512), 1, 1)",
        "} else if (N <= 16384) {  // rows of up to 16384: a block of 512 threads per row, 32 values per thread "
        "in registers\n",
        "} else if (N <= 32768) {  // rows of up to 32768: a block of 1024 threads per row, 32 values per thread "
        "in registers\n",
        "r_k0_softmax_block1024<<<dim3((unsigned)((long long)R), 1, 1), dim3((unsigned)(1024), 1, 1)",
        "} else {  // rows longer than 32768: a block per row, each pass reading the row again\n",
        "r_k0_softmax_loops<<<dim3((unsigned)((long long)R), 1, 1), dim3((unsigned)(256), 1, 1)",
    ]
    at = [cu.find(line) for line in chain]
    assert -1 not in at and at == sorted(at), (at, cu)
    assert "r_k0_softmax_lanes16(" not in cu and "} else if (N <= 128) {" not in cu, cu
    # 4-byte values: between two regimes of two chunks a thread, the same lanes holding three
    for lanes, longest in (("warp", 384), ("lanes64", 768), ("lanes128", 1536), ("block256", 3072),
                           ("block512", 6144)):
        assert f"r_k0_softmax_{lanes}_12_vec<<<" in cu and f"r_k0_softmax_{lanes}_12<<<" in cu, (lanes, cu)
        assert f"N <= {longest}) {{  // rows of up to {longest}: " in cu, (longest, cu)
    assert "float row_x[12];" in cu, cu
    for bounds, name in ((256, "lanes8_vec"), (256, "warp"), (256, "lanes128_vec"), (512, "block512_32"),
                         (1024, "block1024"), (256, "loops")):
        assert f"__global__ void __launch_bounds__({bounds}) r_k0_softmax_{name}(" in cu, (name, cu)
    assert "float row_x[32];" in cu and "float row_x[8];" in cu, cu
    # Short rows: the block's 32 rows, contiguous (and 16-byte aligned), copied in and out by
    # consecutive threads 16 bytes at a time, the last block's few last elements one at a time.
    for whole, tail in (("hds::copy<16>(&stage_x[i], &x[base + i]);", "stage_x[at] = x[base + at];"),
                        ("hds::copy<16>(&out[base + i], &stage_out[i]);", "out[base + at] = stage_out[at];")):
        assert whole in cu and tail in cu, (whole, cu)
    # ... each warp's 4 groups of 8 lanes on rows a warp apart (consecutive rows of odd lengths read the
    # same banks), and where the block's rows copied in take 4 KB at most, two rounds of them (8 KB)
    assert "const int slot = (int)threadIdx.x % 32 / 8 * 8 + (int)threadIdx.x / 32;" in cu, cu
    assert "row_x[c] = stage_x[slot * N + col];" in cu, cu
    assert "} else if (N <= 4) {  // rows of up to 4: a thread per row (2 rounds of 256 rows per block), " in cu, cu
    assert "const int slot = round * 256 + (int)threadIdx.x;" in cu and "__shared__ alignas(16) float stage_x[2048];" in cu
    # on 4 lanes, rows a warp apart at odd lengths only: a kernel of their own, before the other lengths'
    odd = cu.find("} else if (N % 2 == 1 && N <= 32) {  // rows of up to 32: 4 threads per row (64 rows per block), 8 "
                  "values per thread in registers, the block's rows copied through shared memory, a warp's rows a "
                  "warp apart (odd lengths)\n")
    assert -1 < odd < cu.find("} else if (N <= 32) {  // rows of up to 32: 4 threads per row (64 rows per block)"), cu
    assert "r_k0_softmax_lanes4_apart<<<" in cu and "const int slot = (int)threadIdx.x / 4;" in cu, cu
    # Rows of several warps: each warp's total in shared memory, a buffer per reduction, one
    # barrier, then every thread adds its own row's (128 threads: 4 of the block's 8 warps).
    assert "__shared__ alignas(16) float part_softmax_m[8];" in cu, cu
    assert "softmax_s_acc = softmax_s_acc + part_softmax_s[(int)threadIdx.x / 128 * 4 + w];" in cu, cu
    assert "__shared__ alignas(16) float part_softmax_s[32];" in cu, cu  # a block of 1024 threads
    # Two rows staged: 16 values of each per thread at most (a block of 1024 threads: 16384).
    cu = emit(tmp_path, "softmax(x * y + x)")
    assert "} else if (N % 4 == 0 && N <= 16384) {  // rows of up to 16384: a block of 1024 threads per row, 16 " \
        "values per thread" in cu, cu
    assert "float row_x[16];" in cu and "float row_y[16];" in cu, cu
    cu = emit(tmp_path, "softmax(x * y + x * x * y)")  # the same two rows
    assert "} else if (N % 4 == 0 && N <= 16384) {" in cu and "N <= 32768" not in cu, cu


def test_weights_and_residual_in_chunks(tmp_path):
    """Where rows are read 16 bytes at a time, so are the other rows the output reads once (the
    weight and bias, a residual): one copy per chunk into registers, not V one-element loads."""
    src = tmp_path / "r.hds"
    src.write_text('import "elementwise.hds";\nimport "nn.hds";\n'
                   "graph r(x: f32[R, N], y: f32[R, N], g: f32[N], b: f32[N]) -> f32[R, N] "
                   "{ return layer_norm(x, g, b) + y; }\n")
    cu = emulator.emit(src, arch="sm_90a")
    for copy, count in (("hds::copy<16>(&v_g[0], &g[first]);", 19), ("hds::copy<16>(&v_b[0], &b[first]);", 19),
                        ("hds::copy<16>(&v_y[0], &y[i0 * N + first]);", 20)):
        # 1 (y only: g and b are held, below), 2, 4, 8, 16, 32, 64, 128 threads per row, blocks of
        # 256, 512 (three: 8, 16 and 32 values per thread) and 1024 threads, clusters of blocks of
        # 512 and of 256: a kernel each; 32 ... 512 threads of three chunks
        assert cu.count(copy) == count, (copy, cu)
    assert "* v_g[e] + v_b[e] + v_y[e];" in cu, cu
    # x, g and b: 96 bytes a thread, past kHeldBytes, but for a thread per row (one chunk of each)
    held = [re.search(r"(r_k0_\w+)\(", k).group(1) for k in cu.split("__global__ void ")[1:] if "held_" in k]
    assert held == ["r_k0_layer_norm_layer_norm_add_lanes1_vec"], held
    # Rows that are not multiples of 16 bytes: one element at a time.
    assert "* g[col] + b[col] + y[i0 * N + col];" in cu, cu
    assert "(uintptr_t)g % 16 != 0 || (uintptr_t)b % 16 != 0" in cu, cu


def test_weight_held_with_the_row(tmp_path):
    """rms_norm: where the row is read 16 bytes at a time and the row and the weight take at most
    64 bytes a thread (two chunks of each), the weight is copied into registers with the row,
    before the reduction, and the output reads it there; past that (blocks of 512 and 1024
    threads holding 32 values, the clusters) it is copied per chunk after the reduction."""
    src = tmp_path / "r.hds"
    src.write_text('import "nn.hds";\ngraph r(x: f16[R, N], g: f16[N]) -> f16[R, N] { return rms_norm(x, g); }\n')
    cu = emulator.emit(src, arch="sm_90a")
    kernels = cu.split("__global__ void ")[1:]
    name = lambda k: re.search(r"(r_k0_\w+)\(", k).group(1)
    held = [name(k) for k in kernels if "hds::copy<16>(&held_g[c * 8], &g[first]);" in k]
    assert held == [f"r_k0_rms_norm_{w}_vec" for w in ("lanes1", "lanes2", "lanes4", "lanes4_16", "lanes16", "warp",
                                                       "lanes64", "lanes128", "block256", "block512")], held
    for k in kernels:
        if name(k) in held:  # before the reduction (a thread per row: no shuffles); the output reads the registers
            copy, use = k.find("held_g[c * 8], &g[first]"), k.find("* hds::cast<float>(held_g[c * 8 + e])")
            shuffle = copy + 1 if name(k).endswith("lanes1_vec") else k.find("__shfl_xor_sync")
            assert 0 <= copy < shuffle < use, k
            assert "v_g" not in k, k
        elif name(k).endswith("_vec"):
            assert "hds::copy<16>(&v_g[0], &g[first]);" in k and "held_g" not in k, k


@pytest.mark.parametrize("n", [8, 64, 128, 136, 256, 264, 1000, 8192, 8200, 16384, 16392])
def test_weight_held_numerics(n):
    """Each side of the bounds where the weight is held (8192 f16 values: 512 threads of two chunks;
    past it 32 values a thread, copied per chunk) and of 16 threads per row (256 f16, 128 f32)."""
    rows = 19 if n <= 256 else 3  # 16 threads: the second block's 3 rows and 13 idle groups
    for dtype, np_t, tol in (("f16", np.float16, 3e-3), ("f32", np.float32, 1e-5)):
        x = (rng.standard_normal((rows, n)) * 2 + 0.5).astype(np_t)
        g = (rng.standard_normal(n) + 1).astype(np_t)
        src = f"graph r(x: {dtype}[R, N], g: {dtype}[N]) -> {dtype}[R, N] {{ return rms_norm(x, g); }}\n"
        out = emulator.run_graph(src, "r", {"x": x, "g": g}, arch="sm_90a")
        close(out, rms_norm(x.astype(np.float64), g.astype(np.float64)), tol)


@pytest.mark.parametrize("n", [505, 513, 1017, 1018, 1023, 2041, 2047, 4089, 4095, 8185, 8191, 16377, 16383, 32761,
                               32767])
def test_f16_rows_in_the_chunks_that_hold_them(n):
    """f16 rows that are not 16-byte multiples, from 64 threads per row: read 16 bytes at a time
    from the aligned chunks that hold them (each row starting `shift` elements into its first),
    the elements of the rows around them neither counted nor written, the tensor's last chunk
    read element by element (it may pass the tensor's end); both sides of each regime's bound
    (one chunk less than the regime holds). Three rows: three different shifts."""
    run("rms_norm", "f16", 3, n)
    run("softmax", "f16", 3, n)
    run("layer_norm", "f16", 3, n)  # the weight and bias read at the column, clamped into the row


@pytest.mark.parametrize("n", [32762, 50257, 65529, 65530, 131065, 131066])
def test_f16_rows_in_the_chunks_that_hold_them_in_clusters(n):
    """The same past a block of 1024 threads on sm_90a: a cluster of 8 blocks per row, each
    block's columns shifted with the row (block p: p * span - shift up to the next one's), the
    chunks needing up to 7 columns more (65529: 32 values a thread, 65530: 64 on these few rows;
    past 131065 the loops)."""
    run("rms_norm", "f16", 3, n, arch="sm_90a")
    if n in (50257, 65530):
        run("layer_norm", "f16", 2, n, arch="sm_90a")
    if n > 131065:
        return
    # Values large at each block's first 8 columns (and small elsewhere): a column counted by
    # two blocks, or by none, moves the row's mean square by far more than f16's rounding.
    parts = 8
    span = -(-(n + 7) // (parts * 8)) * 8
    x = (rng.standard_normal((3, n)) * 0.1).astype(np.float16)
    for r in range(3):
        for p in range(1, parts):
            first = p * span - r * n % 8
            x[r, first:first + 8] = 30
    g = (rng.standard_normal(n) + 1).astype(np.float16)
    src = "graph g(x: f16[R, N], g: f16[N]) -> f16[R, N] { return rms_norm(x, g); }\n"
    out = emulator.run_graph(src, "g", {"x": x, "g": g}, arch="sm_90a")
    close(out, rms_norm(x.astype(np.float64), g.astype(np.float64)), 3e-3)


@pytest.mark.parametrize("n", [32769, 50257, 65533, 65534, 100003, 131069, 131070])
def test_f32_rows_in_the_chunks_that_hold_them_in_clusters(n):
    """f32 rows that are not 16-byte multiples in the clusters (sm_90a): 16 bytes at a time from
    the aligned chunks that hold them, each block's columns shifted with the row (65533: 8 blocks
    of 256 threads, 65534: 8 of 512; past 131069 the loops)."""
    run("softmax", "f32", 3, n, arch="sm_90a")
    run("layer_norm", "f32", 3, n, arch="sm_90a")


def test_rows_in_the_chunks_that_hold_them_kernels(tmp_path):
    """The aligned chunks' kernels: f16 from 64 threads per row (clusters too: a block's columns
    shifted with the row), their own bound (N <= 1017 for 64 threads of 16 values), for f32 only
    in the clusters, not on fewer threads."""
    src = tmp_path / "r.hds"
    src.write_text('import "nn.hds";\n'
                   "graph r(x: f16[R, N], g: f16[N], y: f32[R, N]) -> f16[R, N] { return rms_norm(x, g); }\n"
                   "graph s(y: f32[R, N]) -> f32[R, N] { return softmax(y); }\n")
    cu = emulator.emit(src, arch="sm_90a")
    assert ("} else if (N <= 1017) {  // rows of up to 1017: 64 threads per row (4 rows per block), 16 values per "
            "thread in registers, 8 at a time from the aligned chunks that hold the row\n") in cu, cu
    assert "} else if (N <= 512) {  // rows of up to 512: a warp per row, 16 values per thread in registers\n" in cu
    names = re.findall(r"__global__ void __launch_bounds__\([\d, ]+\) (\w+_shifted)\(", cu)
    assert names == [f"r_k0_rms_norm_{w}_vec_shifted" for w in
                     ("lanes64", "lanes128", "block256", "block512", "block512_32", "block1024", "cluster_64",
                      "cluster")] + ["s_k0_softmax_cluster512_vec_shifted", "s_k0_softmax_cluster_vec_shifted"], names
    cluster = cu[cu.find("r_k0_rms_norm_cluster_64_vec_shifted("):]
    cluster = cluster[:cluster.find("\n}\n")]
    for line in ("const int parts = N <= 65529 ? 4 : 8;", "const int span = (N + 7 + parts * 8 - 1) / (parts * 8) * 8;",
                 "const int end = start + span - shift < N ? start + span - shift : N;",
                 "const int first = start + ((int)threadIdx.x + c * 256) * 8 - shift;"):
        assert line in cluster, (line, cluster)
    kernel = cu[cu.find("r_k0_rms_norm_lanes64_vec_shifted("):]
    kernel = kernel[:kernel.find("\n}\n")]
    for line in ("const int shift = row < R ? row * N % 8 : 0;",
                 "const int first = ((int)threadIdx.x % 64 + c * 64) * 8 - shift;",
                 "if (row != R - 1 || first + 8 <= N) {",
                 "hds::copy<16>(&row_x[c * 8], &x[row * N + first]);",
                 "if (first + e >= 0 && first + e < cols) {",
                 "g[min(max(first + e, 0), N - 1)]",
                 "if (first >= 0 && first + 8 <= cols) {"):
        assert line in kernel, (line, kernel)


def test_rows_in_the_chunks_that_hold_them_more_dimensions():
    """Rows over two dimensions ([B, T, N]), two rows staged (x + r) and a residual read by the
    output alone, under the race checker."""
    for n in (1001, 2047):
        x, r, y = ((rng.standard_normal((2, 3, n)) * 2).astype(np.float16) for _ in range(3))
        g = (rng.standard_normal(n) + 1).astype(np.float16)
        src = ("graph t(x: f16[B, T, N], r: f16[B, T, N], y: f16[B, T, N], g: f16[N]) -> f16[B, T, N] "
               "{ return rms_norm(x + r, g) + y; }\n")
        out = emulator.run_graph(src, "t", {"x": x, "r": r, "y": y, "g": g}, arch="sm_90a", racecheck=True)
        f64 = lambda a: a.astype(np.float64)
        close(out, rms_norm(f64(x) + f64(r), f64(g)) + f64(y), 3e-3)


@pytest.mark.parametrize("dtype,n", [("f16", n) for n in (4, 60, 68, 100, 252, 260, 300, 508, 516, 1020, 1028, 2052,
                                                           4100, 8196, 16388)] +
                         [("f32", n) for n in (2, 62, 66, 126, 130, 254, 258, 382, 386, 510, 514, 1022, 2050, 4098,
                                                8194, 16386, 32770)])
def test_rows_of_eight_byte_multiples(dtype, n):
    """Rows of 8-byte multiples that are not 16-byte ones (f16 N % 8 == 4, f32 N % 4 == 2) read 8
    bytes at a time outside the clusters: both sides of each bound (8, 16 threads, a warp, for f32 a
    warp of three chunks, 64 and 128 threads, blocks of 256, 512 and 1024), the next regime past them
    (32770: the clusters, sm_90a); 37 rows (idle groups in the last block)."""
    for op in ("rms_norm", "layer_norm") if dtype == "f16" else ("softmax", "layer_norm"):
        run(op, dtype, 37 if n < 4096 else 5, n, racecheck=n in (68, 130, 1022), arch="sm_90a" if n > 32768 else None)


@pytest.mark.parametrize("n", [66, 98, 158, 162, 254, 258, 510, 514, 1018, 1026, 2046, 4094, 8190, 16382, 16386])
def test_f16_rows_four_bytes_at_a_time(n):
    """2-byte rows of even lengths that are not 8-byte multiples: 4 bytes at a time on 16 lanes (up
    to 160), a warp (up to 512) and more threads (64, 128, blocks of 256 and 512; 16386: 1024),
    both sides of each bound."""
    for op in ("rms_norm", "softmax", "layer_norm"):
        run(op, "f16", 19 if n < 4096 else 3, n)


def test_f16_rows_four_bytes_at_a_time_kernels(tmp_path):
    """Their kernels: from 16 lanes, outside the clusters (on 4 lanes or fewer the block's rows go
    through shared memory), 4-byte copies of the row, the weight (held with it) and the output; 16
    lanes up to 160 values."""
    src = tmp_path / "r.hds"
    src.write_text('import "nn.hds";\ngraph r(x: f16[R, N], g: f16[N]) -> f16[R, N] { return rms_norm(x, g); }\n')
    cu = emulator.emit(src, arch="sm_90a")
    names = re.findall(r"__global__ void __launch_bounds__\(\d+\) (\w+_vec4b)\(", cu)
    assert names == [f"r_k0_rms_norm_{w}_vec4b" for w in ("lanes16", "warp", "lanes64", "lanes128", "block256",
                                                         "block512", "block512_32", "block1024")], names
    assert ("    } else if (N % 2 == 0 && N <= 160) {  // rows of up to 160: 16 threads per row (16 rows per block), "
            "16 values per thread in registers, 2 at a time (4 bytes)\n") in cu, cu
    assert ("    } else if (N % 2 == 0 && N <= 512) {  // rows of up to 512: a warp per row, 16 values per thread "
            "in registers, 2 at a time (4 bytes)\n") in cu, cu
    kernel = cu[cu.find("r_k0_rms_norm_lanes16_vec4b("):]
    kernel = kernel[:kernel.find("\n}\n")]
    for line in ("hds::copy<4>(&row_x[c * 2], &x[i0 * N + first]);", "hds::copy<4>(&held_g[c * 2], &g[first]);",
                 "hds::copy<4>(&out[i0 * N + first], &v_out[0]);"):
        assert line in kernel, (line, kernel)


def test_rows_of_eight_byte_multiples_kernels(tmp_path):
    """Their kernels: after the 16-byte ones of each regime but the clusters (the 16-thread one
    too: it takes no rows element by element), 8-byte copies of the row, the weight, the output;
    none for 8-byte values, nor 2, 4 or 8 threads of 4-byte ones; a constant N of such rows takes
    its one regime's."""
    src = tmp_path / "r.hds"
    src.write_text('import "nn.hds";\n'
                   "graph r(x: f16[R, N], g: f16[N]) -> f16[R, N] { return rms_norm(x, g); }\n"
                   "graph s(y: f32[R, N]) -> f32[R, N] { return softmax(y); }\n"
                   "graph d(z: f64[R, N]) -> f64[R, N] { return softmax(z); }\n"
                   "graph c(x: f16[R, 100], g: f16[100]) -> f16[R, 100] { return rms_norm(x, g); }\n")
    cu = emulator.emit(src, arch="sm_90a")
    assert ("    } else if (N % 4 == 0 && N <= 256) {  // rows of up to 256: 16 threads per row (16 rows per "
            "block), 16 values per thread in registers, 4 at a time (8 bytes)\n") in cu, cu
    names = re.findall(r"__global__ void __launch_bounds__\(\d+\) (\w+_vec8b)\(", cu)
    assert names == [f"r_k0_rms_norm_{w}_vec8b" for w in ("lanes1", "lanes2", "lanes4", "lanes4_16", "lanes16", "warp",
                                                        "lanes64", "lanes128", "block256", "block512", "block512_32",
                                                        "block1024")] + \
        [f"s_k0_softmax_{w}_vec8b" for w in ("lanes16", "warp", "warp_12", "lanes64", "lanes64_12", "lanes128",
                                             "lanes128_12", "block256", "block256_12", "block512", "block512_12",
                                             "block512_16", "block512_32", "block1024")], names
    kernel = cu[cu.find("r_k0_rms_norm_lanes16_vec8b("):]
    kernel = kernel[:kernel.find("\n}\n")]
    for line in ("hds::copy<8>(&row_x[c * 4], &x[i0 * N + first]);", "hds::copy<8>(&held_g[c * 4], &g[first]);",
                 "hds::copy<8>(&out[i0 * N + first], &v_out[0]);"):
        assert line in kernel, (line, kernel)
    constant = cu[cu.find("c_k0_rms_norm("):]
    constant = constant[:constant.find("\n}\n")]
    assert "hds::copy<8>(&row_x[c * 4], &x[i0 * 100 + first]);" in constant, constant


@pytest.mark.parametrize("n", [64, 65, 512, 516, 1024, 1025, 8192, 8193, 16384, 16388, 32768, 32772])
def test_weights_and_residual_numerics(n):
    """The same on each side of each regime, on sm_90a (past 4096 blocks of 512, past 16384 of 1024
    threads; past 32768 clusters of 8 blocks)."""
    x, y = rng.standard_normal((3, n)).astype(np.float32), rng.standard_normal((3, n)).astype(np.float32)
    g, b = (rng.standard_normal(n) + 1).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    src = "graph r(x: f32[R, N], y: f32[R, N], g: f32[N], b: f32[N]) -> f32[R, N] { return layer_norm(x, g, b) + y; }\n"
    out = emulator.run_graph(src, "r", {"x": x, "y": y, "g": g, "b": b}, arch="sm_90a")
    f64 = lambda a: a.astype(np.float64)
    close(out, layer_norm(f64(x), f64(g), f64(b)) + f64(y), 1e-5)


@pytest.mark.parametrize("shape", [(3, 13, 61), (2, 1, 5), (40, 64)])
def test_short_rows_through_shared_memory(shape):
    """Rows of up to 64 values by 8 threads each, N not a multiple of 16 bytes: the block's 32 rows go
    through shared memory, copied in and out by consecutive threads (flat indices, also over two row
    dimensions): a last block of 7 rows (3 x 13 = 39), fewer rows than a block. N = 64 takes the
    16-byte chunks instead (not staged). Under the race checker."""
    dims = ", ".join("BTN"[-len(shape):])
    for dtype, np_t, tol in (("f32", np.float32, 1e-5), ("f16", np.float16, 3e-3)):
        x = (rng.standard_normal(shape) * 2).astype(np_t)
        g = (rng.standard_normal(shape[-1]) + 1).astype(np_t)
        src = (f"graph g(x: {dtype}[{dims}], g: {dtype}[N]) -> {dtype}[{dims}] "
               "{ return rms_norm(softmax(x) + x, g); }\n")
        out = emulator.run_graph(src, "g", {"x": x, "g": g}, racecheck=True)
        y = softmax(x.astype(np.float64)) + x.astype(np.float64)
        close(out, rms_norm(y, g.astype(np.float64)), tol)


@pytest.mark.parametrize("dtype,n,rows", [
    # a thread and 2 threads per row in two rounds of 256 and 128 rows: a last block whose second round
    # is partial, whose first is (600 = 512 + 88), and fewer rows than a round
    ("f16", 7, 600), ("f16", 13, 300), ("f16", 3, 5), ("f32", 3, 600),
    # 4 threads per row, two rounds of 64 (f16; odd lengths on rows a warp apart) and one (f32)
    ("f16", 17, 200), ("f16", 30, 200), ("f16", 31, 70), ("f32", 29, 100), ("f32", 30, 100),
    # 4 threads of 16 (f16), 8 threads (f32: rows a warp apart at every length), one round
    ("f16", 45, 100), ("f16", 62, 100), ("f16", 63, 33), ("f32", 33, 40), ("f32", 62, 40), ("f32", 63, 7)])
def test_short_rows_in_rounds_and_warps_apart(dtype, n, rows):
    """Short rows through shared memory in rounds (the block's rows copied in at most 8 KB) and on rows a
    warp apart (odd lengths on 4 lanes, every length on 8): both sides of each, partial last blocks and
    rounds, under the race checker."""
    np_t, tol = (np.float16, 3e-3) if dtype == "f16" else (np.float32, 1e-5)
    x = (rng.standard_normal((rows, n)) * 2).astype(np_t)
    g = (rng.standard_normal(n) + 1).astype(np_t)
    src = f"graph g(x: {dtype}[R, N], g: {dtype}[N]) -> {dtype}[R, N] {{ return rms_norm(softmax(x), g); }}\n"
    out = emulator.run_graph(src, "g", {"x": x, "g": g}, racecheck=True)
    close(out, rms_norm(softmax(x.astype(np.float64)), g.astype(np.float64)), tol)


SOFTMAX_PLUS = """op softmax_plus<T>(x: T[*S, N]) -> T[*S, N] {
    compute m[*i] = max(k in 0..N) x[*i, k];
    compute s[*i] = sum(k in 0..N) exp(x[*i, k] - m[*i]);
    compute y[*i, j] = exp(x[*i, j] - m[*i]) / s[*i] + x[*i, j];
}
graph g(x: f32[R, N]) -> f32[R, N] { return softmax_plus(x); }
"""


def test_terms_kept_for_the_output(tmp_path):
    """f32 softmax's exp(x - m), summed, then divided by the sum, is computed once: the sum keeps
    each term over x in the row's registers (nothing after it reads x) and the output reads them.
    Not where the output reads x too, nor for f16 (f32 terms would need registers of their own),
    nor in the shifted chunks (the clusters) or where the row is read again per pass (the loops)."""
    cu = emit(tmp_path, "softmax(x)")
    assert "row_x[c * 4 + e] = expf(row_x[c * 4 + e] - softmax_m);\n" in cu
    assert "softmax_s_acc = softmax_s_acc + row_x[c * 4 + e];\n" in cu
    assert "v_out[e] = row_x[c * 4 + e] * (1.0f / softmax_s);\n" in cu
    assert "row_x[c] = expf(row_x[c] - softmax_m);\n" in cu and "kept_" not in cu
    recomputed = [line for line in cu.splitlines() if "expf(" in line and "(1.0f / softmax_s)" in line]
    assert recomputed == ["        out[i0 * N + j] = expf(x[i0 * N + j] - softmax_m) * (1.0f / softmax_s);"], recomputed
    src = tmp_path / "p.hds"
    src.write_text(SOFTMAX_PLUS)
    plus = emulator.emit(src)
    assert "kept_" not in plus and "expf(row_x[c] - softmax_plus_m) / softmax_plus_s + row_x[c]" in plus
    src.write_text('target sm_90a;\nimport "nn.hds";\ngraph h(x: f16[R, N]) -> f16[R, N] { return softmax(x); }\n')
    halves = emulator.emit(src)
    assert "kept_" not in halves and "hds::cast<__half>(expf(hds::cast<float>(row_x[c * 8 + e]) - softmax_m)" in halves


@pytest.mark.parametrize("n", [7, 61, 129, 130, 383, 1000, 4097])
def test_terms_read_beside_the_row_numerics(n):
    """An output that reads x beside the terms (which are then not kept) against numpy, on short rows
    through shared memory, a warp, 16-byte chunks and a block per row, under the race checker; softmax
    itself, kept, runs in every other row test."""
    x = (rng.standard_normal((33, n)) * 2).astype(np.float32)
    out = emulator.run_graph(SOFTMAX_PLUS, "g", {"x": x}, imports=(), racecheck=True)
    close(out, softmax(x.astype(np.float64)) + x, 1e-5)
