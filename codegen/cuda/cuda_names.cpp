// cuda_names.cpp — type names, literal spellings, identifier escaping.
#include "codegen/cuda/cuda_names.h"

#include <set>

#include "ir/builtins.h"
#include "ir/expr_printer.h"

namespace hds::codegen {

std::string cuda_type(ScalarType t) {
    switch (t) {
        case ScalarType::Bool:
            return "bool";
        case ScalarType::I8:
            return "signed char";
        case ScalarType::I16:
            return "short";
        case ScalarType::I32:
            return "int";
        case ScalarType::I64:
            return "long long";
        case ScalarType::U8:
            return "unsigned char";
        case ScalarType::U32:
            return "unsigned";
        case ScalarType::U64:
            return "unsigned long long";
        case ScalarType::F16:
            return "__half";
        case ScalarType::BF16:
            return "__nv_bfloat16";
        case ScalarType::F32:
            return "float";
        case ScalarType::F64:
            return "double";
    }
    return "?";
}

std::string cuda_int_literal(ScalarType t, int64_t v) {
    if (t == ScalarType::I64 && v == INT64_MIN) return "(-9223372036854775807LL - 1)";
    if (t == ScalarType::I32 && v == INT32_MIN) return "(-2147483647 - 1)";
    std::string s = std::to_string(v);
    switch (t) {
        case ScalarType::I64:
            return s + "LL";
        case ScalarType::U32:
            return std::to_string(static_cast<uint32_t>(v)) + "u";
        case ScalarType::U64:
            return std::to_string(static_cast<uint64_t>(v)) + "ull";
        case ScalarType::I32:
            return s;
        default:
            return "static_cast<" + cuda_type(t) + ">(" + s + ")";
    }
}

std::string cuda_float_literal(ScalarType t, double v) {
    std::string s = ir::float_text(v);
    bool special = s.find_first_of("IN") != std::string::npos;  // INFINITY / NAN
    switch (t) {
        case ScalarType::F64:
            return s;
        case ScalarType::F32:
            return special ? s : s + "f";
        case ScalarType::F16:
            return "__half(" + (special ? s : s + "f") + ")";
        default:
            return "__nv_bfloat16(" + (special ? s : s + "f") + ")";
    }
}

std::string cuda_ident(const std::string& name) {
    static const std::set<std::string> reserved = {
        "alignas", "alignof",  "asm",       "auto",      "bool",     "break",    "case",      "catch", "char",
        "class",   "const",    "constexpr", "continue",  "decltype", "default",  "delete",    "do",    "double",
        "else",    "enum",     "explicit",  "export",    "extern",   "false",    "float",     "for",   "friend",
        "goto",    "if",       "inline",    "int",       "long",     "mutable",  "namespace", "new",   "noexcept",
        "nullptr", "operator", "private",   "protected", "public",   "register", "return",    "short", "signed",
        "sizeof",  "static",   "struct",    "switch",    "template", "this",     "throw",     "true",  "try",
        "typedef", "typeid",   "typename",  "union",     "unsigned", "using",    "virtual",   "void",  "volatile",
        "while",   "dim3",     "warpSize",  "threadIdx", "blockIdx", "blockDim", "gridDim",   "min",   "max",
        "abs",     "hds",      "stream",    "std",       "INFINITY", "NAN"};
    if (reserved.count(name) || name.rfind("__", 0) == 0) return name + "_";
    // CUDA's math functions (exp, expf, ...) are overloaded globals: a device function or
    // variable of the same name would clash with them. (`gelu` and `sigmoid` are hds:: only.)
    for (const BuiltinInfo& b : all_builtins()) {
        if (b.id == Builtin::Gelu || b.id == Builtin::Sigmoid) continue;
        std::string f = b.name;
        if (name == f || name == f + "f" || (f == "abs" && (name == "fabs" || name == "fabsf"))) return name + "_";
    }
    return name;
}

}  // namespace hds::codegen
