// hds/math.h — math built-ins that CUDA's library does not have in the form hds
// needs. Included by hds/runtime.h.
#pragma once

#include <cuda_runtime.h>

namespace hds {

// gelu(x) = x * Phi(x), Phi the standard normal CDF: the erf form of GELU
// (torch.nn.functional.gelu's default), as the `gelu` built-in.
//
// With t = |x|, Phi(-t) = 2^q(t) for a degree-9 polynomial q fitted to
// log2 Phi(-t) on [0, 6] (scripts/fit_gelu.py), and then
//     gelu(x) = max(x, 0) - t * Phi(-t)
// for both signs, with no cancellation for x < 0 (where x * (1 + erf(x / sqrt 2))
// subtracts nearly equal numbers). Beyond t = 6 the term is 0. Against float64, in
// f32: at most 2.4e-7 absolute and 2.8e-6 relative error where |gelu(x)| > 1e-6;
// the erf formula in f32 has 4.5e-7 absolute and up to 7e-2 relative error in the
// negative tail. About 16 instructions, where erff alone takes about 25 and branches.
__device__ __forceinline__ float gelu(float x) {
    constexpr float kCoef[10] = {// highest degree first
                                 4.988471503e-08f,  -1.354205892e-06f, 1.343837266e-05f,  -3.095328066e-05f,
                                 -6.051787641e-04f, 7.840081118e-03f,  -5.319606140e-02f, -4.588977396e-01f,
                                 -1.151157737e+00f, -9.999985099e-01f};
    const float t = fabsf(x);
    const float u = fminf(t, 6.0f);
    float q = kCoef[0];
#pragma unroll
    for (int i = 1; i < 10; ++i) q = fmaf(q, u, kCoef[i]);
    float tail;  // Phi(-t); ex2.approx: 2 ulp, and q >= -30 stays far from subnormals
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(tail) : "f"(q));
    tail = t < 6.0f ? tail : 0.0f;  // NaN and infinities too: gelu(+inf) = inf, gelu(NaN) = NaN
    return fmaf(-u, tail, x < 0.0f ? 0.0f : x);
}

__device__ __forceinline__ double gelu(double x) {
    return 0.5 * x * erfc(-x * 0.70710678118654752440);
}

// exp2_fast(x) = 2^x as the special function unit computes it: one MUFU.EX2 where exp2f
// adds instructions to keep subnormal results (2 ulp; results below 2^-126 are 0, as
// softmax weights may be). f64 has no such unit: exp2.
__device__ __forceinline__ float exp2_fast(float x) {
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ double exp2_fast(double x) {
    return exp2(x);
}

// sigmoid(x) = 1 / (1 + e^-x), as the `sigmoid` built-in (stdlib's sigmoid and silu): e^-x is
// 2^(-x log2 e) on the special function unit, and so is the reciprocal (rcp.approx.ftz, 1 ulp),
// where expf and a division take some 40 instructions (the silu epilogue of an MLP's gate
// projection spent a fifth of its time there). Relative error at most 4 ulp + |x| 2^-23 (the
// rounding of x log2 e); results below 2^-126 (x < -87.3) are 0; sigmoid(-inf) = 0,
// sigmoid(inf) = 1, NaN stays NaN. torch.compile's generated sigmoid uses the same two units.
__device__ __forceinline__ float sigmoid(float x) {
    float r;
    asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(1.0f + exp2_fast(x * -1.44269504088896341f)));
    return r;
}

__device__ __forceinline__ double sigmoid(double x) {
    return 1.0 / (1.0 + exp(-x));
}

}  // namespace hds
