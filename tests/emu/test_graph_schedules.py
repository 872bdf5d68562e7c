"""Epilogue fusion into schedule kernels that write their result through
built-ins, on the CPU emulator against numpy: a vector copy takes the epilogue
(computed in registers, one copy of the results), an atomic does not (the
epilogue stays a kernel of its own: applied to each partial sum it would be
wrong). The ops and their schedules are written here, in .hds."""
import tempfile
from pathlib import Path

import numpy as np

import emulator

rng = np.random.default_rng(11)

# The main loop of the mm8 schedules below: thread r's row of x @ w in acc.
MM8_MAIN_LOOP = """    let r = blockIdx.x * 64 + threadIdx.x;
    var acc: register f32[8];
    @unroll for j in 0..8 { acc[j] = 0.0; }
    for k in 0..K {
        if (r < R) { @unroll for j in 0..8 { acc[j] += cast<f32>(x[r, k]) * cast<f32>(w[k, j]); } }
    }
"""

OPS = """
// Rows of 8 copied 4 at a time (copy_vec4) into the result.
kernel copy_rows<T>(x: T[R, 8], y: T[R, 8]) grid((R + 63) / 64) block(64) {
    let r = blockIdx.x * 64 + threadIdx.x;
    if (r < R) {
        var v: register T[8];
        copy_vec4(v[0], x[r, 0]);
        copy_vec4(v[4], x[r, 4]);
        @unroll for k in 0..8 { v[k] = v[k] * 2.0; }
        copy_vec4(y[r, 0], v[0]);
        copy_vec4(y[r, 4], v[4]);
    }
}
op twice<T>(x: T[R, 8]) -> T[R, 8] {
    compute y[i, j] = x[i, j] * 2.0;
    schedule rows = copy_rows;
}

// Column sums accumulated with atomics by one block.
kernel colsum_atomic<T>(x: T[R, 8], y: T[8]) grid(1) block(64) {
    if (threadIdx.x < 8) { y[threadIdx.x] = 0.0; }
    syncthreads();
    for r in threadIdx.x..R step 64 {
        @unroll for k in 0..8 { atomic_add(y[k], x[r, k]); }
    }
}
op colsum<T>(x: T[R, 8]) -> T[8] {
    compute y[j] = sum(i in 0..R) x[i, j];
    schedule atomic = colsum_atomic;
}

// A row of x @ w (w: K x 8) per thread: a main loop over k, then two 4-wide copies.
kernel mm8_rows<T>(x: T[R, K], w: T[K, 8], y: T[R, 8]) grid((R + 63) / 64) block(64) {
    var v: register T[8];
@MM8_MAIN_LOOP@
    let inside = r < R;
    @unroll for h in 0..2 {
        @unroll for j in 0..4 { v[h * 4 + j] = cast<T>(acc[h * 4 + j]); }
        if (inside) { copy_vec4(y[r, h * 4], v[h * 4]); }
    }
}
op mm8<T>(x: T[R, K], w: T[K, 8]) -> T[R, 8] {
    compute y[i, j] = sum(k in 0..K) x[i, k] * w[k, j];
    schedule rows = mm8_rows;
}

// The same product, with what must keep the epilogue's loads after the loop: a column
// offset the loop assigns (h0), and a return that guards the copies (past R).
kernel mm8_late<T>(x: T[R, K], w: T[K, 8], y: T[R, 8]) grid((R + 63) / 64) block(64) {
    let r = blockIdx.x * 64 + threadIdx.x;
    var acc: register f32[8];
    var v: register T[8];
    var h0 = 4;
    @unroll for j in 0..8 { acc[j] = 0.0; }
    for k in 0..K {
        h0 = 0;
        if (r < R) { @unroll for j in 0..8 { acc[j] += cast<f32>(x[r, k]) * cast<f32>(w[k, j]); } }
    }
    @unroll for j in 0..8 { v[j] = cast<T>(acc[j]); }
    if (r < R) { copy_vec4(y[r, h0], v[0]); }
    if (r >= R) { return; }
    copy_vec4(y[r, 4], v[4]);
}
op mm8b<T>(x: T[R, K], w: T[K, 8]) -> T[R, 8] {
    compute y[i, j] = sum(k in 0..K) x[i, k] * w[k, j];
    schedule late = mm8_late;
}

// x @ w scaled per column by s, which the schedule reads after the loop into a row of
// registers declared before it: prefetched, but the copies into sc stay (no forwarding).
kernel mm8_scaled<T>(x: T[R, K], w: T[K, 8], s: T[8], y: T[R, 8]) grid((R + 63) / 64) block(64) {
    var sc: register T[8];
@MM8_MAIN_LOOP@
    copy_vec4(sc[0], s[0]);
    copy_vec4(sc[4], s[4]);
    if (r < R) { @unroll for j in 0..8 { y[r, j] = cast<T>(acc[j]) * sc[j]; } }
}
op mm8s<T>(x: T[R, K], w: T[K, 8], s: T[8]) -> T[R, 8] {
    compute y[i, j] = sum(k in 0..K) x[i, k] * w[k, j] * s[j];
    schedule scaled = mm8_scaled;
}
""".replace("@MM8_MAIN_LOOP@\n", MM8_MAIN_LOOP)


def run(graph: str, inputs: dict) -> tuple[np.ndarray, str]:
    """The graph's output and the emitted CUDA of OPS + graph."""
    text = OPS + graph
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "g.hds"
        src.write_text('import "elementwise.hds";\n' + text)
        cu = emulator.emit(src)
    return emulator.run_graph(text, "g", inputs, imports=("elementwise.hds",)), cu


def test_epilogue_fuses_into_vector_copies():
    """+ b and relu in registers around each 4-wide copy; the bias read 4 at a time."""
    x = rng.standard_normal((37, 8)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    out, cu = run("graph g(x: f32[R, 8], b: f32[8]) -> f32[R, 8] { return relu(twice(x) + b); }\n", {"x": x, "b": b})
    np.testing.assert_allclose(out, np.maximum(2 * x + b, 0), rtol=1e-6)
    assert cu.count("__global__") == 1  # one kernel: twice+add+relu
    assert "hds::copy<16>(&out[r * 8], &v_out[0]);" in cu
    assert "hds::copy<16>(&v_b_2[0], &b[4]);" in cu  # the second copy's bias, renamed


def test_widening_epilogue_stores_one_by_one():
    """An f32 result of f16 copies: the values stay a copy, the stores become scalars."""
    x = rng.standard_normal((13, 8)).astype(np.float16)
    out, cu = run("graph g(x: f16[R, 8]) -> f32[R, 8] { return to_f32(twice(x)); }\n", {"x": x})
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, 2 * x.astype(np.float32), rtol=1e-3)
    assert cu.count("__global__") == 1
    assert "hds::copy<8>(&out" not in cu and "hds::copy<16>(&out" not in cu


def test_no_epilogue_into_atomics():
    """relu after a sum accumulated with atomics runs as its own kernel: fused into
    each atomic it would clamp the partial sums (the columns' means differ in sign)."""
    x = (rng.standard_normal((150, 8)) + np.array([1, -1] * 4)).astype(np.float32)
    out, cu = run("graph g(x: f32[R, 8]) -> f32[8] { return relu(colsum(x)); }\n", {"x": x})
    np.testing.assert_allclose(out, np.maximum(x.astype(np.float64).sum(0), 0), rtol=1e-5, atol=1e-4)
    assert cu.count("__global__") == 2


def test_epilogue_loads_prefetched_before_the_main_loop():
    """The epilogue's vector loads of b and res (read-only, fixed for the thread) are issued before
    the k-loop into registers, under the copy's condition; a third tensor would pass the 64 bytes
    per thread: its loads stay where they were. R = 70: the second block's threads past R load nothing."""
    x = rng.standard_normal((70, 5)).astype(np.float32)
    w = rng.standard_normal((5, 8)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    res, res2 = rng.standard_normal((2, 70, 8)).astype(np.float32)
    graph = ("graph g(x: f32[R, K], w: f32[K, 8], b: f32[8], res: f32[R, 8], res2: f32[R, 8]) -> f32[R, 8] "
             "{ return relu(mm8(x, w) + b) + res + res2; }\n")
    out, cu = run(graph, {"x": x, "w": w, "b": b, "res": res, "res2": res2})
    ref = np.maximum(x.astype(np.float64) @ w + b, 0) + res + res2
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-5)
    assert cu.count("__global__") == 1
    main = cu.index("for (int k = 0; k < K; ++k)")
    for t in ("b", "res"):
        assert cu.index(f"float pf_{t}[2][4];") < main, t
        # The copy into v_{t}, all that wrote that row, is gone: its reads read pf_{t}.
        assert f"v_{t}[" not in cu, t
        assert f"+ pf_{t}[h][e" in cu, t
    assert "pf_res2" not in cu and "hds::copy<16>(&v_res2[0], &res2[" in cu
    assert "if (inside)" not in cu[:main]  # the condition is spelled out before the loop


def test_epilogue_loads_that_must_stay_after_the_main_loop():
    """b[h0 + e] (h0 assigned in the loop) and a load after a return stay where they are."""
    x = rng.standard_normal((70, 5)).astype(np.float32)
    w = rng.standard_normal((5, 8)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    out, cu = run("graph g(x: f32[R, K], w: f32[K, 8], b: f32[8]) -> f32[R, 8] { return mm8b(x, w) + b; }\n",
                  {"x": x, "w": w, "b": b})
    np.testing.assert_allclose(out, x.astype(np.float64) @ w + b, rtol=1e-5, atol=1e-5)
    assert "pf_" not in cu
    assert "hds::copy<16>(&v_b[0], &b[h0]);" in cu and "hds::copy<16>(&v_b_2[0], &b[4]);" in cu


def test_prefetched_copies_into_a_row_declared_before_the_loop_stay():
    """s's copies move before the loop (into pf_s, pf_s_2), but the copies into sc, a row the
    schedule declared before its loop and that two copies write, stay and read the prefetched rows."""
    x = rng.standard_normal((70, 5)).astype(np.float32)
    w = rng.standard_normal((5, 8)).astype(np.float32)
    s = rng.standard_normal(8).astype(np.float32)
    out, cu = run("graph g(x: f32[R, K], w: f32[K, 8], s: f32[8]) -> f32[R, 8] { return mm8s(x, w, s); }\n",
                  {"x": x, "w": w, "s": s})
    np.testing.assert_allclose(out, (x.astype(np.float64) @ w) * s, rtol=1e-5, atol=1e-5)
    main = cu.index("for (int k = 0; k < K; ++k)")
    assert cu.index("hds::copy<16>(&pf_s[0], &s[0]);") < main
    assert cu.index("hds::copy<16>(&pf_s_2[0], &s[4]);") < main
    assert "hds::copy<16>(&sc[0], &pf_s[0]);" in cu and "hds::copy<16>(&sc[4], &pf_s_2[0]);" in cu
