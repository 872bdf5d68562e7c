"""The emulator follows CUDA: f16/bf16 conversions and arithmetic round to
nearest even (bit-exact against numpy), integers wrap and truncate like the
device, float -> int saturates, shuffles and atomics behave per warp/block."""
import numpy as np

import emulator

SEM = "tests/emu/semantics.hds"
rng = np.random.default_rng(7)


def special_floats():
    edge = np.array([0.0, -0.0, 1.0, 65504.0, 65519.99, 65520.0, 1e-8, 5.96e-8, 2.98e-8, 2.99e-8, 6.1e-5,
                     1.0 + 2**-11, 1.0 + 3 * 2**-11, np.inf, -np.inf, 3.4e38, -1.5e-45], dtype=np.float32)
    return np.concatenate([edge, (rng.standard_normal(4000) * 10.0 ** rng.integers(-9, 6, 4000)).astype(np.float32)])


def test_f32_to_f16_rounds_like_the_device():
    x = special_floats()
    y = emulator.run(SEM, "to_f16", {"x": x}, ["y"])["y"]
    assert y.dtype == np.float16
    with np.errstate(over="ignore"):  # values past 65520 round to infinity, as intended
        expected = x.astype(np.float16)
    np.testing.assert_array_equal(y.view(np.uint16), expected.view(np.uint16))


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """The bits of f32 values rounded to bf16 (to nearest even)."""
    bits = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def test_f32_to_bf16_rounds_to_nearest_even():
    x = special_floats()
    y = emulator.run(SEM, "to_bf16", {"x": x}, ["y"])["y"]
    np.testing.assert_array_equal(y.view(np.uint16), bf16_bits(x))


def test_f16_arithmetic_is_correctly_rounded():
    a = (rng.standard_normal(3000) * 30).astype(np.float16)
    b = (rng.standard_normal(3000) * 30).astype(np.float16)
    b[b == 0] = 1
    out = emulator.run(SEM, "f16_ops", {"a": a, "b": b}, ["s", "p", "q"])
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    # Exact result in float64, rounded once to f16 (numpy rounds float64 -> f16 to nearest even).
    np.testing.assert_array_equal(out["s"].view(np.uint16), (a64 + b64).astype(np.float16).view(np.uint16))
    np.testing.assert_array_equal(out["p"].view(np.uint16), (a64 * b64).astype(np.float16).view(np.uint16))
    np.testing.assert_array_equal(out["q"].view(np.uint16), (a64 / b64).astype(np.float16).view(np.uint16))


def test_integer_arithmetic_is_bit_exact():
    a = rng.integers(-2**31, 2**31, 5000, dtype=np.int64).astype(np.int32)
    b = rng.integers(-2**31, 2**31, 5000, dtype=np.int64).astype(np.int32)
    b[:10] = [1, -1, 7, -7, 3, 2**31 - 1, -2**31, 31, 32, 5]
    a[:10] = [-2**31, -2**31, -20, 20, -1, 5, 5, -8, -8, 2**31 - 1]
    b[b == 0] = 3
    out = emulator.run(SEM, "int_ops", {"a": a, "b": b}, ["add", "mul", "quo", "rem", "shr", "xr"])
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    wrap = lambda v: ((v + 2**31) % 2**32 - 2**31).astype(np.int32)  # noqa: E731
    np.testing.assert_array_equal(out["add"], wrap(a64 + b64))
    np.testing.assert_array_equal(out["mul"], wrap(a64 * b64))
    quo = np.trunc(a64 / b64).astype(np.int64)  # C truncates toward zero
    quo[(a64 == -2**31) & (b64 == -1)] = -2**31
    for k in range(len(a)):  # exact integer division (float64 rounding above is not safe near 2^31)
        if not (a64[k] == -2**31 and b64[k] == -1):
            q = abs(int(a64[k])) // abs(int(b64[k]))
            quo[k] = q if (a64[k] < 0) == (b64[k] < 0) else -q
    np.testing.assert_array_equal(out["quo"], wrap(quo))
    np.testing.assert_array_equal(out["rem"], wrap(a64 - quo * b64))
    np.testing.assert_array_equal(out["shr"], a >> (b & 31))
    np.testing.assert_array_equal(out["xr"], a.view(np.uint32) ^ np.uint32(0xFFFFFFFF))


def test_float_to_int_truncates_and_saturates():
    x = np.array([1.9, -1.9, 0.5, -0.5, 3e9, -3e9, np.nan, np.inf, -np.inf, 2147483520.0], dtype=np.float32)
    y = emulator.run(SEM, "f32_to_i32", {"x": x}, ["y"])["y"]
    np.testing.assert_array_equal(y, [1, -1, 0, 0, 2**31 - 1, -2**31, 0, 2**31 - 1, -2**31, 2147483520])


def test_shuffles_exchange_within_each_warp():
    out = emulator.run(SEM, "shuffles", {}, ["out"], sizes={"N": 64})["out"]
    t = np.arange(64)
    lane, base = t % 32, t - t % 32
    np.testing.assert_array_equal(out[:, 0], base + (lane ^ 5))
    np.testing.assert_array_equal(out[:, 1], np.where(lane + 3 < 32, t + 3, t))
    np.testing.assert_array_equal(out[:, 2], np.where(lane - 2 >= 0, t - 2, t))
    np.testing.assert_array_equal(out[:, 3], base + 7)


def test_atomics_count_every_update():
    x = rng.integers(0, 1000, 1001).astype(np.int32)
    counts = emulator.run(SEM, "histogram", {"x": x}, ["counts"])["counts"]
    np.testing.assert_array_equal(counts, np.bincount(x % 16, minlength=16))


def test_vector_copies():
    x = np.arange(296, dtype=np.float16)
    out = emulator.run("tests/emu/vector_copy.hds", "scale_vec", {"x": x}, ["y"])["y"]
    np.testing.assert_array_equal(out, x * 2)
    v = np.arange(64, dtype=np.float32)
    out = emulator.run("tests/emu/vector_copy.hds", "through_shared", {"x": v}, ["y"], racecheck=True)["y"]
    np.testing.assert_array_equal(out, v[::-1])


def test_sigmoid_flushes_results_below_normal():
    """sigmoid is 1 / (1 + e^-x) in f64 rounded once, 0 below 2^-126 (rcp.approx.ftz), for f32
    and for bf16 (computed in f32, same exponent range)."""
    x = np.array([0.0, 2.5, -3.0, 30.0, -87.0, -87.5, -100.0, np.inf, -np.inf, np.nan], dtype=np.float32)
    out = emulator.run(SEM, "sigmoid_f32", {"x": x}, ["y", "h"])
    with np.errstate(over="ignore"):
        expected = 1.0 / (1.0 + np.exp(-x.astype(np.float64)))
    expected[expected < 2.0**-126] = 0.0
    np.testing.assert_array_equal(out["y"], expected.astype(np.float32))
    assert out["y"][4] > 0 and out["y"][5] == 0.0 and out["y"][6] == 0.0
    xb = (bf16_bits(x).astype(np.uint32) << 16).view(np.float32).astype(np.float64)  # bf16(x)
    with np.errstate(over="ignore"):
        hb = (1.0 / (1.0 + np.exp(-xb))).astype(np.float32)
    hb[hb < 2.0**-126] = 0.0
    bits = bf16_bits(hb)
    bits[np.isnan(hb)] = out["h"][np.isnan(hb)]  # NaN: any NaN's bits
    np.testing.assert_array_equal(out["h"], bits)
    assert out["h"][6] == 0 and np.isnan((out["h"][9:].astype(np.uint32) << 16).view(np.float32)).all()


def test_exp2_fast_flushes_subnormal_results():
    """exp2_fast is 2^x where the result is normal, 0 below 2^-126 (ex2.approx.ftz); f16
    computes in f32 and rounds once."""
    x = np.array([0.0, 1.5, -3.25, 20.0, -125.0, -126.0, -126.5, -140.0, -1e30, 130.0], dtype=np.float32)
    out = emulator.run(SEM, "exp2_fast_f32", {"x": x}, ["y", "h"])
    expected = np.exp2(x.astype(np.float64))
    expected[expected < 2.0**-126] = 0.0
    with np.errstate(over="ignore"):  # 2^130 is past f32 (inf), 2^20 past f16
        np.testing.assert_allclose(out["y"], expected.astype(np.float32), rtol=1e-7)
        assert out["y"][6] == 0.0 and out["y"][5] == np.float32(2.0**-126)
        np.testing.assert_array_equal(out["h"], np.exp2(x.astype(np.float16).astype(np.float64)).astype(np.float16))
