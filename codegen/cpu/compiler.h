// compiler.h — the emulator's IR -> closures compiler (one class, defined in
// compile.cpp: expressions; compile_memory.cpp: buffers, loads, stores,
// atomics; compile_stmt.cpp: statements, loops, device functions;
// compile_tensor_core.cpp: cp.async, ldmatrix, mma.sync; compile_hopper.cpp: mbarriers,
// TMA, wgmma, clusters). Variables
// become frame slots, buffers indices into the machine's global, block-shared
// or thread-register storage; every access carries its checks and .hds location.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "codegen/cpu/machine.h"
#include "codegen/cpu/values.h"
#include "ir/internal_error.h"

namespace hds::emu::detail {

struct BufRef {
    ir::Scope scope;
    size_t index;
    std::vector<int64_t> shape;  // constant shape (shared/register); globals read the machine's
};

std::string format_ids(const Thread& t);
// The values of a buffer in a thread's view: the machine's global, the block's shared or
// the thread's register array.
std::vector<Value>& storage(Thread& t, const BufRef& r);
// Runs the tensor-core instruction every lane of a warp has reached (ldmatrix, mma):
// "" or what is wrong.
std::string run_warp_op(const std::vector<Thread*>& lanes);
[[noreturn]] void trap(const Thread& t, SourceLoc loc, const std::string& what);

// Operand readers: a variable's slot, a constant, or any expression. The
// i32 fast paths below are instantiated for each pair, so the common
// `var op constant` index arithmetic needs no nested closure calls.
struct SlotRead {
    size_t s;
    Value operator()(Thread& t) const { return t.stack[t.base + s]; }
};
struct ConstRead {
    Value v;
    Value operator()(Thread&) const { return v; }
};
struct EvalRead {
    Eval e;
    Value operator()(Thread& t) const { return e(t); }
};

class Compiler {
  public:
    Compiler(const ir::Module& m, Program& p) : m_(m), p_(p), next_register_(&p.register_arrays) {}

    void kernel(const ir::Kernel& k);

  private:
    size_t slot(const ir::VarNode* v);

    // ------------------------------------------------------------ expressions
    Eval expr(const ir::Expr& e);

    Eval special(const ir::SpecialReg* s);

    // Calls k with the cheapest reader of `e`: its variable's slot, its constant,
    // or its compiled closure `ev`.
    template <typename K>
    auto with_operand(const ir::Expr& e, const Eval& ev, K k);

    Eval binary(const ir::Binary* b);

    // Index of an element after bounds checks; `what` is "read" or "write".
    using Indexer = std::function<int64_t(Thread&)>;
    Indexer indexer(const ir::Buffer& b, const std::vector<ir::Expr>& indices, SourceLoc loc, const char* what);

    Eval load(const ir::Load* l);

    // Stores `v` (already converted) through the indexer; applies `op` first.
    Exec store(const ir::Store* st);

    static void check_write_race(Thread& t, SharedBuf& buf, int64_t i, const std::string& name, SourceLoc loc);
    // A read of shared element i: one that no thread wrote, or that a cp.async has yet to write, traps.
    static void check_shared_read(const Thread& t, const SharedBuf& buf, int64_t i, const std::string& name,
                                  SourceLoc loc);
    // Whether a syncwarp() of t's warp came after the access of warp `warp` at syncwarp count `sync`.
    static bool warp_ordered(const Thread& t, int32_t warp, int64_t sync);
    // Whether an mbarrier wait of t came after an arrival of `thread` that followed its access at
    // vector-clock entry `clock` (racecheck with mbarriers; never without them).
    static bool clock_ordered(const Thread& t, int32_t thread, int32_t clock);

    Eval call(const ir::Call* c);

    // Threads of a block run one at a time, so an atomic is a read-modify-write.
    Eval atomic(const ir::Call* c, Eval value);
    // copy_4/8/16: the elements one access moves, with the alignment and range checks.
    Eval copy(const ir::Call* c);
    // An element reference of `count` values (a fragment, a copy's row): its array and first index.
    using Ref = std::function<std::pair<std::vector<Value>*, int64_t>(Thread&)>;
    Ref reference(const ir::Expr& e, int64_t count, const char* what);
    // cp.async and its groups, ldmatrix, mma.sync (compile_tensor_core.cpp); null for other built-ins.
    Eval tensor_core(const ir::Call* c);
    // The sm_90a built-ins (compile_hopper.cpp); null for others.
    Eval hopper(const ir::Call* c);
    Eval wgmma(const ir::Call* c);
    // An mbarrier operand: its (shared array, element).
    using BarrierRef = std::function<std::pair<size_t, int64_t>(Thread&)>;
    BarrierRef barrier(const ir::Expr& e, const char* what);
    // The register arrays wgmma reads or writes: their accesses are checked against pending
    // wgmma and tracked for wgmma_fence.
    void find_wgmma_registers(const ir::Stmt& body);

    Eval device_call(const ir::Call* c, const std::vector<Eval>& args);

    std::shared_ptr<Program> function(const std::string& name);

    // ------------------------------------------------------------ statements
    Exec stmt(const ir::Stmt& s);

    Exec alloc(const ir::Alloc* a);

    Exec for_loop(const ir::For* f);

    const ir::Module& m_;
    Program& p_;
    std::map<const ir::VarNode*, size_t> slots_;
    std::map<const ir::BufferNode*, BufRef> buffers_;
    std::map<std::string, std::shared_ptr<Program>> functions_;
    std::set<const ir::BufferNode*> wgmma_registers_;
    SourceLoc loc_;
    size_t* next_register_;
};

template <typename K>
inline auto Compiler::with_operand(const ir::Expr& e, const Eval& ev, K k) {
    if (auto* v = ir::as<ir::VarNode>(e)) return k(SlotRead{slot(v)});
    if (auto* c = ir::as<ir::IntImm>(e)) return k(ConstRead{Value{c->value}});
    return k(EvalRead{ev});
}

}  // namespace hds::emu::detail
