// scalar_type.cpp — scalar type properties and hds's conversion rules.
#include "ir/scalar_type.h"

#include <array>
#include <limits>

namespace hds {

namespace {
constexpr std::array<std::string_view, 12> kNames = {"bool", "i8",  "i16", "i32",  "i64", "u8",
                                                     "u32",  "u64", "f16", "bf16", "f32", "f64"};
}

std::string_view scalar_name(ScalarType t) {
    return kNames[static_cast<size_t>(t)];
}

std::optional<ScalarType> parse_scalar(std::string_view name) {
    for (size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name) return static_cast<ScalarType>(i);
    return std::nullopt;
}

bool is_float(ScalarType t) {
    return t == ScalarType::F16 || t == ScalarType::BF16 || t == ScalarType::F32 || t == ScalarType::F64;
}
bool is_signed_int(ScalarType t) {
    return t == ScalarType::I8 || t == ScalarType::I16 || t == ScalarType::I32 || t == ScalarType::I64;
}
bool is_unsigned_int(ScalarType t) {
    return t == ScalarType::U8 || t == ScalarType::U32 || t == ScalarType::U64;
}
bool is_int(ScalarType t) {
    return is_signed_int(t) || is_unsigned_int(t);
}

int bit_width(ScalarType t) {
    switch (t) {
        case ScalarType::Bool:
            return 1;
        case ScalarType::I8:
        case ScalarType::U8:
            return 8;
        case ScalarType::I16:
        case ScalarType::F16:
        case ScalarType::BF16:
            return 16;
        case ScalarType::I32:
        case ScalarType::U32:
        case ScalarType::F32:
            return 32;
        case ScalarType::I64:
        case ScalarType::U64:
        case ScalarType::F64:
            return 64;
    }
    return 0;
}

int byte_size(ScalarType t) {
    return t == ScalarType::Bool ? 1 : bit_width(t) / 8;
}

bool converts_implicitly(ScalarType from, ScalarType to) {
    if (from == to) return true;
    if (from == ScalarType::Bool || to == ScalarType::Bool) return false;
    if (is_float(from)) {
        if (!is_float(to)) return false;
        // f16 and bf16 each widen to f32/f64, never into each other.
        if (from == ScalarType::F16 || from == ScalarType::BF16) return bit_width(to) >= 32;
        return bit_width(to) > bit_width(from);
    }
    if (is_float(to)) return true;  // int -> float promotion, as in C
    if (is_signed_int(from) == is_signed_int(to)) return bit_width(to) > bit_width(from);
    // unsigned -> wider signed keeps every value; signed -> unsigned never does.
    return is_unsigned_int(from) && bit_width(to) > bit_width(from);
}

std::optional<ScalarType> common_type(ScalarType a, ScalarType b) {
    if (a == b) return a;
    if (converts_implicitly(a, b) && !converts_implicitly(b, a)) return b;
    if (converts_implicitly(b, a) && !converts_implicitly(a, b)) return a;
    return std::nullopt;
}

int64_t wrap_int(int64_t v, ScalarType t) {
    switch (t) {
        case ScalarType::I8:
            return static_cast<int8_t>(v);
        case ScalarType::I16:
            return static_cast<int16_t>(v);
        case ScalarType::I32:
            return static_cast<int32_t>(v);
        case ScalarType::U8:
            return static_cast<uint8_t>(v);
        case ScalarType::U32:
            return static_cast<uint32_t>(v);
        default:
            return v;
    }
}

bool int_fits(int64_t v, ScalarType t) {
    switch (t) {
        case ScalarType::I8:
            return v >= -128 && v <= 127;
        case ScalarType::I16:
            return v >= -32768 && v <= 32767;
        case ScalarType::I32:
            return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
        case ScalarType::I64:
            return true;
        case ScalarType::U8:
            return v >= 0 && v <= 255;
        case ScalarType::U32:
            return v >= 0 && v <= static_cast<int64_t>(UINT32_MAX);
        case ScalarType::U64:
            return v >= 0;
        default:
            return is_float(t);
    }
}

}  // namespace hds
