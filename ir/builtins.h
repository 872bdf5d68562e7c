// builtins.h — the built-in functions (barriers, shuffles, atomics, math), read
// from builtins.def so that the checker, the IR and codegen share one list.
#pragma once

#include <string_view>
#include <vector>

namespace hds {

// Reference: some arguments are element references (`t[i, j]`: its address), as for
// the tensor-core, copy-engine and vector-copy built-ins.
enum class BuiltinClass { Barrier, Shuffle, Atomic, Math, FloatMath, Reference };

enum class Builtin {
    DeviceFn,  // not a built-in: a call of a user `device fn`
#define BUILTIN(id, name, arity, cls, summary) id,
#include "ir/builtins.def"
#undef BUILTIN
};

struct BuiltinInfo {
    Builtin id;
    const char* name;
    int arity;
    BuiltinClass cls;
    const char* summary;
};

const BuiltinInfo* find_builtin(std::string_view name);
const BuiltinInfo& builtin_info(Builtin id);
const std::vector<BuiltinInfo>& all_builtins();

// The oldest target a built-in runs on: 80 (sm_80, tensor cores and cp.async),
// 90 (sm_90a: mbarrier, TMA, wgmma, setmaxnreg) or 0 (any).
int builtin_min_arch(Builtin id);  // for a whole body: ir::required_arch (ir_visitor.h)

// How many leading arguments are element references (`t[i, j]`: the address
// of that element is passed), for the tensor-core and Hopper built-ins.
int builtin_reference_operands(Builtin id);

// copy_4 / copy_8 / copy_16: the bytes one copy moves (0 for other built-ins, copy_vec4
// included: its size follows the element type, see ir::copy_bytes), and back.
int builtin_copy_bytes(Builtin id);

// The wgmma products: where their operands come from (Shared: A and B in shared memory, B
// N-major; BTransposed: B as K-major rows; ARegisters: A from registers; BothTransposed: A
// M-major, laid out as N-major B is, and B as K-major rows) and N (64, 128 or 256; multiples of
// 16 up to 128, and 144, 160, 176, 192, for BothTransposed).
enum class WgmmaForm { None, Shared, BTransposed, ARegisters, BothTransposed };
WgmmaForm wgmma_form(Builtin id);
int wgmma_n(Builtin id);
// The descriptor's "leading" bytes for B of a wgmma whose B buffer ends in [rows, cols]
// (runtime/hds/hopper.h): N-major B lies in [.., N / 64, K, 64] tiles, rows * cols * elem
// bytes apart; the K-major forms take 16 (unused with the 128-byte swizzle). The emitter
// writes it into the descriptor and the emulator reads B by it.
int64_t wgmma_b_leading_bytes(WgmmaForm form, int64_t rows, int64_t cols, int elem_bytes);

// tma_load_2d and tma_load_2d_multicast: the source a[r, c] is a coordinate pair, not an address.
bool is_tma_load(Builtin id);
Builtin copy_builtin(int bytes);

// Whether the built-in stores through its first argument (an element
// reference): atomics, vector copies, and the tensor-core / Hopper built-ins
// that fill registers, shared memory or barriers.
bool builtin_writes_first_operand(Builtin id);

}  // namespace hds
