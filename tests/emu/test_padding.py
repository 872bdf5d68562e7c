"""Schedules run on zero-padded copies (`pad(K, N)`, graph/padding.h). The stdlib declares it
on tensor-core schedules only, which the emulator does not run; here an op of the test's own
declares it on the SIMT matmul (16 bytes: 4 values of f32, 8 of f16), so that the padded
sizes, the copies, the slice of the result and what fuses around them run on the CPU against
numpy, on both sides of the condition."""
import re

import numpy as np
import pytest

import emulator

rng = np.random.default_rng(25)

MM = """import "matmul_simt.hds";
op mm<T>(a: T[M, K], b: T[K, N]) -> T[M, N] {
    compute c[i, j] = sum(k in 0..K) a[i, k] * b[k, j];
    schedule simt = matmul_simt pad(K, N);
}
"""


def close(out, ref, tol):
    err = np.linalg.norm(out.astype(np.float64) - ref) / max(np.linalg.norm(ref), 1e-30)
    assert err < tol, err


def rms_norm(x, g, eps=1e-6):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * g


@pytest.mark.parametrize("dtype", ["f32", "f16"])
@pytest.mark.parametrize("t,d,f", [(5, 7, 9), (3, 8, 16), (2, 1, 3), (17, 33, 5)])
def test_padded_matmul_after_rms_norm(dtype, t, d, f):
    """rms_norm feeds the padded a; the bias and relu read the padded result (the slice inlines)."""
    np_t = np.float32 if dtype == "f32" else np.float16
    x = rng.standard_normal((t, d)).astype(np_t)
    g = (rng.standard_normal(d) + 1).astype(np_t)
    w = rng.standard_normal((d, f)).astype(np_t)
    bias = rng.standard_normal(f).astype(np_t)
    src = MM + (f"graph p(x: {dtype}[T, D], g: {dtype}[D], w: {dtype}[D, F], bias: {dtype}[F]) -> {dtype}[T, F] "
                "{ return relu(mm(rms_norm(x, g), w) + bias); }\n")
    out = emulator.run_graph(src, "p", {"x": x, "g": g, "w": w, "bias": bias})
    f64 = lambda a: a.astype(np.float64)
    ref = np.maximum(rms_norm(f64(x), f64(g)) @ f64(w) + f64(bias), 0)
    close(out, ref, 1e-5 if dtype == "f32" else 3e-3)


def test_padded_matmul_returned_constant_sizes():
    """Constant K = 7, N = 9: padded to 8 and 12 at compile time; the graph returns the slice."""
    a, b = rng.standard_normal((5, 7)).astype(np.float32), rng.standard_normal((7, 9)).astype(np.float32)
    src = MM + "graph p(a: f32[5, 7], b: f32[7, 9]) -> f32[5, 9] { return mm(a, b); }\n"
    close(emulator.run_graph(src, "p", {"a": a, "b": b}), a.astype(np.float64) @ b.astype(np.float64), 1e-5)


def test_padded_variant_emitted(tmp_path):
    """Symbolic sizes: a variant where K and N are multiples of 4 (no copies, the epilogue fused)
    and `_any` on the padded sizes, its result sliced by the epilogue's kernel."""
    src = tmp_path / "p.hds"
    src.write_text('import "elementwise.hds";\n' + MM +
                   "graph p(a: f32[M, K], b: f32[K, N]) -> f32[M, N] { return relu(mm(a, b)); }\n")
    cu = emulator.emit(src)
    assert "//   p_rows16: K % 4 == 0 && N % 4 == 0 (rows of 16-byte multiples" in cu
    kernels = re.findall(r"^__global__ void (?:__launch_bounds__\([^)]*\) )?(\w+)\(", cu, re.M)
    assert [k for k in kernels if k.startswith("p_rows16_")] == ["p_rows16_k0_mm_relu"]
    # The SIMT schedule takes prologues: the copies of a and b fuse into its loads.
    assert [k for k in kernels if k.startswith("p_any_")] == ["p_any_k0_mm", "p_any_k1_relu"]
    mm = cu[cu.index("p_any_k0_mm("):]
    assert "(K + 3) / 4 * 4" in mm[:mm.index("\n}\n")] and "mm_padded[" in mm[:mm.index("\n}\n")]
