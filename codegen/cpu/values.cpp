// values.cpp — scalar semantics (see values.h).
#include "codegen/cpu/values.h"

#include <cmath>
#include <limits>

#include "codegen/cpu/half.h"

namespace hds::emu {

namespace {

template <typename I>
int64_t saturate(double d) {
    if (std::isnan(d)) return 0;
    if (d <= static_cast<double>(std::numeric_limits<I>::min())) return std::numeric_limits<I>::min();
    if (d >= static_cast<double>(std::numeric_limits<I>::max()))
        return static_cast<int64_t>(std::numeric_limits<I>::max());
    return static_cast<int64_t>(static_cast<I>(std::trunc(d)));
}
// Arithmetic and comparisons on a float type T; `make` turns a T result into a Value.
template <typename T, typename Make>
Value float_binary(ir::BinOp op, T x, T y, Make make) {
    using ir::BinOp;
    switch (op) {
        case BinOp::Add:
            return make(x + y);
        case BinOp::Sub:
            return make(x - y);
        case BinOp::Mul:
            return make(x * y);
        case BinOp::Div:
            return make(x / y);
        case BinOp::Lt:
            return Value{x < y};
        case BinOp::Le:
            return Value{x <= y};
        case BinOp::Gt:
            return Value{x > y};
        case BinOp::Ge:
            return Value{x >= y};
        case BinOp::Eq:
            return Value{x == y};
        case BinOp::Ne:
            return Value{x != y};
        default:
            return make(T(0));  // the checker allows no other operator on floats
    }
}

// x * Phi(x), exactly as far as double goes (the GPU's hds::gelu approximates it for f32).
double gelu(double x) {
    return 0.5 * x * std::erfc(-x * 0.70710678118654752440);
}
}  // namespace

double to_double(Value v, ScalarType t) {
    switch (t) {
        case ScalarType::F32:
            return v.f;
        case ScalarType::F64:
            return v.d;
        case ScalarType::F16:
            return half_to_double(static_cast<uint16_t>(v.i));
        case ScalarType::BF16:
            return bf16_to_double(static_cast<uint16_t>(v.i));
        case ScalarType::U64:
            return static_cast<double>(static_cast<uint64_t>(v.i));
        default:
            return static_cast<double>(v.i);
    }
}

Value from_double(double d, ScalarType t) {
    Value v{};
    switch (t) {
        case ScalarType::F32:
            v.f = static_cast<float>(d);
            break;
        case ScalarType::F64:
            v.d = d;
            break;
        case ScalarType::F16:
            v.i = to_half(d);
            break;
        case ScalarType::BF16:
            v.i = to_bf16(d);
            break;
        case ScalarType::Bool:
            v.i = d != 0;
            break;
        case ScalarType::I8:
            v.i = saturate<int8_t>(d);
            break;
        case ScalarType::I16:
            v.i = saturate<int16_t>(d);
            break;
        case ScalarType::I32:
            v.i = saturate<int32_t>(d);
            break;
        case ScalarType::I64:
            v.i = saturate<int64_t>(d);
            break;
        case ScalarType::U8:
            v.i = saturate<uint8_t>(d);
            break;
        case ScalarType::U32:
            v.i = saturate<uint32_t>(d);
            break;
        case ScalarType::U64:
            v.i = static_cast<int64_t>(d <= 0 || std::isnan(d)      ? 0
                                       : d >= 1.8446744073709552e19 ? UINT64_MAX
                                                                    : static_cast<uint64_t>(d));
            break;
    }
    return v;
}

Value convert(Value v, ScalarType from, ScalarType to) {
    if (from == to) return v;
    if (is_int(from) || from == ScalarType::Bool) {
        if (is_int(to)) return Value{wrap_int(v.i, to)};
        if (to == ScalarType::Bool) return Value{v.i != 0};
        if (from == ScalarType::U64) return from_double(static_cast<double>(static_cast<uint64_t>(v.i)), to);
        if (to == ScalarType::F32) {
            Value r{};
            r.f = static_cast<float>(v.i);  // one rounding, as cvt.rn.f32.s64
            return r;
        }
        return from_double(static_cast<double>(v.i), to);
    }
    if (from == ScalarType::F32 && to == ScalarType::F64) {
        Value r{};
        r.d = v.f;
        return r;
    }
    return from_double(to_double(v, from), to);
}

std::optional<Value> apply_binary(ir::BinOp op, ScalarType t, Value a, Value b) {
    using ir::BinOp;
    if (t == ScalarType::Bool || is_int(t)) {
        bool u = is_unsigned_int(t);
        uint64_t ux = static_cast<uint64_t>(a.i), uy = static_cast<uint64_t>(b.i);
        int64_t x = a.i, y = b.i;
        switch (op) {
            case BinOp::Add:
                return Value{wrap_int(static_cast<int64_t>(ux + uy), t)};
            case BinOp::Sub:
                return Value{wrap_int(static_cast<int64_t>(ux - uy), t)};
            case BinOp::Mul:
                return Value{wrap_int(static_cast<int64_t>(ux * uy), t)};
            case BinOp::Div:
            case BinOp::Mod:
                if (y == 0) return std::nullopt;
                if (u) return Value{wrap_int(static_cast<int64_t>(op == BinOp::Div ? ux / uy : ux % uy), t)};
                if (x == INT64_MIN && y == -1) return Value{op == BinOp::Div ? x : 0};
                return Value{wrap_int(op == BinOp::Div ? x / y : x % y, t)};
            case BinOp::Shl:
                return Value{wrap_int(static_cast<int64_t>(ux << (uy & 63)), t)};
            case BinOp::Shr:
                return Value{u ? static_cast<int64_t>(ux >> (uy & 63)) : x >> (uy & 63)};
            case BinOp::BitAnd:
                return Value{x & y};
            case BinOp::BitOr:
                return Value{x | y};
            case BinOp::BitXor:
                return Value{wrap_int(x ^ y, t)};
            case BinOp::Lt:
                return Value{u ? ux < uy : x < y};
            case BinOp::Le:
                return Value{u ? ux <= uy : x <= y};
            case BinOp::Gt:
                return Value{u ? ux > uy : x > y};
            case BinOp::Ge:
                return Value{u ? ux >= uy : x >= y};
            case BinOp::Eq:
                return Value{x == y};
            case BinOp::Ne:
                return Value{x != y};
            case BinOp::And:
                return Value{x && y};
            case BinOp::Or:
                return Value{x || y};
        }
    }
    if (t == ScalarType::F32) {
        return float_binary(op, a.f, b.f, [](float f) {
            Value v{};
            v.f = f;
            return v;
        });
    }
    // f64 directly; f16/bf16 exactly in double, rounded once.
    return float_binary(op, to_double(a, t), to_double(b, t), [t](double d) { return from_double(d, t); });
}

Value apply_unary(ir::UnOp op, ScalarType t, Value a) {
    switch (op) {
        case ir::UnOp::Not:
            return Value{!a.i};
        case ir::UnOp::BitNot:
            return Value{wrap_int(~a.i, t)};
        case ir::UnOp::Neg:
            if (is_int(t)) return Value{wrap_int(static_cast<int64_t>(0ull - static_cast<uint64_t>(a.i)), t)};
            if (t == ScalarType::F32) {
                Value r{};
                r.f = -a.f;
                return r;
            }
            return from_double(-to_double(a, t), t);
    }
    return a;
}

Value apply_math(Builtin b, ScalarType t, const Value* args) {
    if (is_int(t)) {
        bool u = is_unsigned_int(t);
        int64_t x = args[0].i;
        int64_t y = b == Builtin::Min || b == Builtin::Max ? args[1].i : 0;
        auto less = [u](int64_t p, int64_t q) {
            return u ? static_cast<uint64_t>(p) < static_cast<uint64_t>(q) : p < q;
        };
        if (b == Builtin::Min) return Value{less(y, x) ? y : x};
        if (b == Builtin::Max) return Value{less(x, y) ? y : x};
        return Value{wrap_int(x < 0 ? static_cast<int64_t>(0ull - static_cast<uint64_t>(x)) : x, t)};  // abs
    }
    if (t == ScalarType::F32) {
        float x = args[0].f, r = 0;
        switch (b) {
            case Builtin::Min:
                r = std::fmin(x, args[1].f);
                break;
            case Builtin::Max:
                r = std::fmax(x, args[1].f);
                break;
            case Builtin::Abs:
                r = std::fabs(x);
                break;
            case Builtin::Exp:
                r = std::exp(x);
                break;
            case Builtin::Exp2:
                r = std::exp2(x);
                break;
            case Builtin::Exp2Fast:  // ex2.approx.ftz: subnormal results flush to 0
                r = std::exp2(x);
                r = std::fabs(r) < 0x1p-126f ? 0.0f : r;
                break;
            case Builtin::Log:
                r = std::log(x);
                break;
            case Builtin::Log2:
                r = std::log2(x);
                break;
            case Builtin::Sqrt:
                r = std::sqrt(x);
                break;
            case Builtin::Rsqrt:
                r = 1.0f / std::sqrt(x);
                break;
            case Builtin::Tanh:
                r = std::tanh(x);
                break;
            case Builtin::Erf:
                r = std::erf(x);
                break;
            case Builtin::Gelu:
                r = static_cast<float>(gelu(x));
                break;
            case Builtin::Sigmoid:  // rcp.approx.ftz: results below 2^-126 are 0
                r = static_cast<float>(1.0 / (1.0 + std::exp(-static_cast<double>(x))));
                r = r < 0x1p-126f ? 0.0f : r;
                break;
            case Builtin::Sin:
                r = std::sin(x);
                break;
            case Builtin::Cos:
                r = std::cos(x);
                break;
            case Builtin::Floor:
                r = std::floor(x);
                break;
            case Builtin::Ceil:
                r = std::ceil(x);
                break;
            case Builtin::Pow:
                r = std::pow(x, args[1].f);
                break;
            case Builtin::Fma:
                r = std::fma(x, args[1].f, args[2].f);
                break;
            default:
                break;
        }
        Value v{};
        v.f = r;
        return v;
    }
    // f64 directly; f16/bf16 computed in f32 and rounded once, as hds::exp etc. do.
    bool half = t == ScalarType::F16 || t == ScalarType::BF16;
    double x = to_double(args[0], t), y = 0, z = 0;
    if (builtin_info(b).arity > 1) y = to_double(args[1], t);
    if (builtin_info(b).arity > 2) z = to_double(args[2], t);
    double r = 0;
    auto f32 = [half](double d) { return half ? static_cast<double>(static_cast<float>(d)) : d; };
    switch (b) {
        case Builtin::Min:
            r = std::fmin(x, y);
            break;
        case Builtin::Max:
            r = std::fmax(x, y);
            break;
        case Builtin::Abs:
            r = std::fabs(x);
            break;
        case Builtin::Exp:
            r = f32(std::exp(x));
            break;
        case Builtin::Exp2:
            r = f32(std::exp2(x));
            break;
        case Builtin::Exp2Fast:  // f16/bf16 in f32 on the unit (flushed below 2^-126); f64: exp2
            r = f32(std::exp2(x));
            r = half && std::fabs(r) < 0x1p-126 ? 0.0 : r;
            break;
        case Builtin::Log:
            r = f32(std::log(x));
            break;
        case Builtin::Log2:
            r = f32(std::log2(x));
            break;
        case Builtin::Sqrt:
            r = f32(std::sqrt(x));
            break;
        case Builtin::Rsqrt:
            r = f32(1.0 / std::sqrt(x));
            break;
        case Builtin::Tanh:
            r = f32(std::tanh(x));
            break;
        case Builtin::Erf:
            r = f32(std::erf(x));
            break;
        case Builtin::Gelu:
            r = f32(gelu(x));
            break;
        case Builtin::Sigmoid:  // f16/bf16 in f32 on the unit (flushed below 2^-126); f64 exactly
            r = f32(1.0 / (1.0 + std::exp(-x)));
            r = half && r < 0x1p-126 ? 0.0 : r;
            break;
        case Builtin::Sin:
            r = f32(std::sin(x));
            break;
        case Builtin::Cos:
            r = f32(std::cos(x));
            break;
        case Builtin::Floor:
            r = std::floor(x);
            break;
        case Builtin::Ceil:
            r = std::ceil(x);
            break;
        case Builtin::Pow:
            r = f32(std::pow(x, y));
            break;
        case Builtin::Fma:
            r = std::fma(x, y, z);
            break;
        default:
            break;
    }
    return from_double(r, t);
}

}  // namespace hds::emu
