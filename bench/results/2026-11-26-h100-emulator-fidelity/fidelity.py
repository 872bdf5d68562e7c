"""The CPU emulator against the GPU on the same inputs (issue 26): each kernel runs through
the GPU harness (hdsc + nvcc, tests/gpu/harness.py) and through `hdsc run`, and the outputs
are compared bit by bit. Data movement (TMA boxes read back as they lie in shared memory: the
swizzle) must agree exactly; tensor-core sums may differ in their last bits (PTX leaves the
order and precision of the f32 additions open).

    HDSC=.devcarry/bin/hdsc LD_LIBRARY_PATH=.devcarry/lib python3 fidelity.py OUT_DIR
"""
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path[:0] = [str(ROOT / "tests" / "gpu"), str(ROOT / "tests" / "emu")]
import emulator  # noqa: E402
import harness  # noqa: E402

rng = np.random.default_rng(26)
F16 = np.float16


def bits(x: np.ndarray) -> np.ndarray:
    """Signed-magnitude bit patterns as ordered integers (ulp distances)."""
    width = {2: np.int16, 4: np.int32}[x.dtype.itemsize]
    b = x.view(width).astype(np.int64)
    return np.where(b < 0, -(b & (2 ** (8 * x.dtype.itemsize - 1) - 1)), b)


def compare(name, source, kernel, inputs, out, shape, dtype, sizes, scalars=None):
    lib = harness.build(source)
    gpu = lib.run(kernel, inputs, {out: (shape, dtype)}, sizes, scalars)[out]
    cpu = emulator.run(source, kernel, inputs, [out], scalars=scalars)[out].astype(dtype)
    ulps = np.abs(bits(gpu) - bits(cpu))
    row = {"case": name, "elements": int(gpu.size), "identical": int((ulps == 0).sum()), "max_ulps": int(ulps.max()),
           "max_abs_diff": float(np.abs(gpu.astype(np.float64) - cpu.astype(np.float64)).max()),
           "max_abs": float(np.abs(gpu.astype(np.float64)).max())}
    print(json.dumps(row), flush=True)
    return row


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp")
    rows = []
    hop = "tests/emu/hopper.hds"
    a = rng.standard_normal((20, 80)).astype(F16)
    for k, cols in (("tma_box_128", 64), ("tma_box_64", 32), ("tma_box_32", 16)):
        for r0, c0 in ((5, 8), (17, 72)):
            rows.append(compare(f"{k} at ({r0}, {c0})", hop, k, {"a": a}, "out", (8, cols), F16, {"R": 20, "N": 80},
                                {"r0": r0, "c0": c0}))
    for n in (64, 256):
        x, y = rng.standard_normal((64, 64)).astype(F16), rng.standard_normal((64, n)).astype(F16)
        rows.append(compare(f"wgmma_tile_{n}", hop, f"wgmma_tile_{n}", {"a": x, "b": y}, "c", (64, n), np.float32, {}))
    for kernel, (m, k, n) in (("matmul_wgmma_f16", (200, 264, 264)), ("matmul_wgmma_c2_f16", (300, 128, 520)),
                              ("matmul_wgmma_f16_small", (77, 1000, 136))):
        x, y = rng.standard_normal((m, k)).astype(F16), rng.standard_normal((k, n)).astype(F16)
        rows.append(compare(f"{kernel} {m}x{k}x{n}", "examples/matmul_hopper.hds", kernel, {"a": x, "b": y}, "c",
                            (m, n), F16, {"M": m, "K": k, "N": n}))
    x, y = rng.standard_normal((130, 200)).astype(F16), rng.standard_normal((200, 129)).astype(F16)
    rows.append(compare("matmul_mma_f16 130x200x129", "examples/matmul_tc.hds", "matmul_mma_f16", {"a": x, "b": y},
                        "c", (130, 129), F16, {"M": 130, "K": 200, "N": 129}))
    q, kk, v = (rng.standard_normal(s).astype(F16) for s in ((2, 4, 200, 64), (2, 2, 333, 64), (2, 2, 333, 64)))
    rows.append(compare("attn_d64 B2 H4 G2 L200 M333", hop, "attn_d64", {"q": q, "k": kk, "v": v}, "o",
                        (2, 4, 200, 64), F16, {"B": 2, "H": 4, "G": 2, "L": 200, "M": 333}))
    (out / "fidelity.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
