// sema_type.h — the types the checker assigns to expressions: scalars, untyped
// literals (which adopt the type their context needs), tensors, task mappings.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/scalar_type.h"
#include "ir/task_mapping.h"

namespace hds {

struct Symbol;

enum class MemSpace { None, Global, Shared, Register };
const char* space_name(MemSpace s);

// A compile-time constant: an integer, a float or a bool.
struct ConstValue {
    enum class Kind { Int, Float, Bool } kind = Kind::Int;
    int64_t i = 0;
    double f = 0;
    static ConstValue make_int(int64_t v) { return {Kind::Int, v, 0}; }
    static ConstValue make_float(double v) { return {Kind::Float, 0, v}; }
    static ConstValue make_bool(bool v) { return {Kind::Bool, v ? 1 : 0, 0}; }
    double as_double() const { return kind == Kind::Float ? f : static_cast<double>(i); }
};

// One dimension of a tensor: a constant or a symbolic size.
struct Dim {
    int64_t constant = 0;
    Symbol* size = nullptr;
};

struct TensorInfo {
    ScalarType elem = ScalarType::F32;
    MemSpace space = MemSpace::Global;
    std::vector<Dim> dims;
};

struct SemaType {
    enum class Kind { Error, Void, Scalar, UntypedInt, UntypedFloat, Tensor, Mapping, Builtin3, List };
    Kind kind = Kind::Error;
    ScalarType scalar = ScalarType::I32;
    const TensorInfo* tensor = nullptr;
    std::shared_ptr<const TaskMapping> mapping;

    SemaType(Kind k = Kind::Error, ScalarType s = ScalarType::I32) : kind(k), scalar(s) {}
    static SemaType error() { return {}; }
    static SemaType void_type() { return {Kind::Void}; }
    static SemaType of(ScalarType t) { return {Kind::Scalar, t}; }
    static SemaType untyped_int() { return {Kind::UntypedInt}; }
    static SemaType untyped_float() { return {Kind::UntypedFloat}; }

    bool is_error() const { return kind == Kind::Error; }
    bool is_untyped() const { return kind == Kind::UntypedInt || kind == Kind::UntypedFloat; }
    // Scalar or untyped literal: something with a value.
    bool is_value() const { return kind == Kind::Scalar || is_untyped(); }
    // The scalar type a value has when nothing else decides it (i32 / f32).
    ScalarType default_scalar() const;
    bool is_int_like() const;
    bool is_float_like() const;
    std::string str() const;
};

// The type both operands of an arithmetic or comparison operator convert to,
// or nullopt when they have none. Untyped literals adopt the other side's type.
std::optional<SemaType> arithmetic_type(const SemaType& a, const SemaType& b);

}  // namespace hds
