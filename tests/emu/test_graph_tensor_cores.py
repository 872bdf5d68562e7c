"""Graphs on the emulator take the sm_80 tensor-core schedules where they apply, as on the GPU
(codegen/cpu/compile_tensor_core.cpp emulates mma.sync, ldmatrix and cp.async; the sm_90a
schedules are skipped there): each is checked against float64 numpy on odd sizes, with
racecheck, and the emitted code says which schedule ran."""
import numpy as np
import pytest

import emulator

rng = np.random.default_rng(23)


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def rel(out, ref):
    ref = np.asarray(ref, np.float64)
    return np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)


def halves(*shape):
    return rng.standard_normal(shape).astype(np.float16)


@pytest.mark.parametrize("d,heads,groups,lq,lk,causal", [(64, 4, 2, 37, 70, 1), (64, 2, 1, 65, 63, 0),
                                                         (128, 2, 2, 17, 130, 1), (128, 4, 1, 65, 33, 0),
                                                         (64, 17, 1, 1, 1, 0), (64, 2, 2, 130, 140, 1),
                                                         (128, 2, 1, 129, 40, 0)])
def test_attention_mma(tmp_path, d, heads, groups, lq, lk, causal):
    """attention_mma.hds (FlashAttention-2's loop on mma.sync, 32 query rows a warp, 128 a
    block: 129 and 130 rows are two blocks, the second partial): partial query blocks and key
    tiles (of 64 keys for heads of 64, 32 for 128: 33 keys are a tile and one), grouped heads,
    the causal diagonal, one key (and one query: 17 query heads over one key/value head are past
    the 16 rows of the decoding schedules)."""
    text = (f"graph g(q: f16[H, L, {d}], k: f16[G, M, {d}], v: f16[G, M, {d}]) -> f16[H, L, {d}] "
            f"{{ return attention(q, k, v, scale=0.1, causal={causal}); }}\n")
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert "attention_mma.hds" in emulator.emit(src)
    q, k, v = halves(heads, lq, d), halves(groups, lk, d), halves(groups, lk, d)
    out = emulator.run_graph(text, "g", {"q": q, "k": k, "v": v}, imports=("nn.hds",), racecheck=True)
    kk, vv = (np.repeat(t.astype(np.float64), heads // groups, axis=0) for t in (k, v))
    s = q.astype(np.float64) @ kk.transpose(0, 2, 1) * 0.1
    if causal:
        s = np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -np.inf, s)
    assert rel(out, softmax(s) @ vv) < 2e-3


@pytest.mark.parametrize("d,batch,heads,groups,lq,lk,causal,split", [
    (64, 1, 8, 2, 1, 300, 0, 2), (128, 2, 6, 3, 2, 77, 1, 1), (64, 1, 16, 1, 1, 700, 1, 3),
    # the most parts (MAXS = 32), and one part a key/value head (from 133 of them)
    (128, 1, 2, 2, 1, 8500, 0, 32), (64, 1, 140, 140, 1, 40, 0, 1)])
def test_attention_decode_split(tmp_path, d, batch, heads, groups, lq, lk, causal, split):
    """Decoding on sm_80 (attention_decode_split.hds): the keys split over `split` blocks per
    key/value head (as many as fit at once, at least 256 keys each, at most 32), each writing its
    part to the workspace, and a second kernel adding the parts; grouped heads (a group's
    queries are one block's rows), several queries, the causal diagonal."""
    emulator.skip_large_under_sanitizers(heads * 64 * lk * d)
    text = (f"graph g(q: f16[{batch}, {heads}, {lq}, {d}], k: f16[{batch}, {groups}, {lk}, {d}], "
            f"v: f16[{batch}, {groups}, {lk}, {d}]) -> f16[{batch}, {heads}, {lq}, {d}] "
            f"{{ return attention(q, k, v, scale=0.1, causal={causal}); }}\n")
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\n' + text)
    cu = emulator.emit(src)
    assert "attention_decode_split.hds" in cu
    # heads of 128 take 152704 bytes a block: attention_mma where a block has 99 KiB
    # (test_shared_memory_dispatch.py); the emulator's device is an H100
    assert ("attention_mma.hds" in cu) == (d == 128)
    # the case reaches the split it is for (the kernels' formula: blocks resident at once, 2 per
    # multiprocessor with heads of 64, at most 32, at least 256 keys each)
    assert split == max(1, min(32, (264 if d == 64 else 132) // (batch * groups), (lk + 255) // 256))
    q, k, v = halves(batch, heads, lq, d), halves(batch, groups, lk, d), halves(batch, groups, lk, d)
    out = emulator.run_graph(text, "g", {"q": q, "k": k, "v": v}, imports=("nn.hds",), racecheck=True)
    kk, vv = (np.repeat(t.astype(np.float64), heads // groups, axis=1) for t in (k, v))
    s = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) * 0.1
    if causal:
        s = np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -np.inf, s)
    assert rel(out, softmax(s) @ vv) < 2e-3


@pytest.mark.parametrize("m,k,n", [(77, 40, 33), (130, 64, 136), (20, 24, 16)])
def test_matmul_mma(m, k, n):
    """matmul_mma.hds with symbolic sizes: rows not of 16 bytes run on zero-padded copies
    (pad(K, N)), the others directly; M past 16 (the skinny schedules' bound)."""
    a, b = halves(m, k), halves(k, n)
    text = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"
    out = emulator.run_graph(text, "g", {"a": a, "b": b}, imports=("nn.hds",), racecheck=True)
    assert rel(out, a.astype(np.float64) @ b) < 2e-3


def test_conv2d_mma3x3(tmp_path):
    """conv2d_mma3x3.hds: halo tiles per channel slice, taps as moved ldmatrix rows."""
    text = ("graph g(x: f16[N, 16, 9, 11], w: f16[32, 16, 3, 3]) -> f16[N, 32, 9, 11] "
            "{ return conv2d(x, w, pad=1); }\n")
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert "conv2d_mma3x3.hds" in emulator.emit(src)
    x, w = halves(2, 16, 9, 11), halves(32, 16, 3, 3) * np.float16(0.2)
    out = emulator.run_graph(text, "g", {"x": x, "w": w}, imports=("nn.hds",), racecheck=True)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
    ref = np.zeros((2, 32, 9, 11))
    for r in range(3):
        for s in range(3):
            ref += np.einsum("nchw,oc->nohw", xp[:, :, r:r + 9, s:s + 11], w[:, :, r, s].astype(np.float64))
    assert rel(out, ref) < 2e-3


@pytest.mark.parametrize("kernel,c,r,o", [("conv2d_mma3x3", 16, 3, 64), ("conv2d_mma3x3", 16, 3, 70),
                                          ("conv2d_mma", 3, 7, 64), ("conv2d_mma", 3, 7, 40)])
def test_conv2d_mma_residual_stores(tmp_path, kernel, c, r, o):
    """The tensor-core convolutions store a warp's 32 channels untested where all are inside O, a
    fused residual's loads then issued together: O symbolic, 64 (every warp inside), 70 and 40 (the
    last warps partly outside), with a residual and ReLU fused into the store."""
    pad = r // 2
    text = (f"graph g(x: f16[N, {c}, 9, 11], w: f16[O, {c}, {r}, {r}], res: f16[N, O, 9, 11]) -> f16[N, O, 9, 11] "
            f"{{ return relu(conv2d(x, w, pad={pad}) + res); }}\n")
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\nimport "elementwise.hds";\n' + text)
    code = emulator.emit(src)
    assert f"{kernel}.hds" in code and "o0 + wo + 32 <= O" in code
    x, w, res = halves(2, c, 9, 11), halves(o, c, r, r) * np.float16(0.2), halves(2, o, 9, 11)
    out = emulator.run_graph(text, "g", {"x": x, "w": w, "res": res}, imports=("nn.hds", "elementwise.hds"),
                             racecheck=True)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ref = res.astype(np.float64)
    for i in range(r):
        for j in range(r):
            ref = ref + np.einsum("nchw,oc->nohw", xp[:, :, i:i + 9, j:j + 11], w[:, :, i, j].astype(np.float64))
    assert rel(out, np.maximum(ref, 0)) < 2e-3


@pytest.mark.parametrize("m,k,n,variant", [(5, 40, 24, "g_skinny_smem"), (77, 40, 24, "g_rows16"), (77, 40, 23, "g_any"),
                                           (16, 40, 23, "g_skinny_smem"), (17, 40, 24, "g_rows16"),
                                           (1, 2048, 2048, "g_gemv_shifted1"), (1, 2048, 2040, "g_skinny_smem"),
                                           (2, 2048, 2048, "g_skinny_smem"), (1300, 40, 1664, "g_rows16_mma256"),
                                           (1300, 40, 1536, "g_rows16"), (1300, 13, 1663, "g_mma256")])
def test_dispatch_as_on_the_gpu(tmp_path, m, k, n, variant):
    """A graph with symbolic sizes runs the variant its emitted dispatch would choose for the
    sizes of the call (`hdsc run` names it): mma.sync for M <= 16 (matmul_skinny, four stages
    deep where the device has its 124928 bytes of shared memory a block: `_smem`, the emulator's
    an H100's), 16-byte rows (rows16), zero-padded copies otherwise (any); both sides of M = 16
    and of N % 8. One row
    of a against a weight of 2^22 elements or more (from K = 2048) on the SIMT cores by
    matmul_gemv_shifted, as where b's rows are not 16-byte multiples (on sm_90a the swapped
    product takes it first); a smaller weight, or two rows, matmul_skinny. Past 132 tiles of 128 x 128
    (143 at 1300 x 1664; 132 at 1536), 128 x 256 tiles whose warps stage c 16 rows at a time:
    partial row and column tiles, and on zero-padded copies."""
    text = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert f"return {variant}_run(" in emulator.emit(src)
    a, b = halves(m, k), halves(k, n)
    out, ran = emulator.run_graph_variant(text, "g", {"a": a, "b": b}, imports=("nn.hds",))
    assert ran == variant
    assert rel(out, a.astype(np.float64) @ b) < 2e-3


@pytest.mark.parametrize("m,k,n,variant", [
    (17, 1024, 24, "g_mma_split"), (17, 1016, 24, "g_rows16"),      # K >= 1024: 1 tile, K split in 8
    (33, 1032, 1000, "g_mma_split"),     # 33 slices of 32 over 8 blocks of 5: the last one has none
    (128, 1024, 24, "g_mma_split"), (129, 1024, 24, "g_rows16"),    # up to 66 tiles while K >= 8 M
    (17, 1024, 8456, "g_mma_split"),     # 67 tiles (up to 132 while K >= 16 M): K split in three
    (77, 1024, 1001, "g_any")])          # N odd: the zero-padded copies
def test_matmul_mma_split(tmp_path, m, k, n, variant):
    """matmul_mma_split.hds (sm_80; on sm_90a wgmma takes these shapes): from K = 1024 where 128 x
    128 tiles number at most 66 and K >= 8 M, or at most 132 and K >= 16 M, each tile's K is split
    over blocks (8 a tile up to 16 columns of tiles, 3 at 67) whose f32 parts matmul_parts_combine
    adds, with the bias and relu fused into that second kernel; both sides of each bound and of
    N % 8, partial tiles and a share past the end of K; under racecheck. (The bounds past 66 tiles,
    where a run costs 0.5-0.9 billion multiply-adds: test_matmul_mma_split_bounds.)"""
    emulator.skip_large_under_sanitizers(m * k * n)
    text = ("graph g(a: f16[M, K], b: f16[K, N], c: f16[N]) -> f16[M, N] "
            "{ return relu(matmul(a, b) + c); }\n")
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\nimport "elementwise.hds";\n' + text)
    cu = emulator.emit(src)
    assert f"return {variant}_run(" in cu
    assert "float* __restrict__ matmul_part" in cu  # the parts, which the combine kernel reads
    a, b, c = halves(m, k), halves(k, n), halves(n)
    out, ran = emulator.run_graph_variant(text, "g", {"a": a, "b": b, "c": c}, imports=("nn.hds", "elementwise.hds"))
    assert ran == variant
    assert rel(out, np.maximum(a.astype(np.float64) @ b + c, 0)) < 2e-3


@pytest.mark.parametrize("m,k,n,variant", [
    (64, 1024, 8456, "g_mma_split"), (65, 1032, 8456, "g_rows16"),  # 67 tiles: K >= 16 M / K < 16 M
    (17, 1024, 16904, "g_rows16_mma256")])  # 133 tiles: not split (128 x 256 tiles)
def test_matmul_mma_split_bounds(tmp_path, m, k, n, variant):
    """The bounds of matmul_mma_split past 66 tiles, where running a side costs 0.5-0.9 billion
    multiply-adds (about a minute each on the emulator): the variant the manifest's conditions
    choose, the same conditions as the emitted `if`s. The variants' numerics: the split at 67 tiles
    above (17 x 1024 x 8456), 128 x 128 tiles and 128 x 256 tiles in test_dispatch_as_on_the_gpu."""
    from hds._manifest import Graph
    src = tmp_path / "g.hds"
    src.write_text('import "nn.hds";\nimport "elementwise.hds";\n'
                   "graph g(a: f16[M, K], b: f16[K, N], c: f16[N]) -> f16[M, N] { return relu(matmul(a, b) + c); }\n")
    graph = Graph.parse(emulator.manifest_graph(src))
    assert graph.variant_for({"M": m, "K": k, "N": n}, shared_memory=232448, sm90a=False) == variant


@pytest.mark.parametrize("shared_memory,variant", [(232448, "g_skinny_smem"), (101376, "g_skinny")])
@pytest.mark.parametrize("m,k,n", [(16, 517, 23), (3, 600, 5), (4, 520, 1), (16, 513, 9), (7, 777, 71),
                                   (5, 300, 130), (16, 255, 17), (16, 5, 40), (3, 3, 9)])
def test_skinny_rows_of_any_alignment(m, k, n, shared_memory, variant):
    """matmul_skinny where K or N is not a multiple of 8 (element-wise staging, clamped reads):
    rows shorter than a 16-byte chunk (K = 3, 5; N < 8), partial strips (N = 71, 130), several
    256-row slices; under racecheck; four stages deep on an H100, three on a GPU of 99 KiB of
    shared memory a block. a's last row is infinite: the reads clamped past the other
    rows' ends must count as zeros, not as its values (nor as the next row's, which a chunked copy
    of the rows would hold: bench/results/2026-11-28-h200-skinny-unaligned)."""
    a, b = halves(m, k), halves(k, n)
    a[-1] = np.inf
    text = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"
    out, ran = emulator.run_graph_variant(text, "g", {"a": a, "b": b}, imports=("nn.hds",),
                                          shared_memory=shared_memory)
    assert ran == variant
    assert rel(out[:-1], a[:-1].astype(np.float64) @ b) < 2e-3


@pytest.mark.parametrize("c,r,s,stride,pad", [(3, 7, 7, 2, 3), (4, 3, 8, 1, 1), (5, 7, 7, 2, 3), (2, 5, 5, 1, 0)])
def test_conv2d_mma_few_channels(c, r, s, stride, pad):
    """conv2d_mma.hds where C * S <= 32 (an image's first layer: C = 3, 7 x 7): a slice per filter
    row r holding the (channel, column) pairs; C * S = 32 the last such, 35 the usual slices."""
    h, wd, o = 19, 23, 20
    p, q = (h + 2 * pad - r) // stride + 1, (wd + 2 * pad - s) // stride + 1
    text = (f"graph g(x: f16[N, {c}, {h}, {wd}], w: f16[{o}, {c}, {r}, {s}]) -> f16[N, {o}, {p}, {q}] "
            f"{{ return conv2d(x, w, stride={stride}, pad={pad}); }}\n")
    x, w = halves(2, c, h, wd), halves(o, c, r, s) * np.float16(0.2)
    out = emulator.run_graph(text, "g", {"x": x, "w": w}, imports=("nn.hds",), racecheck=True)
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ref = np.zeros((2, o, p, q))
    for i in range(r):
        for j in range(s):
            ref += np.einsum("nchw,oc->nohw", xp[:, :, i:i + stride * (p - 1) + 1:stride, j:j + stride * (q - 1) + 1:stride],
                             w[:, :, i, j].astype(np.float64))
    assert rel(out, ref) < 2e-3
