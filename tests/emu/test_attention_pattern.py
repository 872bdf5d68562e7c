"""Attention written as separate ops (`bmm(softmax(bmm(q, permute(k, ..)) * s), v)` and its
spellings) runs the `attention` op where one of its schedules applies (graph/attention_pattern.h):
checked by the graph hdsc builds (`--emit=graph`) and numerically on the emulator (the SIMT flash
schedule, heads of 64). Where attention has no schedule (heads other than 64 on the emulator, or
v's width differing from q's), an intermediate is used twice or the tensors have no head
dimension (2-D), the graph stays as written."""
import re
import subprocess

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(11)
HEADER = 'import "elementwise.hds";\nimport "nn.hds";\n'


def built(tmp_path, text: str) -> str:
    """The graph as built (`--emit=graph`, first section)."""
    src = tmp_path / "g.hds"
    src.write_text(HEADER + text)
    out = subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "--emit=graph"],
                         capture_output=True, text=True, check=True).stdout
    return out.split("// after")[0]


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


SPELLINGS = {
    "lets": """graph g(q: f32[B, H, L, 64], k: f32[B, H, M, 64], v: f32[B, H, M, 64]) -> f32[B, H, L, 64] {
    let kt = permute(k, dims=[0, 1, 3, 2]);
    let s = bmm(q, kt) * 0.125;
    let p = softmax(s);
    return bmm(p, v);
}""",
    "scale_first": """graph g(q: f32[B, H, L, 64], k: f32[B, H, M, 64], v: f32[B, H, M, 64]) -> f32[B, H, L, 64] {
    return bmm(softmax(0.125 * bmm(q, permute(k, dims=[0, 1, 3, 2]))), v);
}""",
    "divided": """graph g(q: f32[B, H, L, 64], k: f32[B, H, M, 64], v: f32[B, H, M, 64]) -> f32[B, H, L, 64] {
    let a = softmax(bmm(q, permute(k, dims=[0, 1, 3, 2])) / 8.0);
    return bmm(a, v);
}""",
}


@pytest.mark.parametrize("spelling", sorted(SPELLINGS))
def test_rewritten_to_attention(tmp_path, spelling):
    text = SPELLINGS[spelling]
    graph = built(tmp_path, text)
    assert "= attention (schedule kernel)" in graph and "softmax" not in graph and "bmm" not in graph, graph
    q, k, v = (rng.standard_normal((1, 2, n, 64)).astype(np.float32) for n in (19, 77, 77))
    out = emulator.run_graph(text + "\n", "g", {"q": q, "k": k, "v": v}, imports=("elementwise.hds", "nn.hds"))
    ref = softmax(q.astype(np.float64) @ k.transpose(0, 1, 3, 2) * 0.125) @ v
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1e-5


def test_bmm_over_heads(tmp_path):
    text = """graph g(q: f32[H, L, 64], k: f32[H, M, 64], v: f32[H, M, 64]) -> f32[H, L, 64] {
    return bmm(softmax(bmm(q, permute(k, dims=[0, 2, 1])) * 0.3), v);
}"""
    assert "= attention (schedule kernel)" in built(tmp_path, text)
    q, k, v = (rng.standard_normal((2, n, 64)).astype(np.float32) for n in (9, 70, 70))
    out = emulator.run_graph(text + "\n", "g", {"q": q, "k": k, "v": v}, imports=("elementwise.hds", "nn.hds"))
    ref = softmax(q.astype(np.float64) @ k.transpose(0, 2, 1) * 0.3) @ v
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1e-5


def score(q, kt, scale):
    return q.astype(np.float64) @ kt * scale


def kt(k):
    return k.transpose(0, 2, 1)


# (why, graph, shapes of q, k, v, reference from q, k, v)
AS_WRITTEN = [
    ("no schedule for heads of 32", """graph g(q: f32[H, L, 32], k: f32[H, M, 32], v: f32[H, M, 32]) -> f32[H, L, 32] {
    return bmm(softmax(bmm(q, permute(k, dims=[0, 2, 1])) * 0.3), v);
}""", ((2, 9, 32), (2, 70, 32), (2, 70, 32)), lambda q, k, v: softmax(score(q, kt(k), 0.3)) @ v),
    ("v narrower than q", """graph g(q: f32[H, L, 64], k: f32[H, M, 64], v: f32[H, M, 32]) -> f32[H, L, 32] {
    return bmm(softmax(bmm(q, permute(k, dims=[0, 2, 1])) * 0.3), v);
}""", ((2, 9, 64), (2, 70, 64), (2, 70, 32)), lambda q, k, v: softmax(score(q, kt(k), 0.3)) @ v),
    ("the scores used twice", """graph g(q: f32[H, L, 64], k: f32[H, M, 64], v: f32[H, M, 64]) -> f32[H, L, 64] {
    let s = bmm(q, permute(k, dims=[0, 2, 1]));
    return bmm(softmax(s), v) + bmm(s, v);
}""", ((2, 9, 64), (2, 70, 64), (2, 70, 64)),
     lambda q, k, v: softmax(score(q, kt(k), 1.0)) @ v + score(q, kt(k), 1.0) @ v),
    ("not k's transpose", """graph g(q: f32[H, L, 64], k: f32[H, 64, M], v: f32[H, M, 64]) -> f32[H, L, 64] {
    return bmm(softmax(bmm(q, k)), v);
}""", ((2, 9, 64), (2, 64, 70), (2, 70, 64)), lambda q, k, v: softmax(score(q, k, 1.0)) @ v),
    ("one head without a head dimension", """graph g(q: f32[L, 64], k: f32[M, 64], v: f32[M, 64]) -> f32[L, 64] {
    return matmul(softmax(matmul(q, transpose(k)) * 0.3), v);
}""", ((9, 64), (70, 64), (70, 64)), lambda q, k, v: softmax(score(q, k.T, 0.3)) @ v),
]


@pytest.mark.parametrize("why,text,shapes,reference", AS_WRITTEN, ids=[c[0] for c in AS_WRITTEN])
def test_left_as_written(tmp_path, why, text, shapes, reference):
    """The products and the softmax stay (attention would be four reductions, or is not the same)."""
    graph = built(tmp_path, text)
    assert "attention" not in graph and "softmax" in graph, (why, graph)
    q, k, v = (rng.standard_normal(shape).astype(np.float32) for shape in shapes)
    out = emulator.run_graph(text + "\n", "g", {"q": q, "k": k, "v": v}, imports=("elementwise.hds", "nn.hds"))
    ref = reference(q, k, v)
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1e-5


def kernels(tmp_path, text: str) -> int:
    """The kernels hdsc emits for the graph (target sm_80: attention's mma.sync schedule), less
    those of the variant that decodes (S <= 16: attention_decode_split.hds, two kernels of its own)."""
    src = tmp_path / "k.hds"
    src.write_text("target sm_80;\n" + HEADER + text)
    out = tmp_path / "k.cu"
    subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "-o", str(out)], check=True)
    names = re.findall(r"__global__ void __launch_bounds__\([^)]*\) (\w+)\(", out.read_text())
    return len([n for n in names if "_decode_split_" not in n])


# (why, q's definition from x, kernels): attention's cp.async copies read a layout op's
# source in place where its rows stay contiguous and 16-byte aligned there
# (graph/passes/inline_injective.cpp); elsewhere the layout op is a copy kernel first.
IN_PLACE = [
    ("head split", "f16[S, 2, 64]", "permute(x, dims=[1, 0, 2])", 1),
    ("heads of a projection", "f16[S, 128]", "permute(reshape(x, shape=[S, 2, 64]), dims=[1, 0, 2])", 1),
    ("slice at 8 values", "f16[S, 2, 72]", "permute(slice(x, axis=2, start=8, end=72), dims=[1, 0, 2])", 1),
    ("slice at 4 values: rows not 16-byte aligned", "f16[S, 2, 68]",
     "permute(slice(x, axis=2, start=4, end=68), dims=[1, 0, 2])", 2),
    ("last two dimensions swapped", "f16[2, 64, S]", "permute(x, dims=[0, 2, 1])", 2),
]


@pytest.mark.parametrize("why,xtype,qexpr,count", IN_PLACE, ids=[c[0] for c in IN_PLACE])
def test_layout_ops_read_in_place(tmp_path, why, xtype, qexpr, count):
    text = f"""graph g(x: {xtype}, k: f16[2, S, 64], v: f16[2, S, 64]) -> f16[2, S, 64] {{
    return attention({qexpr}, k, v, scale=0.125);
}}
"""
    assert kernels(tmp_path, text) == count, why


def causal(scores):
    lq, lk = scores.shape[-2:]
    return np.where(np.arange(lk)[None, :] > np.arange(lq)[:, None] + lk - lq, -1e30, scores)


MASKED = {
    "mask_outside_scale": "let s = causal_mask(bmm(q, permute(k, dims=[0, 2, 1])) * 0.125);",
    "mask_inside_scale": "let s = causal_mask(bmm(q, permute(k, dims=[0, 2, 1]))) / 8.0;",
}


@pytest.mark.parametrize("spelling", sorted(MASKED))
@pytest.mark.parametrize("lq,lk", [(37, 70), (70, 70)])
def test_causal_mask_rewritten(tmp_path, spelling, lq, lk):
    """Scores through causal_mask run as attention(..., causal=1) (the flash schedule masks)."""
    text = f"""graph g(q: f32[H, L, 64], k: f32[H, M, 64], v: f32[H, M, 64]) -> f32[H, L, 64] {{
    {MASKED[spelling]}
    return bmm(softmax(s), v);
}}"""
    graph = built(tmp_path, text)
    assert "= attention (schedule kernel)" in graph and "causal_mask" not in graph, graph
    q, k, v = (rng.standard_normal((2, n, 64)).astype(np.float32) for n in (lq, lk, lk))
    out = emulator.run_graph(text + "\n", "g", {"q": q, "k": k, "v": v}, imports=("elementwise.hds", "nn.hds"))
    ref = softmax(causal(score(q, kt(k), 0.125))) @ v
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1e-5


@pytest.mark.parametrize("why,scale,d", [("a negative scale after the mask", -0.125, 64),
                                         ("no schedule for heads of 32", 0.125, 32)])
def test_causal_mask_as_written(tmp_path, why, scale, d):
    """Left as written, causal_mask computes what it says: masked scores -1e30 (then scaled)."""
    text = f"""graph g(q: f32[H, L, {d}], k: f32[H, M, {d}], v: f32[H, M, {d}]) -> f32[H, L, {d}] {{
    let s = causal_mask(bmm(q, permute(k, dims=[0, 2, 1]))) * {scale};
    return bmm(softmax(s), v);
}}"""
    graph = built(tmp_path, text)
    assert "attention" not in graph and "causal_mask" in graph, (why, graph)
    q, k, v = (rng.standard_normal((2, n, d)).astype(np.float32) for n in (9, 20, 20))
    out = emulator.run_graph(text + "\n", "g", {"q": q, "k": k, "v": v}, imports=("elementwise.hds", "nn.hds"))
    ref = softmax(causal(score(q, kt(k), 1.0)) * scale) @ v
    assert np.linalg.norm(out - ref) / np.linalg.norm(ref) < 1e-5
