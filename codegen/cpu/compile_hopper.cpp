// compile_hopper.cpp — the sm_90a built-ins on the emulator (compiler.h; run-time
// parts in hopper_runtime.cpp): mbarriers with phases and transaction bytes, TMA
// 2-D loads (swizzled as the tensor maps the launchers build, zeros past the
// tensor's edges, pending until their barrier's phase completes), wgmma as a
// warpgroup-collective instruction run when a wgmma_wait covers its group,
// setmaxnreg (checked), and the cluster built-ins.
#include "codegen/cpu/compiler.h"
#include "codegen/cpu/hopper_runtime.h"
#include "ir/ir_visitor.h"

namespace hds::emu::detail {

namespace {

int64_t trailing(const std::vector<int64_t>& shape, size_t d) {
    return shape[shape.size() - d];
}

}  // namespace

Compiler::BarrierRef Compiler::barrier(const ir::Expr& e, const char* what) {
    auto* l = ir::as<ir::Load>(e);
    Ref at = reference(e, 1, what);
    size_t shared = buffers_.at(l->buffer.get()).index;
    return [at, shared](Thread& t) { return std::make_pair(shared, at(t).second); };
}

void Compiler::find_wgmma_registers(const ir::Stmt& body) {
    struct Finder : ir::IRVisitor {
        std::set<const ir::BufferNode*>* regs;
        void visit(const ir::Call* c) override {
            ir::IRVisitor::visit(c);
            WgmmaForm form = wgmma_form(c->builtin);
            if (form == WgmmaForm::None) return;
            regs->insert(ir::as<ir::Load>(c->args[0])->buffer.get());
            if (form == WgmmaForm::ARegisters) regs->insert(ir::as<ir::Load>(c->args[1])->buffer.get());
        }
    } f;
    f.regs = &wgmma_registers_;
    f.visit_stmt(body);
}

Eval Compiler::wgmma(const ir::Call* c) {
    SourceLoc loc = loc_;
    WgmmaForm form = wgmma_form(c->builtin);
    int n = wgmma_n(c->builtin);
    p_.needs_sync = true;
    const char* name = builtin_info(c->builtin).name;
    auto* acc = ir::as<ir::Load>(c->args[0]);
    auto* a = ir::as<ir::Load>(c->args[1]);
    auto* b = ir::as<ir::Load>(c->args[2]);
    Ref acc_ref = reference(c->args[0], n / 2, "wgmma accumulators");
    Ref a_ref = reference(c->args[1], form == WgmmaForm::ARegisters ? 8 : 1, "wgmma A");
    Ref b_ref = reference(c->args[2], 1, "wgmma B");
    WarpgroupOp op;
    op.builtin = c->builtin;
    op.elem = a->buffer->elem;
    op.acc_array = buffers_.at(acc->buffer.get()).index;
    (form == WgmmaForm::ARegisters ? op.a_array : op.a_shared) = buffers_.at(a->buffer.get()).index;
    const BufRef& bb = buffers_.at(b->buffer.get());
    op.b_shared = bb.index;
    op.b_tile_bytes = wgmma_b_leading_bytes(form, trailing(bb.shape, 2), trailing(bb.shape, 1), byte_size(op.elem));
    std::string acc_name = acc->buffer->name, a_name = a->buffer->name;
    return [=](Thread& t) {
        t.wg_op = op;
        std::tie(t.wg_op.acc, t.wg_op.acc_at) = acc_ref(t);
        std::tie(t.wg_op.a, t.wg_op.a_at) = a_ref(t);
        t.wg_op.b_at = b_ref(t).second;
        // wgmma.fence orders this thread's register writes before the wgmma that reads them.
        auto unfenced = [&](size_t array, int64_t at, int64_t count, const std::string& what) {
            if (array >= t.unfenced.size()) return;
            auto [lo, hi] = t.unfenced[array];
            if (lo < at + count && at < hi)
                trap(t, loc,
                     fmt::format("{} uses registers of '{}' (elements {}..{}) written since the last "
                                 "wgmma_fence()",
                                 name, what, std::max(lo, at), std::min(hi, at + count) - 1));
        };
        unfenced(op.acc_array, t.wg_op.acc_at, n / 2, acc_name);
        if (form == WgmmaForm::ARegisters) unfenced(op.a_array, t.wg_op.a_at, 8, a_name);
        t.state = ThreadState::AtWarpgroupOp;
        t.wait_loc = loc;
        t.fiber->yield();
        return Value{0};
    };
}

Eval Compiler::hopper(const ir::Call* c) {
    SourceLoc loc = loc_;
    if (c->builtin == Builtin::DeviceFn || builtin_min_arch(c->builtin) < 90) return nullptr;
    if (wgmma_form(c->builtin) != WgmmaForm::None) return wgmma(c);
    auto arg_name = [&](size_t i) { return ir::as<ir::Load>(c->args[i])->buffer->name; };
    switch (c->builtin) {
        case Builtin::MbarrierInit: {
            p_.uses_mbarriers = true;
            BarrierRef bar = barrier(c->args[0], "mbarrier_init barrier");
            Eval count = expr(c->args[1]);
            return [bar, count, loc](Thread& t) {
                int64_t n = count(t).i;
                if (n < 1 || n >= (1 << 20))
                    trap(t, loc, fmt::format("mbarrier_init with {} arrivals: the count must be in 1..2^20-1", n));
                auto key = bar(t);
                Mbarrier m;
                m.count = m.pending = static_cast<int>(n);
                t.block->mbarriers[key] = std::move(m);
                t.block->shared[key.first].written[key.second] = 1;
                return Value{0};
            };
        }
        case Builtin::MbarrierArrive:
        case Builtin::MbarrierExpectTx:
        case Builtin::MbarrierArriveCluster: {
            BarrierRef bar = barrier(c->args[0], "mbarrier barrier");
            Eval extra = c->args.size() > 1 ? expr(c->args[1]) : Eval{};
            bool tx = c->builtin == Builtin::MbarrierExpectTx, remote = c->builtin == Builtin::MbarrierArriveCluster;
            std::string bar_name = arg_name(0);
            return [=](Thread& t) {
                Block* to = t.block;
                if (remote) to = cluster_block(t, extra(t).i, loc);
                mbarrier_arrive(t, *to, bar(t), tx ? extra(t).i : 0, bar_name, loc);
                return Value{0};
            };
        }
        case Builtin::MbarrierWait: {
            p_.needs_sync = true;
            BarrierRef bar = barrier(c->args[0], "mbarrier_wait barrier");
            Eval parity = expr(c->args[1]);
            std::string bar_name = arg_name(0);
            return [=](Thread& t) {
                int64_t p = parity(t).i;
                if (p != 0 && p != 1) trap(t, loc, fmt::format("mbarrier_wait parity {}: it must be 0 or 1", p));
                auto key = bar(t);
                find_mbarrier(t, *t.block, key, bar_name, loc);  // (traps where no mbarrier_init made it one)
                mbarrier_wait_phase(t, key, static_cast<int>(p), loc);
                return Value{0};
            };
        }
        case Builtin::FenceBarrierInit:
        case Builtin::FenceProxyAsync:  // (ordering the emulator has anyway)
            return [](Thread&) { return Value{0}; };
        case Builtin::TmaLoad2d:
        case Builtin::TmaLoad2dRows:
        case Builtin::TmaLoad2dMulticast: {
            auto* dst = ir::as<ir::Load>(c->args[0]);
            auto* src = ir::as<ir::Load>(c->args[1]);
            const BufRef& box = buffers_.at(dst->buffer.get());
            TmaCopy copy;
            copy.rows = ir::tma_box_rows(c, trailing(box.shape, 2));
            copy.cols = trailing(box.shape, 1);
            copy.elem_bytes = byte_size(dst->buffer->elem);
            copy.shared = box.index;
            copy.global = buffers_.at(src->buffer.get()).index;
            copy.dst_name = dst->buffer->name;
            copy.src_name = src->buffer->name;
            copy.bar_name = arg_name(2);
            copy.loc = loc;
            Ref at = reference(c->args[0], copy.rows * copy.cols, "TMA box");
            std::vector<Eval> index;  // the slice's indices (any before the last two), the row, the column
            for (const ir::Expr& i : src->indices) index.push_back(expr(i));
            BarrierRef bar = barrier(c->args[2], "TMA barrier");
            Eval mask = c->builtin == Builtin::TmaLoad2dMulticast ? expr(c->args[3]) : Eval{};
            return [=](Thread& t) {
                std::vector<int64_t> i;
                for (const Eval& e : index) i.push_back(e(t).i);
                tma_load(t, copy, at(t).second, i, bar(t), mask ? mask(t).i : -1);
                return Value{0};
            };
        }
        case Builtin::ClusterSync:
        case Builtin::ClusterSyncRelaxed:  // (the emulator's memory is sequentially consistent: the same)
            p_.needs_sync = true;
            return [loc](Thread& t) {
                t.state = ThreadState::AtClusterSync;
                t.wait_loc = loc;
                t.fiber->yield();
                return Value{0};
            };
        case Builtin::ClusterLoad: {
            Ref at = reference(c->args[0], 1, "cluster_load source");
            size_t shared = buffers_.at(ir::as<ir::Load>(c->args[0])->buffer.get()).index;
            Eval rank = expr(c->args[1]);
            std::string array = arg_name(0);
            return [=](Thread& t) {
                int64_t i = at(t).second;
                SharedBuf& buf = cluster_block(t, rank(t).i, loc)->shared[shared];
                check_shared_read(t, buf, i, array, loc);
                return buf.data[i];
            };
        }
        case Builtin::WgmmaFence:
            return [](Thread& t) {
                t.unfenced.clear();
                return Value{0};
            };
        case Builtin::WgmmaCommit:
            return [](Thread& t) {
                t.wgmma_groups.push_back(std::move(t.wgmma_open));
                t.wgmma_open.clear();
                return Value{0};
            };
        case Builtin::WgmmaWait: {
            size_t keep = static_cast<size_t>(*ir::const_int(c->args[0]));
            return [keep](Thread& t) {
                while (t.wgmma_groups.size() > keep) {
                    for (const std::shared_ptr<WgmmaOp>& op : t.wgmma_groups.front())
                        if (!op->done) run_wgmma(*op);
                    t.wgmma_groups.erase(t.wgmma_groups.begin());
                }
                return Value{0};
            };
        }
        case Builtin::SetMaxNRegInc:
        case Builtin::SetMaxNRegDec: {
            p_.needs_sync = true;
            WarpgroupOp op;
            op.builtin = c->builtin;
            op.value = static_cast<int>(*ir::const_int(c->args[0]));
            return [op, loc](Thread& t) {
                t.wg_op = op;
                t.state = ThreadState::AtWarpgroupOp;
                t.wait_loc = loc;
                t.fiber->yield();
                return Value{0};
            };
        }
        default:
            return nullptr;
    }
}

}  // namespace hds::emu::detail
