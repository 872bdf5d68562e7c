"""Graphs on the emulator with `--arch=sm_90a` take the sm_90a schedules and dispatch, as the
GPU does (codegen/cpu/compile_hopper.cpp emulates TMA, mbarriers, wgmma and clusters): each
variant of a symbolic matmul's dispatch on both sides of its guards, wgmma attention, rows
split over clusters, against float64 numpy with racecheck; `hdsc run` names the variant."""
import re

import numpy as np
import pytest

import emulator
from emulator import skip_large_under_sanitizers

rng = np.random.default_rng(31)
SM90 = "sm_90a"


def rel(out, ref):
    ref = np.asarray(ref, np.float64)
    return np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)


def halves(*shape):
    return rng.standard_normal(shape).astype(np.float16)


def run_variant(tmp_path, text: str, inputs: dict, arch: str = SM90) -> tuple[np.ndarray, str]:
    """Runs graph g of `text` (written to tmp_path / "g.hds") for `arch` under racecheck: its output
    and the variant `hdsc run` says ran."""
    return emulator.run_graph_variant(text, "g", inputs, arch=arch, keep_in=tmp_path)


MATMUL = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"


@pytest.mark.parametrize("m,k,n,variant", [
    (3, 64, 10240, "g_rows16_skinny_wide"), (16, 40, 136, "g_rows16_skinny"),
    (17, 40, 136, "g_rows16_wgmma_split"), (64, 1024, 128, "g_rows16_wgmma_split"),
    (65, 40, 136, "g_rows16_wgmma64x128"), (256, 24, 64, "g_rows16_wgmma64x128"),
    (100, 4096, 136, "g_rows16_wgmma_split"), (100, 4088, 136, "g_rows16_wgmma64x128"),
    (257, 24, 72, "g_rows16_wgmma64x128"), (300, 16, 4224, "g_rows16_wgmma128"),
    (300, 16, 4352, "g_rows16_wgmma128"), (513, 16, 24, "g_rows16_wgmma64x128"),
    (1300, 16, 1152, "g_rows16_wgmma128"), (1000, 16, 1024, "g_rows16_wgmma64x128"),
    (1000, 16, 1152, "g_rows16_wgmma128"), (4100, 16, 128, "g_rows16_wgmma64x128"), (4100, 16, 1664, "g_rows16"), (1300, 16, 1280, "g_rows16_wgmma128"),
    (1300, 16, 1536, "g_rows16_wgmma128"), (1300, 16, 1664, "g_rows16_wgmma192"),
    (1300, 16, 2304, "g_rows16_wgmma192"), (1300, 16, 2496, "g_rows16"), (385, 16, 5760, "g_rows16_wgmma128x192"),
    (768, 16, 4096, "g_rows16_wgmma192"), (769, 16, 4096, "g_rows16"),
    (4096, 16, 1408, "g_rows16_wgmma192"), (4097, 16, 1408, "g_rows16"),
    (16, 2048, 1024, "g_rows16_skinny_split"), (16, 2040, 1024, "g_rows16_skinny"),
    (2, 13, 21, "g_gemv"), (3, 13, 21, "g_skinny"), (17, 13, 21, "g_wgmma_split"),
    (1, 2049, 21, "g_gemv_split"), (2, 2049, 21, "g_gemv_split"), (1, 2047, 21, "g_gemv"), (3, 2049, 21, "g_gemv_split3"),
    (4, 2049, 21, "g_skinny"), (3, 2047, 21, "g_skinny"), (1, 2048, 8449, "g_gemv_shifted1"), (3, 2048, 8449, "g_skinny_shifted2"),
    (1, 1024, 4097, "g_gemv_shifted1"), (1, 1023, 4097, "g_gemv"), (2, 1024, 4097, "g_gemv_shifted"), (2, 1023, 4097, "g_gemv"),
    (3, 1024, 8193, "g_skinny_shifted"), (3, 1025, 8448, "g_skinny_shifted"), (3, 1023, 8193, "g_skinny"), (1, 1536, 301, "g_gemv_shifted1"),
    (1, 1535, 301, "g_gemv"), (3, 1536, 301, "g_skinny_shifted"), (3, 1535, 301, "g_skinny"),
    (2, 2049, 136, "g_skinny_shifted"), (16, 2049, 137, "g_skinny_shifted"), (16, 2049, 135, "g_skinny"), (2, 2049, 135, "g_gemv_split"),
    (65, 13, 21, "g_wgmma64x128"), (300, 13, 4350, "g_wgmma128"), (600, 13, 21, "g_wgmma64x128"),
    (1300, 13, 2555, "g_any"),
    (5, 4096, 1024, "g_rows16_swap16_deep"), (20, 2048, 2048, "g_rows16_swap32"), (70, 320, 13312, "g_rows16_swap80_wide"),
    (65, 8, 8456, "g_rows16_wgmma64x192"), (129, 8, 6144, "g_rows16_wgmma64x192"), (65, 13, 8450, "g_wgmma64x192"),
])
def test_matmul_dispatch(tmp_path, m, k, n, variant):
    """Every branch of the sm_90a dispatch of a matmul with symbolic sizes (the `if` chain of
    the emitted `g_run`), on both sides of each bound of M, of K split past M = 64 (66 tiles,
    K >= 4096), of the tile chosen by waves of 132 weighted by a tile's time (up to M = 4096;
    past it 64 x 128 only where 128 x 128 tiles number fewer than 100), and of K, N % 8:
    TMA + wgmma
    tiles, K split over a cluster, the skinny and GEMV schedules (from K = 2048 the GEMV split
    over blocks and combined by a second kernel: 8 blocks a strip at N = 21, 3 past 66 strips
    at N = 8449; three rows in one row of blocks of four; from M = 2 and N = 136 the skinny
    product of shifted rows, K split likewise, two blocks a multiprocessor past 66 strips (N = 8448); the shifted kernels below K = 2048 too where b has
    2^22 elements (M <= 2: 1024 x 4097 has, 1023 x 4097 not) or 2^23 (1024 x 8193, 1023 x 8193), and
    from K = 1536 whatever its size), zero-padded copies; decoding
    against a narrow weight with a long K (matmul_skinny_split); the swapped product against a
    weight of 2^22 elements (K split over 8 blocks at 4096 x 1024; two consumers at N = 13312, the
    kernel of two warp groups);
    64 x 192 tiles (one wave of 90 where 64 x 128 ones take two; 129 rows: a third row tile
    from row 65; padded); 192 x 128 tiles (one wave of 128 at M = 768, N = 4096, none at 769).
    (Their other bounds: test_matmul_dispatch_choice.)"""
    skip_large_under_sanitizers(m * k * n)
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    assert f"return {variant}_run(" in emulator.emit(src, arch=SM90)
    a, b = halves(m, k), halves(k, n)
    out, ran = run_variant(tmp_path, MATMUL, {"a": a, "b": b})
    assert ran == variant
    assert rel(out, a.astype(np.float64) @ b) < 2e-3


@pytest.mark.parametrize("arch", ["sm_80", SM90])
def test_matmul_gemv_split_epilogue(tmp_path, arch):
    """The GEMV split over blocks (M <= 3, K >= 2048, rows of b not 16-byte multiples), the
    skinny product of shifted rows (from M = 2 and N = 136) and the GEMV of shifted rows (M <= 2,
    N >= 264) on both targets: the first kernel writes each block's sums to a workspace tensor,
    the second adds them, and the bias and relu fuse into that second kernel's store (shared by
    the variants of one strip width)."""
    text = ("graph g(a: f16[M, K], b: f16[K, N], c: f16[N]) -> f16[M, N] "
            "{ return relu(matmul(a, b) + c); }\n")
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\nimport "elementwise.hds";\n' + text)
    cu = emulator.emit(src, arch=arch)
    # one second kernel for strips of 128 columns, which three variants (GEMV blocks of 2 and of 4
    # rows, the skinny product) launch, one for the skinny product at two blocks a multiprocessor
    # (past 66 strips: its parts sized for 264 blocks), and one for matmul_gemv_shifted's strips of
    # 248 (blocks of one row and of two). On sm_80 seven: mma.sync with K split over blocks too, and
    # both skinny products of shifted rows are cases of the device's shared memory
    # (test_shared_memory_dispatch.py; the emulator's is an H100's), where each fails the GEMV blocks
    # again (M <= 3) and the first the skinny product too; the kernel takes the name of the first of
    # those cases.
    shifted = "g_skinny_shifted_smem" if arch == "sm_80" else "g_skinny_shifted"
    first = "g_skinny_shifted2_skinny_shifted_gemv_split3" if arch == "sm_80" else "g_skinny_shifted"
    for combine, launches in ((f"{first}_k1_matmul_add_relu", 7 if arch == "sm_80" else 3),
                              (f"g_skinny_shifted2{'_smem' if arch == 'sm_80' else ''}_k1_matmul_add_relu", 1),
                              ("g_gemv_shifted1_k1_matmul_add_relu", 2)):
        assert f"__global__ void __launch_bounds__(256) {combine}(" in cu, cu
        assert cu.count(f"{combine}<<<") + cu.count(f"launch_after_previous({combine},") == launches, cu
    for m, n, variant in ((2, 37, "g_gemv_split"), (3, 37, "g_gemv_split3"), (5, 139, shifted),
                          (1, 301, "g_gemv_shifted1"), (2, 301, "g_gemv_shifted")):
        a, b, c = halves(m, 2055), halves(2055, n), halves(n)
        out, ran = run_variant(tmp_path, text, {"a": a, "b": b, "c": c}, arch)
        assert ran == variant
        assert rel(out, np.maximum(a.astype(np.float64) @ b + c, 0)) < 2e-3


@pytest.mark.parametrize("arch", ["sm_80", SM90])
@pytest.mark.parametrize("m,k,n,col", [(1, 2049, 300, 0), (1, 2049, 300, -1), (1, 2311, 1001, -1), (1, 4095, 997, 0),
                                       (1, 2055, 264, -1), (2, 2049, 300, -1), (2, 2311, 1001, 0), (2, 2055, 264, 0)])
def test_matmul_gemv_shifted(tmp_path, arch, m, k, n, col):
    """matmul_gemv_shifted (one row of a a block at M = 1, two at M = 2; b's rows not 16-byte
    multiples, N >= 264, K >= 2048): a lane's chunks that start in the row before or run into the
    row after, the tensor's last chunk read value by value, K split over blocks. An infinite first
    or last column of b, which chunks running past the rows' ends hold, must land in columns no
    lane stores (c's other columns finite). The sanitizer pass runs the cases up to 1.1 million
    multiply-adds (N = 264 and 300)."""
    skip_large_under_sanitizers(m * k * n, limit=1_100_000)
    text = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"
    a, b = halves(m, k), halves(k, n)
    b[:, col] = np.inf
    out, ran = run_variant(tmp_path, text, {"a": a, "b": b}, arch)
    assert ran == ("g_gemv_shifted1" if m == 1 else "g_gemv_shifted")
    keep = [j for j in range(n) if j != col % n]
    assert rel(out[:, keep], a.astype(np.float64) @ b[:, keep]) < 2e-3


@pytest.mark.parametrize("arch", ["sm_80", SM90])
@pytest.mark.parametrize("m,k,n", [(16, 2049, 137), (2, 2055, 263), (7, 2048, 1001), (16, 2311, 139), (3, 4095, 263)])
def test_matmul_skinny_shifted(tmp_path, arch, m, k, n):
    """matmul_skinny_shifted, where b's rows (or a's) start anywhere in their 16-byte chunks: K odd,
    N odd, or both; partial strips of 128 columns; K split over up to 8 blocks a strip, of which
    some get no slice (2049 rows are 17 slices of 128: shares of 3, the last two empty); the first
    slice's chunks that start in the row before, the last ones past the end of a row and of the
    tensor. a's last row and b's first column are infinite: a chunk of a past a row's end must not
    be read (it would meet b's zero rows: NaN), and b's first column, which chunks running past
    the rows' ends hold, must land in columns no warp stores (only c's first column and last row
    may be infinite)."""
    skip_large_under_sanitizers(m * k * n)
    text = "graph g(a: f16[M, K], b: f16[K, N]) -> f16[M, N] { return matmul(a, b); }\n"
    a, b = halves(m, k), halves(k, n)
    a[-1] = np.inf
    b[:, 0] = np.inf
    out, ran = run_variant(tmp_path, text, {"a": a, "b": b}, arch)
    assert ran == ("g_skinny_shifted_smem" if arch == "sm_80" else "g_skinny_shifted")  # (an H100's shared memory)
    assert rel(out[:-1, 1:], a[:-1].astype(np.float64) @ b[:, 1:]) < 2e-3


@pytest.mark.parametrize("m,k,n,variant", [
    (100, 4096, 4224, "g_rows16_swap112"), (100, 4096, 4352, "g_rows16_wgmma64x128"),
    (1, 4096, 4096, "g_rows16_swap16_deep"), (16, 4096, 4096, "g_rows16_swap16_deep"), (16, 4104, 4096, "g_rows16_swap16_one"), (16, 4104, 4224, "g_rows16_swap16_one"),
    (2, 4096, 4288, "g_rows16_swap16_one"), (16, 4104, 8448, "g_rows16_swap16_one"), (16, 4104, 8456, "g_rows16_swap16"),
    (24, 4096, 4232, "g_rows16_swap32_one"), (32, 4096, 8448, "g_rows16_swap32_one"), (33, 4096, 4232, "g_rows16_swap48_one"),
    (48, 4096, 8448, "g_rows16_swap48_one"), (48, 4096, 8456, "g_rows16_swap48"), (24, 4096, 4224, "g_rows16_swap32"),
    (65, 4096, 4288, "g_rows16_swap80_one"), (80, 4096, 8448, "g_rows16_swap80_one"), (81, 4096, 6144, "g_rows16_wgmma64x128"), (17, 4096, 4096, "g_rows16_swap32"),
    (32, 4096, 4096, "g_rows16_swap32"), (33, 4096, 4096, "g_rows16_swap48"), (48, 4096, 4096, "g_rows16_swap48"),
    (49, 4096, 4096, "g_rows16_wgmma_split"), (64, 4096, 4096, "g_rows16_wgmma_split"),
    (65, 4096, 4096, "g_rows16_swap80"), (80, 4096, 4096, "g_rows16_swap80"), (81, 4096, 4096, "g_rows16_swap96"),
    (96, 4096, 4096, "g_rows16_swap96"), (97, 4096, 4096, "g_rows16_swap112"),
    (112, 11008, 4096, "g_rows16_swap112"), (113, 4096, 4096, "g_rows16_swap128"),
    (128, 11008, 4096, "g_rows16_swap128"), (129, 4096, 4096, "g_rows16_swap144"),
    (144, 4096, 4096, "g_rows16_swap144"), (145, 4096, 4096, "g_rows16_swap160"), (160, 4096, 2560, "g_rows16_swap160"),
    (160, 4096, 2496, "g_rows16_wgmma_split"), (161, 8192, 4096, "g_rows16_swap176"), (176, 8192, 4096, "g_rows16_swap176"),
    (177, 4096, 4224, "g_rows16_swap192"), (192, 4096, 4096, "g_rows16_swap192"), (192, 4096, 4232, "g_rows16_wgmma64x128"),
    (193, 4096, 4096, "g_rows16_wgmma64x128"),
    (128, 4096, 2496, "g_rows16_wgmma_split"), (128, 4096, 2504, "g_rows16_swap128"),
    (100, 1024, 4096, "g_rows16_swap112"), (100, 1016, 4096, "g_rows16_wgmma64x128"),
    (1, 14336, 4096, "g_rows16_swap16_one"), (16, 4096, 1024, "g_rows16_swap16_deep"),
    (16, 4096, 1016, "g_rows16_skinny_split"), (16, 2048, 1032, "g_rows16_skinny"),
    (32, 2048, 2048, "g_rows16_swap32"), (32, 2048, 2040, "g_rows16_wgmma_split"),
    (77, 4096, 4104, "g_rows16_swap80"), (16, 4095, 4096, "g_skinny_shifted"), (77, 4096, 4097, "g_wgmma_split"),
    (1, 4095, 4097, "g_gemv_shifted1"), (1, 4095, 263, "g_gemv_split"), (2, 4095, 4097, "g_gemv_shifted"), (3, 4095, 4097, "g_skinny_shifted"),
    (1, 2049, 264, "g_gemv_shifted1"), (2, 2049, 264, "g_gemv_shifted"), (2, 2049, 263, "g_skinny_shifted"), (16, 1535, 4097, "g_skinny"), (16, 1536, 4097, "g_skinny_shifted"),
    (2, 4095, 8449, "g_gemv_shifted"), (16, 255, 33792, "g_skinny_shifted2"), (16, 256, 33793, "g_skinny_shifted"), (3, 1600, 50257, "g_skinny_shifted"),
    (77, 4096, 4232, "g_rows16_swap80_one"), (96, 4096, 8448, "g_rows16_wgmma64x128"),
    (96, 4096, 8456, "g_rows16_wgmma64x192"), (64, 4096, 11008, "g_rows16_wgmma_split"),
    (65, 4096, 11008, "g_rows16_wgmma64x192"), (128, 4096, 11008, "g_rows16_wgmma64x192"),
    (128, 4096, 12672, "g_rows16_wgmma64x192"), (128, 4096, 12680, "g_rows16_wgmma128"),
    (77, 4096, 13312, "g_rows16_swap80_wide"), (96, 4096, 13312, "g_rows16_swap96_wide"), (192, 4096, 8192, "g_rows16_wgmma64x192"),
    (193, 4096, 8192, "g_rows16_wgmma128"), (128, 4095, 11007, "g_wgmma64x192"),
    (129, 4096, 5640, "g_rows16_swap144_one"), (129, 4096, 5632, "g_rows16_wgmma64x128"), (144, 4096, 8448, "g_rows16_swap144_one"),
    (145, 4096, 6144, "g_rows16_swap160_one"), (160, 11008, 7168, "g_rows16_swap160_one"), (160, 4096, 8456, "g_rows16_wgmma64x128"),
    (176, 4096, 6144, "g_rows16_swap176_one"), (177, 4096, 6144, "g_rows16_wgmma64x192"), (128, 4096, 6144, "g_rows16_wgmma64x128")])
def test_matmul_dispatch_choice(tmp_path, m, k, n, variant):
    """Both sides of the split's 66 tiles, of the deep ring's K <= 4096 and 66 tiles of 64 columns
    (16 rows; past K = 4096, and from 67 tiles, one consumer with 8 stages up to 132 tiles; 17-48
    rows the same from 67 tiles, 65-80 rows too), of each bound of M of the swapped product (16, 32,
    48, 64, 80, 96, 112, 128, 144, 160, 176, 192 rows), of its weight of 2^22 elements, of 40 to 66 tiles past 96 rows
    and 89 to 132 past 128 (one consumer, not split, up to 176 rows), of the skinny product of
    shifted rows' 264 strips for two blocks a multiprocessor (N = 33792), and of its band of N where 64 x 128 tiles
    make one wave of more than 66, of the 64 x 192 tiles' wave (64, 128, 192 rows; 88 to 132
    tiles), and of K, N % 8, where running them
    costs a billion multiply-adds (minutes under the sanitizers): the variant the manifest's
    conditions choose (the same conditions as the emitted `if`s). The split variant's numerics
    past M = 64 are checked above at 100 x 4096 x 136, the swapped product's above and in
    test_hopper.py."""
    from hds._manifest import Graph
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    graph = Graph.parse(emulator.manifest_graph(src, arch=SM90))
    assert graph.variant_for({"M": m, "K": k, "N": n}) == variant


def test_every_matmul_schedule_is_emitted(tmp_path):
    """Every f16/bf16 schedule of nn.hds's `matmul` gets a variant in a graph with every size
    symbolic (sm_90a): the graph builder keeps a case only where one of its sample sizes lets its
    conditions hold (graph/decisions.h), so a schedule whose `when` holds only between two samples
    would be dropped without a word (161-176 and 177-192 rows were, before 176 and 192 were
    samples). Not checked: `mma`, `mma_split` and `mma256` (sm_80's: test_graph_tensor_cores.py),
    `skinny3` (sm_80's where a block cannot have skinny's shared memory:
    test_shared_memory_dispatch.py) and `wgmma` (the last choice for 16-byte rows, the variant named
    `g_rows16`)."""
    text = (emulator.ROOT / "stdlib" / "nn.hds").read_text()
    body = text[text.index("op matmul<T>"):]
    body = body[:body.index("\n}\n")]
    names = re.findall(r"schedule (\w+) = [^;]*?for f16, bf16", body)
    assert "swap192" in names and "wgmma_split" in names, names
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + MATMUL)
    variants = [v["name"] for v in emulator.manifest_graph(src, arch=SM90)["variants"]]
    missing = [n for n in names if n not in ("mma", "mma_split", "mma256", "skinny3", "wgmma") and not any(v.endswith("_" + n) for v in variants)]
    assert not missing, (missing, variants)


def conv_ref(x, w, stride, pad):
    n, c, h, wd = x.shape
    o, r_, s_ = w.shape[0], w.shape[2], w.shape[3]
    p, q = (h + 2 * pad - r_) // stride + 1, (wd + 2 * pad - s_) // stride + 1
    xp = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    ref = np.zeros((n, o, p, q))
    for r in range(r_):
        for s in range(s_):
            ref += np.einsum("nchw,oc->nohw", xp[:, :, r:r + stride * (p - 1) + 1:stride, s:s + stride * (q - 1) + 1:stride],
                             w[:, :, r, s].astype(np.float64))
    return ref


@pytest.mark.parametrize("n,c,h,wd,o,stride,schedule,split", [
    (1, 256, 7, 7, 64, 1, "mma3x3_split16", 8),   # 16 channel slices, one tile: 8 blocks
    (2, 64, 9, 11, 72, 2, "mma3x3_split16", 4),   # stride 2, 72 channels (a partial group of 64)
    (1, 72, 20, 20, 32, 1, "mma3x3_split", 4),    # W > 16: tiles of 4 x 32 pixels; 5 slices in 4 blocks
    (1, 60, 7, 7, 16, 1, "mma3x3_split16", 4),    # C not a multiple of 8: the weights value by value
    (1, 64, 28, 27, 64, 2, "mma3x3_split16", 4),  # stride 2 to 14 x 14: the output's width decides
    (1, 64, 34, 34, 64, 2, "mma3x3_split", 4),    # stride 2 to 17 x 17: 4 x 32
    # clusters of 8 for up to 15 tiles (all resident at once), of 4 from 16; one slice a block
    (15, 128, 4, 4, 8, 1, "mma3x3_split16", 8), (16, 128, 4, 4, 8, 1, "mma3x3_split16", 4),
])
def test_conv2d_split(tmp_path, n, c, h, wd, o, stride, schedule, split):
    """conv2d_mma3x3 on small images with many channels (sm_90a): tiles of 8 x 16 pixels where
    the output is at most 16 wide, and the channel slices of each tile split over a cluster of
    `split` blocks (chosen per call: the most whose clusters are all resident at once, down to
    one slice a block) that add their sums through distributed shared memory,
    against float64 numpy with racecheck."""
    skip_large_under_sanitizers(n * c * h * wd * o * 9 // stride // stride)
    text = (f"graph g(x: f16[{n}, {c}, {h}, {wd}], w: f16[{o}, {c}, 3, 3]) -> "
            f"f16[{n}, {o}, {(h - 1) // stride + 1}, {(wd - 1) // stride + 1}] "
            f"{{ return conv2d(x, w, stride={stride}, pad=1); }}\n")
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + text)
    cu = emulator.emit(src, arch=SM90)
    tw = 16 if schedule == "mma3x3_split16" else 32  # the schedule's tile width, and its split code
    assert f"const int q0 = tile % tiles % tiles_q * {tw};" in cu and "hds::cluster_load(&sums" in cu
    q = (wd - 1) // stride + 1  # the output's width picks the tile
    groups = n * ((h - 1) // stride // (8 if q <= 16 else 4) + 1) * ((q - 1) // (16 if q <= 16 else 32) + 1) * ((o + 63) // 64)
    slices = (c + 15) // 16
    fit = {8: 15, 4: 30, 2: 66}  # clusters of each size resident at once on an H100
    assert split == next(s for s in (8, 4, 2, 1) if s == 1 or (groups <= fit[s] and slices >= s))
    x, w = halves(n, c, h, wd), halves(o, c, 3, 3) * np.float16(1 / np.sqrt(9 * c))
    out, _ = run_variant(tmp_path, text, {"x": x, "w": w})
    assert rel(out, conv_ref(x, w, stride, 1)) < 2e-3


@pytest.mark.parametrize("n,c,h,wd,o,stride,tw", [
    (3, 24, 7, 7, 70, 1, 8),    # two images a tile; the second tile's second past N
    (2, 24, 8, 8, 64, 1, 8),    # 8 x 8: the tile's images fill it
    (2, 40, 14, 13, 64, 2, 8),  # stride 2 to 7 x 7, C not a multiple of 16
    (1, 24, 7, 7, 70, 1, 16),   # one image: 8 x 16 tiles
    (2, 16, 9, 9, 64, 1, 16),   # 9 x 9: past 8
    (2, 16, 28, 27, 64, 2, 16),  # stride 2 to 14 x 14: the output's width decides
    (2, 16, 34, 34, 64, 2, 32),  # stride 2 to 17 x 17: tiles of 4 x 32
])
def test_conv2d_small_maps(tmp_path, n, c, h, wd, o, stride, tw):
    """conv2d_mma3x3's tiles by the size of the output map, decided per call for a symbolic batch
    (sm_80: no split): two images' 8 x 8 pixels a tile (IMG = 2) for maps of at most 8 x 8 past
    one image, 8 x 16 for at most 16 columns of output, 4 x 32 past that; against float64 with
    racecheck on both sides of each boundary."""
    p, q = (h - 1) // stride + 1, (wd - 1) // stride + 1
    text = (f"graph g(x: f16[N, {c}, {h}, {wd}], w: f16[{o}, {c}, 3, 3]) -> f16[N, {o}, {p}, {q}] "
            f"{{ return conv2d(x, w, stride={stride}, pad=1); }}\n")
    x, w = halves(n, c, h, wd), halves(o, c, 3, 3) * np.float16(1 / np.sqrt(9 * c))
    out, ran = run_variant(tmp_path, text, {"x": x, "w": w}, arch="sm_80")
    # Maps of at most 8 x 8 take two variants: per call, by N (the other, `g_any`, 8 x 16 tiles).
    # Stride 2's halo tiles take 112-115 KB, past the 99 KiB of some sm_80+ GPUs: the device is a
    # case too (`_smem`: test_shared_memory_dispatch.py), an H100's here.
    ran_for = "g_mma3x3_img2" if tw == 8 else "g_any" if p <= 8 and q <= 8 else ""
    if stride == 2:
        ran_for = ran_for + "_smem" if ran_for else "g_smem"
    assert ran == ran_for
    assert f"const int q0 = tile % tiles % tiles_q * {tw};" in emulator.emit(tmp_path / "g.hds", arch="sm_80")
    assert rel(out, conv_ref(x, w, stride, 1)) < 2e-3


@pytest.mark.parametrize("n,c,h,wd,o,stride,variant,split", [
    (1, 256, 14, 14, 512, 2, "g_mma_split", 8),  # ResNet-18's last downsample at batch 1: one tile, 8 slices
    (3, 256, 14, 14, 512, 2, "g_mma_split", 1),  # 2 tiles x 8 channel groups: past 15, no split
    (1, 250, 9, 9, 70, 1, "g_mma_split", 8),     # 8 slices (the last of 26 channels), one a block; 70 channels
    (1, 256, 8, 8, 64, 1, "g_mma_split", 8),     # pointwise (8-pixel copies)
    (1, 224, 8, 8, 64, 1, "g_mma_split", 1),     # 7 slices: no split
    (2, 64, 56, 56, 128, 2, "g_any", 1),         # N * H * W * O past 540672: conv2d_mma without clusters
])
def test_conv2d_1x1_split(tmp_path, n, c, h, wd, o, stride, variant, split):
    """conv2d_mma with SPLIT for 1 x 1 filters on small images (sm_90a, `mma_split` where
    N * H * W * O <= 540672, decided per call for a symbolic batch): where up to 15 tiles have
    8 channel slices or more, each tile's slices split over a cluster of 8 blocks that add their
    sums through distributed shared memory; numerics against float64 with racecheck on both
    sides of each boundary."""
    p, q = (h - 1) // stride + 1, (wd - 1) // stride + 1
    text = (f"graph g(x: f16[N, {c}, {h}, {wd}], w: f16[{o}, {c}, 1, 1]) -> f16[N, {o}, {p}, {q}] "
            f"{{ return conv2d(x, w, stride={stride}); }}\n")
    groups = -(-n * p * q // 128) * -(-o // 64)
    slices = -(-c // 32)
    assert split == (8 if variant == "g_mma_split" and groups <= 15 and slices >= 8 else 1)
    x, w = halves(n, c, h, wd), halves(o, c, 1, 1) * np.float16(1 / np.sqrt(c))
    out, ran = run_variant(tmp_path, text, {"x": x, "w": w})
    assert ran == variant
    assert rel(out, conv_ref(x, w, stride, 0)) < 2e-3


@pytest.mark.parametrize("d,heads,groups,lq,lk,causal,variant", [
    (64, 4, 2, 37, 70, 1, "g_flash_wgmma_few"), (128, 2, 1, 130, 129, 0, "g_any"),
    # heads of 64: blocks of 192 query rows from 264 of them (two waves), else 128; causal up to
    # 2048 keys 128 (persistent, two items a block from 133 of them); persistent up to 4096 keys
    (64, 263, 1, 17, 19, 0, "g_flash_wgmma_few"), (64, 264, 1, 17, 19, 0, "g_flash_wgmma_short"),
    (64, 264, 1, 17, 19, 1, "g_flash_wgmma_few"), (128, 140, 140, 17, 30, 1, "g_any"),
    (64, 2, 2, 400, 150, 0, "g_flash_wgmma_few"), (64, 1, 1, 1, 1, 0, "g_decode_deep"),
    (64, 8, 1, 1, 700, 0, "g_decode_deep"), (128, 8, 2, 3, 333, 1, "g_decode128"),
    (64, 16, 1, 1, 2000, 0, "g_decode_deep"), (64, 17, 17, 1, 100, 0, "g_decode"),
    # heads of 64 decode three tiles deep over 8 clusters or fewer, or 33 to 132 (small ones)
    (64, 16, 8, 2, 600, 1, "g_decode_deep"), (64, 9, 9, 1, 300, 0, "g_decode"),
    (64, 32, 32, 1, 300, 0, "g_decode"), (64, 33, 33, 1, 300, 1, "g_decode_deep"),
    (64, 132, 132, 1, 40, 0, "g_decode_deep"), (64, 133, 133, 1, 40, 0, "g_decode"),
    # heads of 128 over 16 to 32 clusters: clusters of at most 4 (from 25, three tiles deep)
    (128, 30, 15, 1, 1100, 1, "g_decode128"), (128, 32, 16, 1, 1100, 0, "g_decode128_wide"),
    (128, 24, 24, 1, 300, 1, "g_decode128_wide"), (128, 25, 25, 1, 300, 0, "g_decode128_wide_deep"),
    (128, 32, 32, 1, 300, 0, "g_decode128_wide_deep"), (128, 33, 33, 1, 40, 0, "g_decode128"),
    # up to 32 key/value heads over more than 4096 keys: split over blocks, combined by a second kernel
    (64, 8, 1, 1, 4097, 0, "g_decode_split"), (64, 8, 1, 1, 4096, 0, "g_decode_deep"),
    (128, 8, 2, 3, 4200, 1, "g_decode128_split"), (64, 32, 32, 1, 4097, 0, "g_decode_split"),
    (64, 33, 33, 1, 4097, 0, "g_decode_deep"),
    # from 25 of them past 1024 keys; heads of 128 from 16 past 2048
    (64, 25, 25, 1, 1025, 0, "g_decode_split"), (64, 25, 25, 1, 1024, 0, "g_decode"),
    (64, 24, 24, 1, 1025, 0, "g_decode"), (128, 16, 16, 1, 2049, 1, "g_decode128_split"),
    (128, 16, 16, 1, 2048, 0, "g_decode128_wide"), (128, 15, 15, 1, 2049, 0, "g_decode128")])
def test_attention_wgmma(tmp_path, d, heads, groups, lq, lk, causal, variant):
    """The attention op on its sm_90a schedules: prefill (attention_wgmma.hds: blocks of 192
    query rows on three consumers, or of 128 on two where there are few) with grouped heads,
    the causal diagonal, partial query blocks and key tiles, one key; decoding (at most 16
    query rows per key head: attention_decode.hds, keys split over a cluster; over more than 4096
    keys and up to 32 key/value heads (from 25 past 1024 keys, heads of 128 from 16 past 2048)
    attention_decode_split.hds, over blocks that write their
    parts to the workspace, which a second kernel adds)."""
    skip_large_under_sanitizers(heads * max(lq, 64) * lk * d)
    text = (f"graph g(q: f16[B, H, L, {d}], k: f16[B, G, M, {d}], v: f16[B, G, M, {d}]) -> f16[B, H, L, {d}] "
            f"{{ return attention(q, k, v, scale=0.1, causal={causal}); }}\n")
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert "attention_wgmma.hds" in emulator.emit(src, arch=SM90)
    q, k, v = halves(1, heads, lq, d), halves(1, groups, lk, d), halves(1, groups, lk, d)
    out, ran = run_variant(tmp_path, text, {"q": q, "k": k, "v": v})
    assert ran == variant
    kk, vv = (np.repeat(t.astype(np.float64), heads // groups, axis=1) for t in (k, v))
    s = q.astype(np.float64) @ kk.transpose(0, 1, 3, 2) * 0.1
    if causal:
        s = np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -np.inf, s)
    e = np.exp(s - s.max(-1, keepdims=True))
    assert rel(out, e / e.sum(-1, keepdims=True) @ vv) < 2e-3


HEADS_OF = """graph g(x: f16[B, T, 128], w: f16[128, {width}]) -> f16[B, T, 128] {{
    let qkv = reshape(matmul(reshape(x, shape=[B * T, 128]), w), shape=[B, T, {width}]);
    let q = permute(reshape(slice(qkv, axis=2, start={s0}, end={s1}), shape=[B, T, 2, 64]), dims=[0, 2, 1, 3]);
    let k = permute(reshape(slice(qkv, axis=2, start={s1}, end={s2}), shape=[B, T, 2, 64]), dims=[0, 2, 1, 3]);
    let v = permute(reshape(slice(qkv, axis=2, start={s2}, end={width}), shape=[B, T, 2, 64]), dims=[0, 2, 1, 3]);
    return reshape(permute(attention(q, k, v, scale=0.125, causal=1), dims=[0, 2, 1, 3]), shape=[B, T, 128]);
}}
"""


@pytest.mark.parametrize("start,views", [(0, True), (4, False)])
@pytest.mark.parametrize("b,t", [(1, 3), (2, 37), (1, 150)])
def test_attention_reads_head_views(tmp_path, start, views, b, t):
    """GPT-2's q, k, v (slices of one projection, split into heads and transposed): where each
    starts a multiple of 16 bytes into the projection's rows they are strided views that the
    attention kernel's TMA copies read in place (the emulator copies them out; no kernel
    does), else they are copied out first; decoding (T = 3) reads them in place either way.
    The attention kernels store their result transposed back to [B, T, heads, 64] themselves."""
    width = start + 384
    text = HEADS_OF.format(width=width, s0=start, s1=start + 128, s2=start + 256)
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + text)
    cu = emulator.emit(src, arch=SM90)
    assert ("no copy; its TMA copies read" in cu) == views
    kernels = re.findall(r"__global__ void __launch_bounds__\([^)]*\) (\w+)\(", cu)
    assert [k for k in kernels if "attention" in k] and all("_attention_permute" in k or "attention" not in k
                                                            for k in kernels), kernels
    assert not views or not [k for k in kernels if re.search(r"_k\d+_(permute|reshape)$", k)], kernels
    x, w = halves(b, t, 128), halves(128, width) * np.float16(1 / np.sqrt(128))
    out, _ = run_variant(tmp_path, text, {"x": x, "w": w})
    qkv = (x.astype(np.float64).reshape(b * t, 128) @ w.astype(np.float64)).reshape(b, t, width)
    q, k, v = (qkv[..., start + 128 * i:start + 128 * (i + 1)].reshape(b, t, 2, 64).transpose(0, 2, 1, 3)
               for i in range(3))
    s = np.where(np.arange(t)[None, :] > np.arange(t)[:, None], -np.inf, q @ k.transpose(0, 1, 3, 2) * 0.125)
    e = np.exp(s - s.max(-1, keepdims=True))
    ref = (e / e.sum(-1, keepdims=True) @ v).transpose(0, 2, 1, 3).reshape(b, t, 128)
    assert rel(out, ref) < 3e-3


@pytest.mark.parametrize("m", [3, 100, 300])
def test_matmul_reads_a_column_slice(tmp_path, m):
    """A product of a column slice of a wider tensor (rows of 200, columns 64..127): the wgmma
    schedules' TMA copies read it in place as a strided view, each dispatch case computes it."""
    text = "graph g(x: f16[M, 200], w: f16[64, 48]) -> f16[M, 48] { return matmul(slice(x, axis=1, start=64, end=128), w); }\n"
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\n' + text)
    assert "// slice: no copy; its TMA copies read x at strides (200, 1) from here" in emulator.emit(src, arch=SM90)
    x, w = halves(m, 200), halves(64, 48) * np.float16(1 / 8)
    out, _ = run_variant(tmp_path, text, {"x": x, "w": w})
    assert rel(out, x.astype(np.float64)[:, 64:128] @ w.astype(np.float64)) < 2e-3


SWIGLU = ("graph g(x: f16[M, K], wg: f16[K, N], wu: f16[K, N], r: f16[M, N]) -> f16[M, N] {\n"
          "    return silu(matmul(x, wg)) * matmul(x, wu) + r;\n}\n")


@pytest.mark.parametrize("m,k,n", [(3, 64, 72), (77, 40, 136), (130, 24, 200)])
def test_epilogue_reads_rows_in_chunks(tmp_path, m, k, n):
    """A matmul's fused epilogue that reads other tensors along the row (SwiGLU's other
    product, a residual) with N symbolic: in the 16-byte stores of the wgmma schedules (rows of
    16-byte multiples, a case of the dispatch) it reads them 16 bytes at a time too, as the
    result's rows start aligned; numerics on each side of M = 16 and 64 (skinny, the K split,
    64 x 128 tiles)."""
    src = tmp_path / "e.hds"
    src.write_text('import "nn.hds";\nimport "elementwise.hds";\n' + SWIGLU)
    cu = emulator.emit(src, arch=SM90)
    # A 16-byte chunk's values computed from elements of r or of the other product read one at a time:
    scalar = re.findall(r"v_\w+\[e\w*\] = .*[^_a-z](?:r|matmul\w*)\[[^]]*\+ e\w*\)\]", cu)
    assert not scalar, scalar[:2]
    assert re.search(r"hds::copy<16>\(&v_r\w*\[0\], &r\[", cu)
    x, wg, wu, r = halves(m, k), halves(k, n) * np.float16(0.2), halves(k, n) * np.float16(0.2), halves(m, n)
    out, _ = run_variant(tmp_path, SWIGLU, {"x": x, "wg": wg, "wu": wu, "r": r})
    g, u = x.astype(np.float64) @ wg, x.astype(np.float64) @ wu
    assert rel(out, g / (1 + np.exp(-g)) * u + r) < 3e-3


@pytest.mark.parametrize("n", [61, 1000, 8200, 20000, 40000, 70000, 140000])
@pytest.mark.parametrize("op", ["softmax", "layer_norm", "rms_norm"])
def test_rows_over_clusters(tmp_path, op, n):
    """Row ops with a symbolic length on sm_90a: a warp, a block, or (rows of 8k to 128k, too
    few to fill the GPU) a cluster of 2 to 8 blocks per row whose partial maxima and sums meet
    in distributed shared memory; longer rows loop in one block."""
    skip_large_under_sanitizers(3 * n, limit=30_000)
    args = {"softmax": "x", "layer_norm": "x, g, b", "rms_norm": "x, g"}[op]
    params = {"softmax": "", "layer_norm": ", g: f32[N], b: f32[N]", "rms_norm": ", g: f32[N]"}[op]
    text = f"graph g(x: f32[R, N]{params}) -> f32[R, N] {{ return {op}({args}); }}\n"
    x = rng.standard_normal((3, n)).astype(np.float32)
    g, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    inputs = {"x": x, "g": g, "b": b} if op == "layer_norm" else {"x": x, "g": g} if op == "rms_norm" else {"x": x}
    out, _ = run_variant(tmp_path, text, inputs)
    x64 = x.astype(np.float64)
    if op == "softmax":
        e = np.exp(x64 - x64.max(-1, keepdims=True))
        ref = e / e.sum(-1, keepdims=True)
    elif op == "layer_norm":
        ref = (x64 - x64.mean(-1, keepdims=True)) / np.sqrt(x64.var(-1, keepdims=True) + 1e-5) * g + b
    else:
        ref = x64 / np.sqrt((x64 * x64).mean(-1, keepdims=True) + 1e-6) * g
    assert rel(out, ref) < 1e-5


LLAMA = """graph g(x: f16[S, 256], g1: f16[256], wq: f16[256, 256], wk: f16[256, 128], wv: f16[256, 128],
                wo: f16[256, 256], g2: f16[256], wg: f16[256, 384], wu: f16[256, 384], wd: f16[384, 256]) -> f16[S, 256] {
    let h = rms_norm(x, g1);
    let q = permute(reshape(matmul(h, wq), shape=[S, 4, 64]), dims=[1, 0, 2]);
    let k = permute(reshape(matmul(h, wk), shape=[S, 2, 64]), dims=[1, 0, 2]);
    let v = permute(reshape(matmul(h, wv), shape=[S, 2, 64]), dims=[1, 0, 2]);
    let a = attention(q, k, v, scale=0.125, causal=1);
    let x1 = x + matmul(reshape(permute(a, dims=[1, 0, 2]), shape=[S, 256]), wo);
    let h2 = rms_norm(x1, g2);
    return x1 + matmul(silu(matmul(h2, wg)) * matmul(h2, wu), wd);
}
"""


@pytest.mark.parametrize("seq,variant", [(1, "g_skinny_decode_deep"), (3, "g_skinny_decode_deep"),
                                         (70, "g_wgmma64x128_wgmma64x128_flash_wgmma_few_glu64x128"),
                                         (130, "g_wgmma64x128_wgmma64x128_flash_wgmma_few_glu64x128")])
def test_llama_block(tmp_path, seq, variant):
    """examples/llama_block.hds's graph at small widths, sm_90a: wgmma GEMMs with fused
    epilogues (residuals) and split K, the gate and up projections as one (swiglu) past 48 tokens, causal grouped-query attention over the
    projections' heads (strided views its TMA copies read in place; decoding for one token
    reads them in place too), the rows' norms; against float64."""
    skip_large_under_sanitizers(seq * 256 * (3 * 384 + 768), limit=2_000_000)
    w = lambda *s: (rng.standard_normal(s) / np.sqrt(s[0])).astype(np.float16)
    p = {"x": halves(seq, 256), "g1": (1 + 0.1 * rng.standard_normal(256)).astype(np.float16), "wq": w(256, 256),
         "wk": w(256, 128), "wv": w(256, 128), "wo": w(256, 256), "g2": (1 + 0.1 * rng.standard_normal(256)).astype(np.float16),
         "wg": w(256, 384), "wu": w(256, 384), "wd": w(384, 256)}
    out, ran = run_variant(tmp_path, LLAMA, p)
    assert ran == variant, ran
    d = {k: v.astype(np.float64) for k, v in p.items()}
    norm = lambda t, g: t / np.sqrt((t * t).mean(-1, keepdims=True) + 1e-6) * g
    h = norm(d["x"], d["g1"])
    split = lambda t, n: t.reshape(seq, n, 64).transpose(1, 0, 2)
    q, k, v = split(h @ d["wq"], 4), split(h @ d["wk"], 2), split(h @ d["wv"], 2)
    k, v = np.repeat(k, 2, axis=0), np.repeat(v, 2, axis=0)
    s = np.where(np.arange(seq)[None, :] > np.arange(seq)[:, None], -np.inf, q @ k.transpose(0, 2, 1) * 0.125)
    e = np.exp(s - s.max(-1, keepdims=True))
    x1 = d["x"] + ((e / e.sum(-1, keepdims=True)) @ v).transpose(1, 0, 2).reshape(seq, 256) @ d["wo"]
    h2 = norm(x1, d["g2"])
    gate = h2 @ d["wg"]
    assert rel(out, x1 + (gate / (1 + np.exp(-gate)) * (h2 @ d["wu"])) @ d["wd"]) < 5e-3


@pytest.mark.parametrize("n,c,h,wd,o,k,stride,variant", [
    (1, 24, 9, 9, 64, 3, 1, "g_wgmma_n64"),     # O <= 64: 128 x 64 tiles
    (1, 24, 9, 9, 72, 3, 1, "g_wgmma_m64"),     # 81 pixels x 72 channels: one tile of 128 x 128, so 64 x 128
    (1, 72, 8, 8, 136, 1, 1, "g_wgmma_m64"),    # 1 x 1, 2 tiles
    (2, 24, 10, 11, 72, 3, 2, "g_wgmma_m64"),   # stride 2
    (67, 72, 1, 2, 72, 1, 1, "g_wgmma_m64"),    # 134 pixels: 2 x 1 tiles
    (265, 72, 8, 4, 72, 1, 1, "g_any"),         # 8480 pixels: 67 tiles of 128 x 128 (the last variant)
    (264, 72, 8, 4, 72, 1, 1, "g_wgmma_m64"),   # 8448: 66
    (1, 136, 5, 5, 72, 3, 1, "g_wgmma_split"),  # one tile of 27 slices: split over a cluster of 3
    (2, 128, 4, 4, 72, 3, 1, "g_wgmma_split"),  # 18 slices: 2
    (1, 16, 9, 9, 64, 3, 1, "g_wgmma_taps"),    # C * S <= 64: a slice per filter row, O <= 64
    (1, 16, 9, 9, 72, 3, 1, "g_any"),           # the same past 64 output channels (wgmma_taps128, the last variant)
])
def test_conv2d_nhwc_tiles(tmp_path, n, c, h, wd, o, k, stride, variant):
    """conv2d_nhwc's tiles chosen per call for a symbolic batch and O (sm_90a, conv2d_wgmma): a slice
    per filter row where C * S <= 64 (128 x 64 tiles where O <= 64, else 128 x 128), 128 x 64
    where O <= 64; where 128 x 128 tiles would be at most 66, their slices split over a cluster where
    there are 16 or more, else 64 x 128 tiles; 128 x 128 past that; against
    float64 with racecheck on both sides of each boundary."""
    pad = k // 2
    p, q = (h + 2 * pad - k) // stride + 1, (wd + 2 * pad - k) // stride + 1
    text = (f"graph g(x: f16[N, {h}, {wd}, {c}], w: f16[O, {k}, {k}, {c}]) -> f16[N, {p}, {q}, O] "
            f"{{ return relu(conv2d_nhwc(x, w, stride={stride}, pad={pad})); }}\n")
    x, w = halves(n, h, wd, c), halves(o, k, k, c) * np.float16(1 / np.sqrt(k * k * c))
    out, ran = run_variant(tmp_path, text, {"x": x, "w": w})
    assert ran == variant
    ref = conv_ref(x.transpose(0, 3, 1, 2), w.transpose(0, 3, 1, 2), stride, pad).transpose(0, 2, 3, 1)
    assert rel(out, np.maximum(ref, 0)) < 2e-3


@pytest.mark.parametrize("n,h,wd,o,variant", [(2, 20, 18, 64, "g_wgmma_taps"), (1, 15, 16, 72, "g_any")])
def test_conv2d_nhwc_stem(tmp_path, n, h, wd, o, variant):
    """ResNet's stem channels-last: RGB padded to 8 channels (to_nhwc), the 7 x 7 convolution with a
    slice per filter row (conv2d_wgmma's TAPS: 128 x 64 tiles where O <= 64), max_pool2d_nhwc;
    against float64 with racecheck."""
    text = (f"graph g(x: f16[N, 3, {h}, {wd}], w: f16[O, 7, 7, 8]) -> f16[N, {(h - 1) // 4 + 1}, {(wd - 1) // 4 + 1}, O] "
            "{ let y = relu(conv2d_nhwc(to_nhwc(x, channels=8), w, stride=2, pad=3));\n"
            "  return max_pool2d_nhwc(y, k=3, stride=2, pad=1); }\n")
    x, w = halves(n, 3, h, wd), halves(o, 7, 7, 8) * np.float16(1 / np.sqrt(147))
    w[..., 3:] = 0  # the padded channels' weights (the backend's are zeros)
    out, ran = run_variant(tmp_path, text, {"x": x, "w": w})
    assert ran == variant
    y = np.maximum(conv_ref(x, w[..., :3].transpose(0, 3, 1, 2), 2, 3), 0)
    yp = np.pad(y, ((0, 0), (0, 0), (1, 1), (1, 1)), constant_values=-np.inf)
    p, q = (y.shape[2] - 1) // 2 + 1, (y.shape[3] - 1) // 2 + 1
    ref = np.max([yp[:, :, r:r + 2 * p - 1:2, s:s + 2 * q - 1:2] for r in range(3) for s in range(3)], axis=0)
    assert rel(out, ref.transpose(0, 2, 3, 1)) < 2e-3
