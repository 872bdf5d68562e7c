#!/usr/bin/env python3
"""Fits the polynomial that runtime/hds/math.h evaluates for gelu(x) = x * Phi(x).

For t = |x| <= T, Phi(-t) = 2^q(t) with q a polynomial of degree DEG in t, fitted
(near-minimax: Lawson's iteratively reweighted least squares on a Chebyshev basis)
to log2 Phi(-t); an error in q is a relative error in Phi(-t). Then
    gelu(x) = max(x, 0) - t * Phi(-t),
exact for both signs: x * Phi(x) = x - x * Phi(-x) for x > 0 and -t * Phi(-t) for x < 0.
Beyond T the term is 0 (|gelu(-6)| < 6e-9, below f16's smallest subnormal / 2).

Prints the coefficients (highest first, as the header's Horner scheme uses them) and
the errors of that scheme evaluated in f32, next to those of the erf formula in f32
(0.5 * x * (1 + erf(x / sqrt 2)), what torch computes), both against float64.
    .venv/bin/python scripts/fit_gelu.py
"""
import math

import numpy as np

T, DEG = 6.0, 9
f32 = np.float32


def phi_neg(t):
    return np.array([0.5 * math.erfc(v / math.sqrt(2.0)) for v in t])


def fit():
    t = np.linspace(0.0, T, 60001)
    q = np.log2(phi_neg(t))
    basis = np.polynomial.chebyshev.chebvander(2.0 * t / T - 1.0, DEG)
    w = np.ones_like(t)
    for _ in range(40):
        c, *_ = np.linalg.lstsq(basis * np.sqrt(w)[:, None], q * np.sqrt(w), rcond=None)
        w *= np.abs(basis @ c - q)
        w /= w.sum()
    poly = np.polynomial.Chebyshev(c, domain=[0.0, T]).convert(kind=np.polynomial.Polynomial)
    return poly.coef.astype(f32)[::-1]  # highest degree first


def gelu_f32(x, coef):
    t = np.abs(x)
    u = np.minimum(t, f32(T))
    q = np.full_like(u, coef[0])
    for c in coef[1:]:
        q = (q * u + c).astype(f32)
    e = np.where(t < f32(T), np.exp2(q).astype(f32), f32(0))
    return (np.where(x < 0, f32(0), x) - u * e).astype(f32)


def errors(y, exact):
    ae = np.abs(y.astype(np.float64) - exact)
    big = np.abs(exact) > 1e-6
    return ae.max(), (ae[big] / np.abs(exact[big])).max()


def main():
    coef = fit()
    for c in coef:
        print(f"    {float(c):.9e}f,  // {float(c).hex()}")
    x = np.concatenate([np.linspace(-8, 8, 400001), np.linspace(-1e-3, 1e-3, 2001)]).astype(f32)
    exact = np.array([v * 0.5 * math.erfc(-v / math.sqrt(2.0)) for v in x.astype(np.float64)])
    erf32 = np.array([math.erf(float(v)) for v in x * f32(1 / math.sqrt(2.0))]).astype(f32)
    formula = ((x * f32(0.5)) * (f32(1) + erf32)).astype(f32)
    for name, y in (("polynomial", gelu_f32(x, coef)), ("erf formula", formula)):
        a, r = errors(y, exact)
        print(f"{name:12s} max abs error {a:.2e}, max rel error {r:.2e} where |gelu| > 1e-6")


if __name__ == "__main__":
    main()
