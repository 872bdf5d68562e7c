"""A Llama MLP's gate and up projections written as separate ops (`silu(matmul(a, b)) *
matmul(a, u)` and its spellings) run as the `swiglu` op where one of its schedules applies
(graph/swiglu_pattern.h, stdlib/matmul_wgmma_glu.hds on sm_90a): checked by the graph hdsc builds
(`--emit=graph`) and numerically on the emulator on both sides of each bound of its dispatch.
Where a and the other product's operand differ, silu is on neither product, the views differ, or
no schedule applies (sm_80, f32), the graph stays as written."""
import subprocess

import numpy as np
import pytest

import emulator
from emulator import skip_large_under_sanitizers
from test_graph_hopper import halves, rel, run_variant

HEADER = 'import "elementwise.hds";\nimport "nn.hds";\n'


def built(tmp_path, text: str, arch: str = "sm_90a") -> str:
    """The graph after its passes (`--emit=graph`, last section)."""
    src = tmp_path / "g.hds"
    src.write_text(HEADER + text)
    out = subprocess.run([str(emulator.hdsc()), str(src), "-I", str(emulator.ROOT / "stdlib"), "--emit=graph",
                          f"--arch={arch}"], capture_output=True, text=True, check=True).stdout
    return out.split("// after")[-1]


REWRITTEN = {
    "inline": "graph g(a: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[100, 72] "
              "{ return silu(matmul(a, b)) * matmul(a, u); }",
    "up_first": "graph g(a: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[100, 72] "
                "{ return matmul(a, u) * silu(matmul(a, b)); }",
    # torch.compile(backend="hds")'s spelling: lets, a view of a taken twice, views of the products
    "views": """graph g(a: f16[1, 100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[1, 100, 72] {
    let v = reshape(a, shape=[100, 64]);
    let mm = matmul(v, b);
    let gate = silu(reshape(mm, shape=[1, 100, 72]));
    let v_1 = reshape(a, shape=[100, 64]);
    let up = reshape(matmul(v_1, u), shape=[1, 100, 72]);
    return gate * up;
}""",
}


def silu_mul(a, b, u):
    g = a.astype(np.float64) @ b
    return g / (1 + np.exp(-g)) * (a.astype(np.float64) @ u)


@pytest.mark.parametrize("spelling", sorted(REWRITTEN))
def test_rewritten_to_swiglu(tmp_path, spelling):
    text = REWRITTEN[spelling]
    graph = built(tmp_path, text)
    assert "= swiglu (schedule kernel)" in graph and "matmul" not in graph and "silu" not in graph, graph
    a, b, u = halves(100, 64), halves(64, 72) / np.float16(8), halves(64, 72) / np.float16(8)
    shaped = a.reshape(1, 100, 64) if spelling == "views" else a
    out, _ = run_variant(tmp_path, text + "\n", {"a": shaped, "b": b, "u": u})
    assert rel(out.reshape(100, 72), silu_mul(a, b, u)) < 2e-3


AS_WRITTEN = {
    "other_a": "graph g(a: f16[100, 64], x: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[100, 72] "
               "{ return silu(matmul(a, b)) * matmul(x, u); }",
    "gelu": "graph g(a: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[100, 72] "
            "{ return gelu(matmul(a, b)) * matmul(a, u); }",
    "one_view": """graph g(a: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[1, 100, 72] {
    return silu(matmul(a, b)) * reshape(matmul(a, u), shape=[1, 100, 72]);
}""",
    "used_twice": """graph g(a: f16[100, 64], b: f16[64, 72], u: f16[64, 72]) -> f16[100, 72] {
    let gate = matmul(a, b);
    return silu(gate) * matmul(a, u) + gate;
}""",
    "f32": "graph g(a: f32[100, 64], b: f32[64, 72], u: f32[64, 72]) -> f32[100, 72] "
           "{ return silu(matmul(a, b)) * matmul(a, u); }",
}


@pytest.mark.parametrize("case", sorted(AS_WRITTEN))
def test_left_as_written(tmp_path, case):
    assert "swiglu" not in built(tmp_path, AS_WRITTEN[case])


def test_left_as_written_on_sm80(tmp_path):
    assert "swiglu" not in built(tmp_path, REWRITTEN["inline"], arch="sm_80")


SYMBOLIC = "graph g(a: f16[M, K], b: f16[K, N], u: f16[K, N]) -> f16[M, N] { return silu(matmul(a, b)) * matmul(a, u); }\n"


@pytest.mark.parametrize("m,k,n,tile", [
    (48, 40, 136, None),          # up to 48 rows: as written
    (49, 40, 136, "glu64"),       # 64 x 64 tiles up to 64 rows
    (64, 136, 72, "glu64"),
    (65, 40, 136, "glu64x128"),   # 64 x 128 tiles: one wave either way
    (65, 16, 8576, "glu"),        # 128 x 128 tiles: one wave of 67, where 64 x 128 ones take two
    (65, 16, 17024, "glu64x128"),  # 64 x 128 tiles: 3 waves of them against 2 of 128 x 128
    (200, 16, 5120, "glu"),
    (65, 13, 136, None),          # K odd: as written (padded)
    (65, 40, 130, None),          # N not a multiple of 8
])
def test_swiglu_dispatch(tmp_path, m, k, n, tile):
    """The emitted dispatch of symbolic sizes: each variant on both sides of its bounds."""
    skip_large_under_sanitizers(m * k * n * 2)
    a, b, u = halves(m, k), (halves(k, n) / np.float16(np.sqrt(k))), (halves(k, n) / np.float16(np.sqrt(k)))
    out, ran = run_variant(tmp_path, SYMBOLIC, {"a": a, "b": b, "u": u})
    assert ran.endswith(f"_{tile}") if tile else "glu" not in ran, ran
    assert rel(out, silu_mul(a, b, u)) < 3e-3
