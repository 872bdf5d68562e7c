"""Each emulator check fires on a small faulty kernel, at the right .hds
location, naming block and thread; and stays silent on correct code."""
import re

import numpy as np
import pytest

import emulator

FAULTY = "tests/emu/faulty.hds"


def error_of(kernel, inputs, outputs, sizes=None, racecheck=False):
    """The emulator's error message for a run that must fail."""
    with pytest.raises(emulator.EmulatorError) as e:
        emulator.run(FAULTY, kernel, inputs, outputs, sizes=sizes, racecheck=racecheck)
    return str(e.value)


def located(message, line, col):
    return re.search(rf"faulty\.hds:{line}:{col}: error: ", message) is not None


def test_out_of_bounds_global_read():
    msg = error_of("oob_read", {"a": np.zeros(32, np.float32)}, ["b"])
    assert located(msg, 6, 22), msg
    assert "out-of-bounds read of 'a': index 32 of dimension 0 (size 32)" in msg
    assert "block (0, 0, 0) thread (31, 0, 0)" in msg
    assert "b[threadIdx.x] = a[threadIdx.x + 1];\n" in msg and "^" in msg


def test_out_of_bounds_shared_write():
    msg = error_of("oob_shared", {}, ["out"], sizes={"N": 32})
    assert located(msg, 13, 5), msg
    assert "out-of-bounds write of 's': index 32 of dimension 0 (size 32)" in msg
    assert "thread (31, 0, 0)" in msg


def test_uninitialized_shared_read():
    msg = error_of("uninit_shared", {}, ["out"], sizes={"N": 32})
    assert located(msg, 24, 24), msg
    assert "read of uninitialized shared memory 's' (element 32)" in msg
    assert "thread (0, 0, 0)" in msg


def test_race_reported_only_with_racecheck():
    msg = error_of("missing_barrier", {}, ["out"], sizes={"N": 64}, racecheck=True)
    assert located(msg, 32, 24), msg
    assert "shared-memory race on 's' (element 0): read after a write by thread 0" in msg
    assert "thread (1, 0, 0)" in msg
    # Without --racecheck the (racy) kernel runs: threads execute one after another.
    emulator.run(FAULTY, "missing_barrier", {}, ["out"], sizes={"N": 64})


def test_no_race_with_barrier():
    out = emulator.run(FAULTY, "with_barrier", {}, ["out"], sizes={"N": 64}, racecheck=True)["out"]
    np.testing.assert_array_equal(out, np.arange(63, -1, -1, dtype=np.float32))


def test_barrier_divergence():
    msg = error_of("divergent_barrier", {}, ["out"], sizes={"N": 64})
    assert located(msg, 48, 9), msg
    assert "syncthreads() not reached by every thread of the block" in msg


def test_shuffle_divergence():
    msg = error_of("divergent_shuffle", {}, ["out"], sizes={"N": 32})
    assert located(msg, 58, 9), msg
    assert "warp shuffle not reached by every lane" in msg


def test_integer_division_by_zero():
    assert "integer division by zero" in error_of("div_zero", {"d": np.zeros(1, np.int32)}, ["out"])


@pytest.mark.parametrize("example,kernel,inputs,sizes", [
    ("examples/vector_add.hds", "vector_add", {"a": (300,), "b": (300,)}, None),
    ("examples/matmul_naive.hds", "matmul_naive", {"a": (20, 33), "b": (33, 17)}, None),
    ("examples/matmul_tiled.hds", "matmul_tiled", {"a": (70, 33), "b": (33, 130)}, None),
    ("examples/matmul_tiled.hds", "matmul_tiled", {"a": (130, 36), "b": (36, 132)}, None),  # 4-element slices
    ("examples/softmax.hds", "softmax", {"x": (5, 300)}, None),
    ("examples/row_sum.hds", "row_sum", {"x": (5, 300)}, None),
    ("examples/gelu_f16.hds", "gelu_f16", {"x": (300,), "bias": (300,)}, None),
])
def test_checks_silent_on_correct_examples(example, kernel, inputs, sizes):
    rng = np.random.default_rng(1)
    dtype = np.float16 if kernel == "gelu_f16" else np.float32
    arrays = {k: rng.standard_normal(s).astype(dtype) for k, s in inputs.items()}
    emulator.run(example, kernel, arrays, [], sizes=sizes, racecheck=True)


def test_misaligned_vector_copy():
    msg = error_of("misaligned_copy", {"a": np.zeros(8, np.float32)}, ["b"])
    assert located(msg, 72, 5), msg
    assert "misaligned copy_16: element offsets 0 and 1 must be multiples of 4" in msg


def test_vector_copy_across_rows():
    # In range of the buffer as a whole, but copy_vec4 copies within a row.
    msg = error_of("copy_across_rows", {"a": np.zeros((2, 6), np.float32)}, ["b"])
    assert located(msg, 78, 24), msg
    assert "out-of-bounds copy_vec4 source (its fourth element) of 'a': index 7 of dimension 1 (size 6)" in msg
