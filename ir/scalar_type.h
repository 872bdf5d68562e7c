// scalar_type.h — the scalar element types shared by the front end, the IR and
// code generation, with their properties and conversion rules.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hds {

enum class ScalarType : uint8_t { Bool, I8, I16, I32, I64, U8, U32, U64, F16, BF16, F32, F64 };

std::string_view scalar_name(ScalarType t);  // the hds spelling: "f32"
std::optional<ScalarType> parse_scalar(std::string_view name);

bool is_float(ScalarType t);
bool is_int(ScalarType t);  // signed or unsigned integer, not bool
bool is_signed_int(ScalarType t);
bool is_unsigned_int(ScalarType t);
int bit_width(ScalarType t);
int byte_size(ScalarType t);

// True when every value of `from` is exactly representable in `to` (or, for
// int -> float, when C would promote it): the conversions hds does implicitly.
bool converts_implicitly(ScalarType from, ScalarType to);

// The common type of a binary arithmetic operation (C's usual arithmetic
// conversions restricted to what converts_implicitly allows), if any.
std::optional<ScalarType> common_type(ScalarType a, ScalarType b);

// Wraps an integer value to the width of integer type `t`, as the device's
// two's-complement arithmetic does (64-bit types are returned unchanged).
int64_t wrap_int(int64_t value, ScalarType t);

// Whether an integer value fits in the integer type `t`.
bool int_fits(int64_t value, ScalarType t);

}  // namespace hds
