// half.h — IEEE binary16 (f16) and bfloat16 rounding, bit-exact with CUDA's
// round-to-nearest-even conversions (__float2half_rn, __float2bfloat16_rn).
// Operations on f16/bf16 are computed in double, where sums and products of
// two such values are exact, and rounded once: the correctly rounded result
// the hardware gives.
#pragma once

#include <cmath>
#include <cstdint>

namespace hds::emu {

// Rounds d to a binary format with `frac` fraction bits and exponent bias
// `bias` (ties to even, overflow to infinity, gradual underflow); returns the bits.
inline uint32_t round_to_format(double d, int frac, int bias, int exp_bits) {
    const uint32_t sign = std::signbit(d) ? 1u << (frac + exp_bits) : 0;
    const uint32_t inf = ((1u << exp_bits) - 1) << frac;
    if (std::isnan(d)) return sign | inf | (1u << (frac - 1));
    double a = std::fabs(d);
    if (std::isinf(a)) return sign | inf;
    if (a == 0) return sign;
    int e;
    std::frexp(a, &e);
    e -= 1;                                              // a in [2^e, 2^(e+1))
    const int min_e = 1 - bias;                          // smallest normal exponent
    if (e < min_e) e = min_e;                            // subnormals share it
    double r = std::nearbyint(std::ldexp(a, frac - e));  // ties to even
    if (r == 0) return sign;
    uint64_t m = static_cast<uint64_t>(r);
    if (m >= (2ull << frac)) {  // carried into the next binade
        m >>= 1;
        ++e;
    }
    if (e + bias >= (1 << exp_bits) - 1) return sign | inf;
    if (m < (1ull << frac)) return sign | static_cast<uint32_t>(m);  // subnormal
    return sign | (static_cast<uint32_t>(e + bias) << frac) | static_cast<uint32_t>(m - (1ull << frac));
}

inline double from_format(uint32_t bits, int frac, int bias, int exp_bits) {
    const double sign = (bits >> (frac + exp_bits)) & 1 ? -1.0 : 1.0;
    const uint32_t e = (bits >> frac) & ((1u << exp_bits) - 1);
    const uint32_t m = bits & ((1u << frac) - 1);
    if (e == (1u << exp_bits) - 1) return m ? std::nan("") : sign * INFINITY;
    if (e == 0) return sign * std::ldexp(static_cast<double>(m), 1 - bias - frac);
    return sign * std::ldexp(static_cast<double>(m + (1u << frac)), static_cast<int>(e) - bias - frac);
}

inline uint16_t to_half(double d) {
    return static_cast<uint16_t>(round_to_format(d, 10, 15, 5));
}
inline double half_to_double(uint16_t h) {
    return from_format(h, 10, 15, 5);
}
inline uint16_t to_bf16(double d) {
    return static_cast<uint16_t>(round_to_format(d, 7, 127, 8));
}
inline double bf16_to_double(uint16_t b) {
    return from_format(b, 7, 127, 8);
}

}  // namespace hds::emu
