// const_fold.cpp — constant folding with hds (C-like) semantics.
#include "frontend/const_fold.h"

#include <cmath>

namespace hds {

namespace {
// The comparison operators on any ordered type; nullopt for other operators.
template <typename T>
std::optional<bool> compare(BinaryOp op, T x, T y) {
    switch (op) {
        case BinaryOp::Lt:
            return x < y;
        case BinaryOp::Le:
            return x <= y;
        case BinaryOp::Gt:
            return x > y;
        case BinaryOp::Ge:
            return x >= y;
        case BinaryOp::Eq:
            return x == y;
        case BinaryOp::Ne:
            return x != y;
        default:
            return std::nullopt;
    }
}
}  // namespace

double round_to_float(double v, ScalarType t) {
    if (t == ScalarType::F64 || !std::isfinite(v) || v == 0) return v;
    if (t == ScalarType::F32) return static_cast<double>(static_cast<float>(v));
    // f16: 11 significant bits, normal exponents from -14, largest 65504;
    // bf16: 8 significant bits, f32's exponent range.
    int bits = t == ScalarType::F16 ? 11 : 8;
    int min_exp = t == ScalarType::F16 ? -14 : -126;
    double max = t == ScalarType::F16 ? 65504.0 : std::ldexp(255.0, 120);  // (2 - 2^-7) * 2^127
    int e = std::ilogb(v);
    if (e < min_exp) e = min_exp;  // subnormal: the spacing stays that of the smallest exponent
    double ulp = std::ldexp(1.0, e - (bits - 1));
    double r = std::nearbyint(v / ulp) * ulp;
    // Past the largest value by half a spacing or more rounds to infinity.
    double top_ulp = std::ldexp(1.0, std::ilogb(max) - (bits - 1));
    if (std::fabs(r) > max || std::fabs(v) >= max + top_ulp / 2) return std::copysign(INFINITY, v);
    return r;
}

ConstValue convert_const(const ConstValue& v, ScalarType t) {
    if (t == ScalarType::Bool) return ConstValue::make_bool(v.kind == ConstValue::Kind::Float ? v.f != 0 : v.i != 0);
    if (is_float(t)) return ConstValue::make_float(v.as_double());
    if (v.kind == ConstValue::Kind::Float) {
        double f = std::trunc(v.f);
        if (!(f > -9.2e18 && f < 9.2e18)) f = 0;  // out of range: undefined in C; pick 0
        return ConstValue::make_int(wrap_int(static_cast<int64_t>(f), t));
    }
    return ConstValue::make_int(wrap_int(v.i, t));
}

std::optional<ConstValue> fold_unary(UnaryOp op, const ConstValue& a) {
    switch (op) {
        case UnaryOp::Neg:
            if (a.kind == ConstValue::Kind::Float) return ConstValue::make_float(-a.f);
            if (a.kind == ConstValue::Kind::Int)
                return ConstValue::make_int(static_cast<int64_t>(-static_cast<uint64_t>(a.i)));
            return std::nullopt;
        case UnaryOp::Not:
            if (a.kind == ConstValue::Kind::Bool) return ConstValue::make_bool(!a.i);
            return std::nullopt;
        case UnaryOp::BitNot:
            if (a.kind == ConstValue::Kind::Int) return ConstValue::make_int(~a.i);
            return std::nullopt;
    }
    return std::nullopt;
}

std::optional<ConstValue> fold_binary(BinaryOp op, const ConstValue& a, const ConstValue& b, const SemaType& t,
                                      bool* div_by_zero) {
    using K = ConstValue::Kind;
    if (op == BinaryOp::And || op == BinaryOp::Or) {
        if (a.kind != K::Bool || b.kind != K::Bool) return std::nullopt;
        return ConstValue::make_bool(op == BinaryOp::And ? (a.i && b.i) : (a.i || b.i));
    }
    bool is_fp = t.is_float_like();
    bool is_unsigned = t.kind == SemaType::Kind::Scalar && is_unsigned_int(t.scalar);
    ScalarType wrap_type = t.kind == SemaType::Kind::Scalar ? t.scalar : ScalarType::I64;
    if (is_fp) {
        double x = a.as_double(), y = b.as_double();
        switch (op) {
            case BinaryOp::Add:
                return ConstValue::make_float(x + y);
            case BinaryOp::Sub:
                return ConstValue::make_float(x - y);
            case BinaryOp::Mul:
                return ConstValue::make_float(x * y);
            case BinaryOp::Div:
                return ConstValue::make_float(x / y);
            default:
                if (auto c = compare(op, x, y)) return ConstValue::make_bool(*c);
                return std::nullopt;
        }
    }
    int64_t x = a.i, y = b.i;
    uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    auto make = [&](int64_t v) { return ConstValue::make_int(wrap_int(v, wrap_type)); };
    switch (op) {
        case BinaryOp::Add:
            return make(static_cast<int64_t>(ux + uy));
        case BinaryOp::Sub:
            return make(static_cast<int64_t>(ux - uy));
        case BinaryOp::Mul:
            return make(static_cast<int64_t>(ux * uy));
        case BinaryOp::Div:
        case BinaryOp::Mod:
            if (y == 0) {
                *div_by_zero = true;
                return std::nullopt;
            }
            if (is_unsigned) return make(static_cast<int64_t>(op == BinaryOp::Div ? ux / uy : ux % uy));
            if (x == INT64_MIN && y == -1) return make(op == BinaryOp::Div ? x : 0);
            return make(op == BinaryOp::Div ? x / y : x % y);
        case BinaryOp::Shl:
            return y < 0 || y > 63 ? std::nullopt : std::optional(make(static_cast<int64_t>(ux << y)));
        case BinaryOp::Shr:
            if (y < 0 || y > 63) return std::nullopt;
            return make(is_unsigned ? static_cast<int64_t>(ux >> y) : x >> y);
        case BinaryOp::BitAnd:
            return make(x & y);
        case BinaryOp::BitOr:
            return make(x | y);
        case BinaryOp::BitXor:
            return make(x ^ y);
        default: {
            auto c = is_unsigned ? compare(op, ux, uy) : compare(op, x, y);
            if (c) return ConstValue::make_bool(*c);
            return std::nullopt;
        }
    }
}

}  // namespace hds
