// builtins.cpp — the built-in table.
#include "ir/builtins.h"

namespace hds {

const std::vector<BuiltinInfo>& all_builtins() {
    static const std::vector<BuiltinInfo> table = {
#define BUILTIN(id, name, arity, cls, summary) {Builtin::id, name, arity, BuiltinClass::cls, summary},
#include "ir/builtins.def"
#undef BUILTIN
    };
    return table;
}

const BuiltinInfo* find_builtin(std::string_view name) {
    for (const BuiltinInfo& b : all_builtins())
        if (name == b.name) return &b;
    return nullptr;
}

const BuiltinInfo& builtin_info(Builtin id) {
    // Builtin::DeviceFn is 0; the table starts at 1.
    return all_builtins().at(static_cast<size_t>(id) - 1);
}

int builtin_min_arch(Builtin id) {
    switch (id) {
        case Builtin::Mma16816:
        case Builtin::LdMatrixX4:
        case Builtin::LdMatrixX4Trans:
        case Builtin::CpAsync16:
        case Builtin::CpAsyncCommit:
        case Builtin::CpAsyncWait:
            return 80;
        default:
            return static_cast<int>(id) >= static_cast<int>(Builtin::MbarrierInit) ? 90 : 0;
    }
}

int builtin_reference_operands(Builtin id) {
    if (wgmma_form(id) != WgmmaForm::None) return 3;
    switch (id) {
        case Builtin::Mma16816:
        case Builtin::TmaLoad2d:
        case Builtin::TmaLoad2dRows:
        case Builtin::TmaLoad2dMulticast:
            return 3;
        case Builtin::LdMatrixX4:
        case Builtin::LdMatrixX4Trans:
        case Builtin::CpAsync16:
        case Builtin::Copy4:
        case Builtin::Copy8:
        case Builtin::Copy16:
        case Builtin::CopyVec4:
            return 2;
        case Builtin::MbarrierInit:
        case Builtin::MbarrierArrive:
        case Builtin::MbarrierExpectTx:
        case Builtin::MbarrierWait:
        case Builtin::MbarrierArriveCluster:
        case Builtin::ClusterLoad:
            return 1;
        default:
            return 0;
    }
}

WgmmaForm wgmma_form(Builtin id) {
    switch (id) {
        case Builtin::Wgmma64:
        case Builtin::Wgmma128:
        case Builtin::Wgmma256:
            return WgmmaForm::Shared;
        case Builtin::WgmmaBt64:
        case Builtin::WgmmaBt128:
        case Builtin::WgmmaBt256:
            return WgmmaForm::BTransposed;
        case Builtin::WgmmaRa64:
        case Builtin::WgmmaRa128:
        case Builtin::WgmmaRa256:
            return WgmmaForm::ARegisters;
        case Builtin::WgmmaAt16:
        case Builtin::WgmmaAt32:
        case Builtin::WgmmaAt48:
        case Builtin::WgmmaAt64:
        case Builtin::WgmmaAt80:
        case Builtin::WgmmaAt96:
        case Builtin::WgmmaAt112:
        case Builtin::WgmmaAt128:
        case Builtin::WgmmaAt144:
        case Builtin::WgmmaAt160:
        case Builtin::WgmmaAt176:
        case Builtin::WgmmaAt192:
            return WgmmaForm::BothTransposed;
        default:
            return WgmmaForm::None;
    }
}

int64_t wgmma_b_leading_bytes(WgmmaForm form, int64_t rows, int64_t cols, int elem_bytes) {
    return form == WgmmaForm::BTransposed || form == WgmmaForm::BothTransposed ? 16 : rows * cols * elem_bytes;
}

int wgmma_n(Builtin id) {
    switch (id) {
        case Builtin::WgmmaAt16:
            return 16;
        case Builtin::WgmmaAt32:
            return 32;
        case Builtin::WgmmaAt48:
            return 48;
        case Builtin::WgmmaAt80:
            return 80;
        case Builtin::WgmmaAt96:
            return 96;
        case Builtin::WgmmaAt112:
            return 112;
        case Builtin::WgmmaAt64:
        case Builtin::Wgmma64:
        case Builtin::WgmmaBt64:
        case Builtin::WgmmaRa64:
            return 64;
        case Builtin::Wgmma128:
        case Builtin::WgmmaBt128:
        case Builtin::WgmmaRa128:
        case Builtin::WgmmaAt128:
            return 128;
        case Builtin::WgmmaAt144:
            return 144;
        case Builtin::WgmmaAt160:
            return 160;
        case Builtin::WgmmaAt176:
            return 176;
        case Builtin::WgmmaAt192:
            return 192;
        case Builtin::Wgmma256:
        case Builtin::WgmmaBt256:
        case Builtin::WgmmaRa256:
            return 256;
        default:
            return 0;
    }
}

bool is_tma_load(Builtin id) {
    return id == Builtin::TmaLoad2d || id == Builtin::TmaLoad2dRows || id == Builtin::TmaLoad2dMulticast;
}

int builtin_copy_bytes(Builtin id) {
    return id == Builtin::Copy4 ? 4 : id == Builtin::Copy8 ? 8 : id == Builtin::Copy16 ? 16 : 0;
}

Builtin copy_builtin(int bytes) {
    return bytes == 4 ? Builtin::Copy4 : bytes == 8 ? Builtin::Copy8 : Builtin::Copy16;
}

bool builtin_writes_first_operand(Builtin id) {
    if (id == Builtin::DeviceFn || id == Builtin::ClusterLoad) return false;
    return builtin_info(id).cls == BuiltinClass::Atomic || builtin_reference_operands(id) > 0;
}

}  // namespace hds
