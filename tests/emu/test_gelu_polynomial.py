"""The `gelu` built-in's f32 polynomial (runtime/hds/math.h), evaluated in numpy's f32 the way
scripts/fit_gelu.py models it, against x * Phi(x) in float64: the error bounds the header states.
(tests/gpu/test_gpu_ops.py::test_gelu_f32_accuracy checks the same on the GPU.)"""
import importlib.util
import math
import re
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def fit_gelu():
    spec = importlib.util.spec_from_file_location("fit_gelu", ROOT / "scripts" / "fit_gelu.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_coefficients() -> np.ndarray:
    text = (ROOT / "runtime" / "hds" / "math.h").read_text()
    body = re.search(r"kCoef\[10\] = \{(.*?)\};", text, re.S).group(1)
    body = re.sub(r"//[^\n]*", "", body)
    return np.array([float(c.strip().rstrip("f")) for c in body.split(",") if c.strip()], dtype=np.float32)


def test_header_polynomial_meets_its_stated_bounds():
    fit = fit_gelu()
    coef = header_coefficients()
    assert len(coef) == 10
    x = np.concatenate([np.linspace(-8, 8, 160001), np.linspace(-1e-3, 1e-3, 2001)]).astype(np.float32)
    exact = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2.0)) for v in x.astype(np.float64)])
    abs_err, rel_err = fit.errors(fit.gelu_f32(x, coef), exact)
    assert abs_err <= 2.4e-7, abs_err
    assert rel_err <= 2.8e-6, rel_err
