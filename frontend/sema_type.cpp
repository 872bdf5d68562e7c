// sema_type.cpp — printing and the arithmetic conversion rule.
#include "frontend/sema_type.h"

#include <fmt/format.h>

namespace hds {

const char* space_name(MemSpace s) {
    switch (s) {
        case MemSpace::None:
            return "";
        case MemSpace::Global:
            return "global";
        case MemSpace::Shared:
            return "shared";
        case MemSpace::Register:
            return "register";
    }
    return "";
}

ScalarType SemaType::default_scalar() const {
    if (kind == Kind::UntypedInt) return ScalarType::I32;
    if (kind == Kind::UntypedFloat) return ScalarType::F32;
    return scalar;
}

bool SemaType::is_int_like() const {
    return kind == Kind::UntypedInt || (kind == Kind::Scalar && is_int(scalar));
}
bool SemaType::is_float_like() const {
    return kind == Kind::UntypedFloat || (kind == Kind::Scalar && is_float(scalar));
}

std::string SemaType::str() const {
    switch (kind) {
        case Kind::Error:
            return "<error>";
        case Kind::Void:
            return "void";
        case Kind::Scalar:
            return std::string(scalar_name(scalar));
        case Kind::UntypedInt:
            return "integer literal";
        case Kind::UntypedFloat:
            return "float literal";
        case Kind::Tensor: {
            std::string s = tensor->space == MemSpace::Global ? "" : std::string(space_name(tensor->space)) + " ";
            return fmt::format("{}{}[{}d]", s, scalar_name(tensor->elem), tensor->dims.size());
        }
        case Kind::Mapping:
            return "mapping " + mapping->to_string();
        case Kind::Builtin3:
            return "dim3";
        case Kind::List:
            return "list";
    }
    return "?";
}

std::optional<SemaType> arithmetic_type(const SemaType& a, const SemaType& b) {
    if (!a.is_value() || !b.is_value()) return std::nullopt;
    if (a.is_untyped() && b.is_untyped()) {
        if (a.kind == SemaType::Kind::UntypedFloat || b.kind == SemaType::Kind::UntypedFloat)
            return SemaType::untyped_float();
        return SemaType::untyped_int();
    }
    if (a.is_untyped() || b.is_untyped()) {
        const SemaType& lit = a.is_untyped() ? a : b;
        const SemaType& typed = a.is_untyped() ? b : a;
        if (typed.scalar == ScalarType::Bool) return std::nullopt;
        // A float literal next to an integer promotes the expression to f32.
        if (lit.kind == SemaType::Kind::UntypedFloat && is_int(typed.scalar)) return SemaType::of(ScalarType::F32);
        return typed;
    }
    if (auto c = common_type(a.scalar, b.scalar)) return SemaType::of(*c);
    return std::nullopt;
}

}  // namespace hds
