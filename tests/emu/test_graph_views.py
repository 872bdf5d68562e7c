"""Reshapes that cost nothing: a graph whose output is a reshape of what a kernel
computes has that kernel write the output's memory (no copy kernel), on both
sides of the matmul dispatch (M = B * T <= 16, <= 256 and beyond); numerics
against numpy on the emulator. (Reshapes read by TMA become views of their input:
tests/golden/reshape_views.hds and tests/gpu/ops/op_reshape_views_sm90.hds.)"""
import math
import subprocess

import numpy as np
import pytest

import emulator

SRC = """target sm_80;
import "nn.hds";
import "elementwise.hds";
graph views(x: f32[B, T, 20], w: f32[20, 12], b: f32[12], w2: f32[12, 20]) -> f32[B, T, 20] {
    let h = reshape(x, shape=[B * T, 20]);
    let y = relu(matmul(h, w) + b);
    return reshape(matmul(y, w2), shape=[B, T, 20]);
}
"""


@pytest.mark.parametrize("b,t", [(1, 3), (3, 7), (5, 61)])
def test_output_reshape_is_written_in_place(b, t):
    rng = np.random.default_rng(b * t)
    x = rng.standard_normal((b, t, 20)).astype("f4")
    w, bias, w2 = (rng.standard_normal(s).astype("f4") for s in ((20, 12), (12,), (12, 20)))
    out = emulator.run_graph(SRC, "views", {"x": x, "w": w, "b": bias, "w2": w2})
    ref = (np.maximum(x.reshape(b * t, 20) @ w + bias, 0) @ w2).reshape(b, t, 20)
    assert out.shape == (b, t, 20)
    np.testing.assert_allclose(out, ref, rtol=1e-4, atol=1e-4)


def test_no_copy_kernel(tmp_path):
    src = tmp_path / "views.hds"
    src.write_text(SRC)
    cu = tmp_path / "views.cu"
    subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "-o", str(cu)], check=True)
    text = cu.read_text()
    assert "reshape" not in " ".join(line for line in text.splitlines() if line.startswith("// kernel"))
    assert "float* matmul_2 = out;  // written in the shape of the output it is reshaped to: the same memory" in text


PERMUTED = """target sm_80;
import "nn.hds";
graph heads(q: f16[B, 4, T, 16], k: f16[B, 4, T, 16], v: f16[B, 4, T, 16], w: f16[64, 24]) -> f16[B, T, 24] {
    let heads = reshape(permute(attention(q, k, v, scale=0.25), dims=[0, 2, 1, 3]), shape=[B, T, 64]);
    let merged = reshape(heads, shape=[B * T, 64]);
    return reshape(matmul(merged, w), shape=[B, T, 24]);
}
"""


@pytest.mark.parametrize("b,t", [(1, 5), (2, 19)])
def test_permuted_reshape_is_copied_not_viewed(b, t):
    """Heads merged back after attention through two reshapes (the permute inlined into the first)
    is no view: the mma
    matmul's copies cannot read it in place, so it is stored in row-major order first."""
    rng = np.random.default_rng(t)
    q, k, v = (rng.standard_normal((b, 4, t, 16)).astype(np.float16) for _ in range(3))
    w = (rng.standard_normal((64, 24)) / 8).astype(np.float16)
    out = emulator.run_graph(PERMUTED, "heads", {"q": q, "k": k, "v": v, "w": w})
    s = q.astype("f8") @ k.astype("f8").transpose(0, 1, 3, 2) * 0.25
    p = np.exp(s - s.max(-1, keepdims=True))
    a = (p / p.sum(-1, keepdims=True)) @ v.astype("f8")
    ref = (a.transpose(0, 2, 1, 3).reshape(b * t, 64) @ w.astype("f8")).reshape(b, t, 24)
    np.testing.assert_allclose(out.astype("f8"), ref, rtol=2e-2, atol=2e-2)


MERGED = """target sm_80;
import "nn.hds";
graph heads(q: f16[B, 2, T, 64], k: f16[B, 2, T, 64], v: f16[B, 2, T, 64], w: f16[128, 24]) -> f16[B, T, 24] {
    let heads = reshape(permute(attention(q, k, v, scale=0.125, causal=1), dims=[0, 2, 1, 3]), shape=[B, T, 128]);
    return reshape(matmul(reshape(heads, shape=[B * T, 128]), w), shape=[B, T, 24]);
}
"""


@pytest.mark.parametrize("b,t", [(1, 5), (2, 70)])
def test_heads_merged_by_the_attention_kernel(b, t, tmp_path):
    """Heads of 64 merged back after attention (a permute keeping the last dimension last and
    a reshape): the attention kernel (mma.sync) stores its result in that order itself
    (graph/passes/fuse_epilogues.cpp) and the reshapes are views of it that the matmul reads
    in place. A permute that moves the last dimension stays a kernel of its own (its stores
    would not coalesce)."""
    def kernels(text):
        src = tmp_path / "heads.hds"
        src.write_text(text)
        cu = subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "-o", "-"],
                            capture_output=True, text=True, check=True).stdout
        return [line.split()[2] for line in cu.splitlines() if line.startswith("// kernel heads_")]
    names = kernels(MERGED)
    assert [k for k in names if "_attention_permute" in k], names
    # Decoding (T <= 16, attention_decode_split.hds): the first of its two kernels writes the
    # blocks' parts, the second stores the heads merged.
    parts = [k for k in names if k.endswith("_attention")]
    assert len(parts) == 1 and len([k for k in names if "_attention_permute" in k]) == 2, names
    assert all("_attention_permute" in k or k.endswith("_matmul") or k in parts for k in names), names
    moved = MERGED.replace("dims=[0, 2, 1, 3]), shape=[B, T, 128])", "dims=[0, 1, 3, 2]), shape=[B, 128, T])")
    moved = moved.replace("reshape(heads, shape=[B * T, 128])", "reshape(heads, shape=[B * 128, T])")
    moved = moved.replace("w: f16[128, 24]) -> f16[B, T, 24]", "w: f16[T, 24]) -> f16[B, 128, 24]")
    moved = moved.replace("shape=[B, T, 24]);", "shape=[B, 128, 24]);")
    assert not [k for k in kernels(moved) if "attention_permute" in k]
    rng = np.random.default_rng(t)
    q, k, v = (rng.standard_normal((b, 2, t, 64)).astype(np.float16) for _ in range(3))
    w = (rng.standard_normal((128, 24)) / 11).astype(np.float16)
    out = emulator.run_graph(MERGED, "heads", {"q": q, "k": k, "v": v, "w": w})
    s = q.astype("f8") @ k.astype("f8").transpose(0, 1, 3, 2) * 0.125
    s = np.where(np.arange(t)[None, :] > np.arange(t)[:, None], -np.inf, s)
    p = np.exp(s - s.max(-1, keepdims=True))
    a = (p / p.sum(-1, keepdims=True)) @ v.astype("f8")
    ref = (a.transpose(0, 2, 1, 3).reshape(b * t, 128) @ w.astype("f8")).reshape(b, t, 24)
    np.testing.assert_allclose(out.astype("f8"), ref, rtol=2e-2, atol=2e-2)


EPILOGUES = """target sm_80;
import "nn.hds";
import "elementwise.hds";
graph mlp3(x: f32[B, T, 20], w: f32[20, 36], b: f32[36], w2: f32[36, 20], b2: f32[20]) -> f32[B, T, 20] {
    let h = gelu(reshape(matmul(reshape(x, shape=[B * T, 20]), w) + b, shape=[B, T, 36]));
    return x + reshape(matmul(reshape(h, shape=[B * T, 36]), w2) + b2, shape=[B, T, 20]);
}
"""


def any_kernels(text, tmp_path):
    """The kernels of the dispatch's last variant (any sizes) of graph mlp3 in `text`."""
    src, cu = tmp_path / "mlp3.hds", tmp_path / "mlp3.cu"
    src.write_text(text)
    subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "-o", str(cu)], check=True)
    return [line.split()[2] for line in cu.read_text().splitlines() if line.startswith("// kernel mlp3_any")]


@pytest.mark.parametrize("b,t", [(1, 3), (3, 7), (5, 61)])
def test_epilogues_through_reshapes(b, t, tmp_path):
    """A product's rows reshaped to [B, T, N] before gelu or a residual: the elementwise work
    runs in the product's shape as its epilogue, the reshapes are views (two kernels)."""
    rng = np.random.default_rng(b + t)
    x = rng.standard_normal((b, t, 20)).astype("f4")
    w, bias, w2, bias2 = (rng.standard_normal(s).astype("f4") / 4 for s in ((20, 36), (36,), (36, 20), (20,)))
    out = emulator.run_graph(EPILOGUES, "mlp3", {"x": x, "w": w, "b": bias, "w2": w2, "b2": bias2})
    z = x.reshape(b * t, 20).astype("f8") @ w + bias
    h = 0.5 * z * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
    ref = x + (h @ w2 + bias2).reshape(b, t, 20)
    np.testing.assert_allclose(out, ref, rtol=1e-3, atol=1e-3)
    assert any_kernels(EPILOGUES, tmp_path) == ["mlp3_any_k0_matmul_add_gelu", "mlp3_any_k1_matmul_add_add"]


def test_epilogues_through_reshapes_with_a_batch_of_one(tmp_path):
    """[T, N] rows reshaped to [1, T, N] (a batch dimension of 1): still a reshape, still fused."""
    src_text = EPILOGUES.replace("x: f32[B, T, 20]", "x: f32[1, T, 20]").replace("-> f32[B, T, 20]", "-> f32[1, T, 20]")
    src_text = src_text.replace("B * T", "T").replace("shape=[B, T,", "shape=[1, T,")
    rng = np.random.default_rng(4)
    x = rng.standard_normal((1, 9, 20)).astype("f4")
    w, bias, w2, bias2 = (rng.standard_normal(s).astype("f4") / 4 for s in ((20, 36), (36,), (36, 20), (20,)))
    out = emulator.run_graph(src_text, "mlp3", {"x": x, "w": w, "b": bias, "w2": w2, "b2": bias2})
    z = x.reshape(9, 20).astype("f8") @ w + bias
    h = 0.5 * z * (1 + np.vectorize(math.erf)(z / math.sqrt(2)))
    np.testing.assert_allclose(out, x + (h @ w2 + bias2).reshape(1, 9, 20), rtol=1e-3, atol=1e-3)
    assert any_kernels(src_text, tmp_path) == ["mlp3_any_k0_matmul_add_gelu", "mlp3_any_k1_matmul_add_add"]


GROUPS = """graph split(x: f32[S, 24]) -> f32[4, S, 6] {
    return permute(reshape(x, shape=[S, 4, 6]), dims=[1, 0, 2]) * 2.0;
}
graph regroup(x: f32[6, 4]) -> f32[4, 6] { return reshape(x, shape=[4, 6]) * 2.0; }
graph merge(x: f32[2, 3, 4, 5]) -> f32[6, 20] { return reshape(x, shape=[6, 20]) * 2.0; }
"""


def test_reshape_indexes_matching_groups(tmp_path):
    """A reshape whose dimensions match in runs of equal products (S <-> S, 24 <-> 4, 6) indexes
    each run alone: a head split is a row-major offset with no division; runs that do not match
    ([6, 4] -> [4, 6]) go through the flat index. Numerics of each on the emulator."""
    x = np.arange(7 * 24, dtype="f4").reshape(7, 24)
    out = emulator.run_graph(GROUPS, "split", {"x": x})
    np.testing.assert_array_equal(out, 2 * x.reshape(7, 4, 6).transpose(1, 0, 2))
    y = np.arange(24, dtype="f4").reshape(6, 4)
    np.testing.assert_array_equal(emulator.run_graph(GROUPS, "regroup", {"x": y}), 2 * y.reshape(4, 6))
    z = np.arange(120, dtype="f4").reshape(2, 3, 4, 5)
    np.testing.assert_array_equal(emulator.run_graph(GROUPS, "merge", {"x": z}), 2 * z.reshape(6, 20))
    src = tmp_path / "groups.hds"
    src.write_text('import "elementwise.hds";\n' + GROUPS)
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "--out-dir", str(out_dir)],
                   check=True, capture_output=True)
    load = next(line for line in (out_dir / "split.cu").read_text().splitlines() if "x[" in line)
    assert "/" not in load.split("x[", 1)[1], load
