"""The example graphs (MLP, transformer encoder block, ResNet basic block) at
small sizes on the CPU emulator against numpy, and the number of kernels
hdsc fuses the full-size examples into."""
import re
import subprocess
from math import erf

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(9)
verf = np.vectorize(erf)


def f32(*shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def gelu(x):
    return 0.5 * x * (1 + verf(x / np.sqrt(2)))


def close(out, ref, tol):
    err = np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref)
    assert err < tol, err


def kernels_per_variant(cu, variant="any"):
    """The kernels the graph's `_any` variant (or `variant`) launches where the .cu dispatches
    over variants (docs/graphs.md, "Runtime dispatch": the listing above the dispatch, `kernel
    <- ops` under each variant; variants share the kernels they have in common), else all."""
    listing = re.search(rf"^//   \w+_{variant}: .*\n(?://         .*\n)*((?://     \w+ <- .*\n)+)", cu, re.M)
    if listing:
        return re.findall(r"^//     (\w+) <- ", listing.group(1), re.M)
    return re.findall(r"^__global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(", cu, re.M)


@pytest.mark.parametrize("example,kernels", [("mlp", 2), ("resnet_block", 2), ("transformer_block", 10)])
def test_fused_kernel_count(example, kernels):
    cu = subprocess.run([str(emulator.hdsc()), str(emulator.ROOT / "examples" / f"{example}.hds"), "-I",
                         str(emulator.ROOT / "stdlib"), "-o", "-"], capture_output=True, text=True, check=True).stdout
    assert len(kernels_per_variant(cu)) == kernels


def test_mlp_f16():
    src = """graph mlp(x: f16[B, 16], w1: f16[16, 40], b1: f16[40], w2: f16[40, 16], b2: f16[16]) -> f16[B, 16] {
        let h = gelu(matmul(x, w1) + b1);
        return matmul(h, w2) + b2;
    }"""
    x, w1, b1 = f32(3, 16).astype(np.float16), f32(16, 40, scale=0.25).astype(np.float16), f32(40).astype(np.float16)
    w2, b2 = f32(40, 16, scale=0.25).astype(np.float16), f32(16).astype(np.float16)
    out = emulator.run_graph(src, "mlp", {"x": x, "w1": w1, "b1": b1, "w2": w2, "b2": b2})
    assert out.dtype == np.float16
    h = gelu(x.astype(np.float64) @ w1 + b1)
    close(out, h @ w2 + b2, 5e-3)


def layer_norm(x, g, b):
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * g + b


@pytest.mark.parametrize("heads,hd,seq", [(4, 8, 5), (2, 64, 70)])
def test_transformer_block(heads, hd, seq):
    """Heads of 8 take attention's four reductions, heads of 64 its flash schedule
    (stdlib/attention_simt.hds) with the head split fused into its loads."""
    dm = heads * hd
    src = f"""graph blk(x: f32[S, {dm}], g1: f32[{dm}], b1: f32[{dm}], wq: f32[{dm}, {dm}], wk: f32[{dm}, {dm}],
                      wv: f32[{dm}, {dm}], wo: f32[{dm}, {dm}], g2: f32[{dm}], b2: f32[{dm}], w1: f32[{dm}, 48],
                      c1: f32[48], w2: f32[48, {dm}], c2: f32[{dm}]) -> f32[S, {dm}] {{
        let h = layer_norm(x, g1, b1);
        let q = permute(reshape(matmul(h, wq), shape=[S, {heads}, {hd}]), dims=[1, 0, 2]);
        let k = permute(reshape(matmul(h, wk), shape=[S, {heads}, {hd}]), dims=[1, 0, 2]);
        let v = permute(reshape(matmul(h, wv), shape=[S, {heads}, {hd}]), dims=[1, 0, 2]);
        let a = attention(q, k, v, scale=0.35355339);
        let x1 = x + matmul(reshape(permute(a, dims=[1, 0, 2]), shape=[S, {dm}]), wo);
        let h2 = layer_norm(x1, g2, b2);
        return x1 + matmul(gelu(matmul(h2, w1) + c1), w2) + c2;
    }}"""
    w = 0.2 * (32 / dm) ** 0.5
    p = {"x": f32(seq, dm), "g1": f32(dm), "b1": f32(dm), "wq": f32(dm, dm, scale=w), "wk": f32(dm, dm, scale=w),
         "wv": f32(dm, dm, scale=w), "wo": f32(dm, dm, scale=w), "g2": f32(dm), "b2": f32(dm),
         "w1": f32(dm, 48, scale=w), "c1": f32(48), "w2": f32(48, dm, scale=0.2), "c2": f32(dm)}
    out = emulator.run_graph(src, "blk", p)
    d = {k: v.astype(np.float64) for k, v in p.items()}
    h = layer_norm(d["x"], d["g1"], d["b1"])
    split = lambda t: t.reshape(seq, heads, hd).transpose(1, 0, 2)
    q, k, v = split(h @ d["wq"]), split(h @ d["wk"]), split(h @ d["wv"])
    s = q @ k.transpose(0, 2, 1) * 0.35355339
    e = np.exp(s - s.max(-1, keepdims=True))
    a = (e / e.sum(-1, keepdims=True)) @ v
    x1 = d["x"] + a.transpose(1, 0, 2).reshape(seq, dm) @ d["wo"]
    h2 = layer_norm(x1, d["g2"], d["b2"])
    close(out, x1 + gelu(h2 @ d["w1"] + d["c1"]) @ d["w2"] + d["c2"], 1e-5)


def test_resnet_block():
    src = """graph blk(x: f32[N, 4, 6, 5], w1: f32[4, 4, 3, 3], s1: f32[4, 1, 1], t1: f32[4, 1, 1],
                      w2: f32[4, 4, 3, 3], s2: f32[4, 1, 1], t2: f32[4, 1, 1]) -> f32[N, 4, 6, 5] {
        let y1 = relu(conv2d(x, w1, stride=1, pad=1) * s1 + t1);
        let y2 = conv2d(y1, w2, stride=1, pad=1) * s2 + t2;
        return relu(y2 + x);
    }"""
    p = {"x": f32(2, 4, 6, 5), "w1": f32(4, 4, 3, 3), "s1": f32(4, 1, 1), "t1": f32(4, 1, 1),
         "w2": f32(4, 4, 3, 3), "s2": f32(4, 1, 1), "t2": f32(4, 1, 1)}
    out = emulator.run_graph(src, "blk", p)

    def conv(x, w):
        xp = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
        y = np.zeros((x.shape[0], w.shape[0], 6, 5))
        for i in range(6):
            for j in range(5):
                y[:, :, i, j] = np.einsum("ncrs,ocrs->no", xp[:, :, i:i + 3, j:j + 3], w)
        return y

    d = {k: v.astype(np.float64) for k, v in p.items()}
    y1 = np.maximum(conv(d["x"], d["w1"]) * d["s1"] + d["t1"], 0)
    close(out, np.maximum(conv(y1, d["w2"]) * d["s2"] + d["t2"] + d["x"], 0), 1e-5)


def test_prologue_is_not_fused_into_cp_async(tmp_path):
    # The tensor-core matmul copies its inputs with cp.async (by address): a transpose feeding
    # it is computed into the workspace first (2 kernels), where the SIMT schedule fuses it.
    # Where K or N is not a multiple of 8 (the `_any` variant), the matmul runs on padded copies
    # (graph/padding.h): the transpose fuses into the copy of `at` (pad, pad, matmul, slice).
    src = tmp_path / "tp.hds"
    body = "return matmul(transpose(at), b);"
    for dtype, kernels in (("f16", 4), ("f32", 1)):
        src.write_text(f'import "nn.hds";\ngraph tp(at: {dtype}[K, M], b: {dtype}[K, N]) -> {dtype}[M, N] {{ {body} }}\n')
        cu = subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "--arch=sm_80",
                             "-o", "-"], capture_output=True, text=True, check=True).stdout
        assert len(kernels_per_variant(cu)) == kernels
        if dtype == "f16":
            # (the transpose kernel is the same in the variants that have it: one, named for the graph)
            assert kernels_per_variant(cu, "rows16") == ["tp_k0_transpose", "tp_rows16_k1_matmul"]
            # (the padded copy of `at`, the same in the two padded variants: 128 x 256 tiles past 132
            # tiles of 128 x 128, and `any`)
            pad_at = cu[cu.index("void __launch_bounds__(256) tp_k0_pad("):]
            assert "transpose_padded[" in pad_at[:pad_at.index("\n}\n")] and "at[" in pad_at[:pad_at.index("\n}\n")]
        calls = re.findall(r"hds::cp_async_16\(([^;]*)\);", cu)
        assert bool(calls) == (dtype == "f16")
        for call in calls:
            assert re.match(r"&sa\[.*\], &transpose(_padded)?\[|&sb\[.*\], &b(_padded)?\[", call), call  # a buffer
