// prefetch_epilogue_loads.cpp — an anchor's epilogue loads of read-only
// tensors (a bias: the same values for every row of a tile) issued before its
// main loop, so that their latency hides behind the loop instead of stalling
// the stores after it.
//
// In a block whose last statement-level loop that is not unrolled is the main
// loop (`for kt in 0..ktiles`), a vector copy after it, `copy_16(v[0],
// b[n0 + q * 64 + lane % 8 * 8])`, reached through unrolled loops, ifs and
// blocks only, moves before the main loop when its index and the conditions
// around it depend only on values that the main loop cannot change: constant
// `let`s (substituted by their definitions), variables nothing assigns, and the
// unrolled loops around it (`q`: one register row per iteration). The copy
// then goes into a register array `pf_b[q, 0..8]`, under the same conditions,
// and the original copy reads that array; where the copy was all that wrote its
// destination `v` (a row of registers declared in the same unrolled loop), the
// copy goes and the reads of `v[e]` read `pf_b[q, e]` instead. In wgmma
// kernels, copies past the budget for registers held across the main loop go
// right after it instead: the epilogue's reads are then all in flight together.
#include <functional>
#include <map>
#include <set>

#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "ir/builtins.h"
#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "ir/name_gen.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

// At most this many bytes of prefetched values per thread: 64 (registers held across the main
// loop; where several blocks share a multiprocessor, more registers would hold fewer of them).
constexpr int64_t kMaxBytes = 64;
// In kernels that issue wgmma (one block of up to 512 threads per multiprocessor: registers to
// spare), 192 bytes: the epilogues of the wgmma schedules go over their tile in passes through
// shared memory (3 of 64 columns at BN = 192, 8 of 16 rows in the swapped product), and each
// pass waited for its own reads of another tensor (the Llama MLP's up projection with silu *
// mul, its down projection with the residual; bench/results/2026-11-27-h200-late-prefetch).
// 48 registers, next to a 64 x 192 tile's 96 accumulators; a 128 x 256 tile's 16 row chunks are
// not taken. All held across the main loop in blocks of up to 256 threads (255 registers each),
// kMaxWgmmaEarlyLarge of them in larger blocks (384 threads: 168 registers; 512, the 192-row tiles'
// three consumers: 152 registers beside 64 accumulators); the rest is issued right after the
// main loop, all at once, before the epilogue's first pass.
constexpr int64_t kMaxWgmmaBytes = 192;
constexpr int64_t kMaxWgmmaEarlyLarge = 128;

// Whether a kernel issues wgmma (every wgmma schedule fences its accumulators first).
class IssuesWgmma : public ir::IRVisitor {
  public:
    bool found = false;

  protected:
    void visit(const ir::Call* op) override {
        found |= op->builtin == Builtin::WgmmaFence;
        ir::IRVisitor::visit(op);
    }
};

// Variables that some assignment changes anywhere in the kernel.
class AssignedVars : public ir::IRVisitor {
  public:
    std::set<const ir::VarNode*> vars;

  protected:
    void visit(const ir::Assign* op) override {
        vars.insert(op->var.get());
        ir::IRVisitor::visit(op);
    }
};

// How many statements write each buffer: stores, and the first argument of atomics and of the
// built-ins that take element references (copies, cp.async, TMA, mma: their destination).
class WrittenBuffers : public ir::IRVisitor {
  public:
    std::map<const ir::BufferNode*, int> writes;

  protected:
    void visit(const ir::Store* op) override {
        ++writes[op->buffer.get()];
        ir::IRVisitor::visit(op);
    }
    void visit(const ir::Call* op) override {
        BuiltinClass c = op->builtin == Builtin::DeviceFn ? BuiltinClass::Math : builtin_info(op->builtin).cls;
        auto* dst = op->args.empty() ? nullptr : ir::as<ir::Load>(op->args[0]);
        if (dst && (c == BuiltinClass::Atomic || c == BuiltinClass::Reference)) ++writes[dst->buffer.get()];
        ir::IRVisitor::visit(op);
    }
};

// The variables an expression reads, and whether it reads memory or calls anything but math.
class ExprUses : public ir::IRVisitor {
  public:
    std::set<const ir::VarNode*> vars;
    bool impure = false;

  protected:
    void visit(const ir::VarNode* op) override { vars.insert(op); }
    void visit(const ir::Load* op) override {
        impure = true;
        ir::IRVisitor::visit(op);
    }
    void visit(const ir::Call* op) override {
        BuiltinClass c = op->builtin == Builtin::DeviceFn ? BuiltinClass::Reference : builtin_info(op->builtin).cls;
        impure |= c != BuiltinClass::Math && c != BuiltinClass::FloatMath;
        ir::IRVisitor::visit(op);
    }
};

struct UnrolledLoop {
    ir::Var var;
    int64_t lo = 0, trips = 0;  // trips < 0: bounds not constant
};

// A register row whose reads become reads of a prefetched row: v[e] -> pf[row..., e].
struct Forward {
    const ir::BufferNode* from;
    ir::Buffer to;
    std::vector<ir::Expr> row;
};

// Walks the statements after a main loop, along the paths that reach copies.
class Epilogue {
  public:
    Epilogue(const std::set<const ir::BufferNode*>& read_only, const std::map<const ir::BufferNode*, int>& writes,
             const std::set<const ir::VarNode*>& assigned, ir::NameGen& names, int64_t& budget, int64_t& early_budget,
             std::set<const ir::BufferNode*>& made)
        : read_only_(read_only),
          writes_(writes),
          assigned_(assigned),
          names_(names),
          budget_(budget),
          early_budget_(early_budget),
          made_(made) {}

    ir::Stmt walk(const ir::Stmt& s) {
        if (stop_ || !s) return s;
        if (auto* b = ir::as<ir::Block>(s)) {
            VarMap saved = lets_;
            std::vector<ir::Stmt> out;
            bool changed = false;
            for (const ir::Stmt& c : b->stmts) {
                out.push_back(walk(c));
                changed |= out.back() != c;
            }
            lets_ = saved;
            return changed ? ir::Block::make(b->loc, out) : s;
        }
        if (auto* d = ir::as<ir::Decl>(s)) {
            declared_.insert(d->var.get());
            ExprUses u;
            u.visit_expr(d->init);
            if (d->is_const && !u.impure) lets_[d->var.get()] = substitute(d->init, lets_);
            return s;
        }
        if (auto* f = ir::as<ir::For>(s)) {
            declared_.insert(f->var.get());
            if (!f->unroll) return s;  // another loop: its body is not a straight path
            auto lo = ir::const_int(ir::simplify(substitute(f->lo, lets_)));
            auto hi = ir::const_int(ir::simplify(substitute(f->hi, lets_)));
            bool unit = ir::const_int(f->step) == std::optional<int64_t>(1);
            loops_.push_back({f->var, lo.value_or(0), lo && hi && unit ? *hi - *lo : -1});
            ir::Stmt body = walk(f->body);
            loops_.pop_back();
            return body == f->body ? s : ir::For::make(f->loc, f->var, f->lo, f->hi, f->step, f->unroll, body);
        }
        if (auto* i = ir::as<ir::If>(s)) {
            conds_.push_back(i->cond);
            ir::Stmt then_s = walk(i->then_s);
            conds_.back() = ir::Unary::make(ir::UnOp::Not, i->cond);
            ir::Stmt else_s = walk(i->else_s);
            conds_.pop_back();
            return then_s == i->then_s && else_s == i->else_s ? s
                                                              : ir::If::make(i->loc, i->cond, then_s, else_s, i->note);
        }
        if (auto* a = ir::as<ir::Alloc>(s)) alloc_depth_[a->buffer.get()] = loops_.size();
        if (auto* e = ir::as<ir::Evaluate>(s)) return copy(*e, s);
        // A return, break or continue may guard what follows it: nothing after it moves.
        if (s->kind == ir::StmtKind::Return || s->kind == ir::StmtKind::Break || s->kind == ir::StmtKind::Continue)
            stop_ = true;
        return s;
    }

    // What goes before the main loop: the register arrays and their copies; and right after it.
    std::vector<ir::Stmt> prefetches;
    std::vector<ir::Stmt> late;
    // The copies removed: their destinations' reads to redirect.
    std::vector<Forward> forwards;

  private:
    ir::Stmt copy(const ir::Evaluate& e, const ir::Stmt& self) {
        auto* call = ir::as<ir::Call>(e.value);
        int bytes = call ? ir::copy_bytes(*call) : 0;
        if (bytes <= 0) return self;
        auto* dst = ir::as<ir::Load>(call->args.at(0));
        auto* src = ir::as<ir::Load>(call->args.at(1));
        if (!dst || !src || dst->buffer->scope != ir::Scope::Register || !read_only_.count(src->buffer.get()) ||
            made_.count(dst->buffer.get()))  // an inner block's prefetch
            return self;
        std::vector<ir::Expr> index;
        ExprUses u;
        for (const ir::Expr& i : src->indices) {
            index.push_back(substitute(i, lets_));
            u.visit_expr(index.back());
        }
        ir::Expr guard;
        for (const ir::Expr& c : conds_) {
            ir::Expr g = substitute(c, lets_);
            u.visit_expr(g);
            guard = guard ? ir::Binary::make(ir::BinOp::And, guard, g) : g;
        }
        if (u.impure) return self;
        // The unrolled loops the copy depends on become dimensions of the register array.
        std::vector<const UnrolledLoop*> dims;
        for (const UnrolledLoop& l : loops_) {
            if (!u.vars.count(l.var.get())) continue;
            if (l.trips <= 0) return self;
            dims.push_back(&l);
            u.vars.erase(l.var.get());
        }
        for (const ir::VarNode* v : u.vars)
            if (declared_.count(v) || assigned_.count(v)) return self;
        int64_t total = bytes;
        for (const UnrolledLoop* l : dims) total *= l->trips;
        if (total > budget_) return self;
        bool early = total <= early_budget_;  // else right after the main loop
        budget_ -= total;
        if (early) early_budget_ -= total;

        int64_t per_row = bytes / byte_size(src->buffer->elem);
        std::vector<ir::Expr> shape;
        for (const UnrolledLoop* l : dims) shape.push_back(ir::i32(l->trips));
        shape.push_back(ir::i32(per_row));
        ir::Buffer pf =
            ir::make_buffer(names_.fresh("pf_" + src->buffer->name), src->buffer->elem, shape, ir::Scope::Register);
        // Before the main loop: for each iteration d of those loops (var = lo + d), the copy.
        VarMap at;
        std::vector<ir::Var> ds;
        std::vector<ir::Expr> row_here, row_there;  // pf's row at the main loop / at the copy
        for (const UnrolledLoop* l : dims) {
            ds.push_back(ir::make_var(ScalarType::I32, names_.fresh(l->var->name)));
            at[l->var.get()] = ir::simplify(ir::add(ir::i32(l->lo), ds.back()));
            row_here.push_back(ds.back());
            row_there.push_back(ir::simplify(ir::sub(l->var, ir::i32(l->lo))));
        }
        row_here.push_back(ir::i32(0));
        row_there.push_back(ir::i32(0));
        std::vector<ir::Expr> moved;
        for (const ir::Expr& i : index) moved.push_back(ir::simplify(substitute(i, at)));
        ir::Stmt load = ir::Evaluate::make(
            e.loc, ir::Call::make_void(call->builtin,
                                       {ir::Load::make(pf, row_here), ir::Load::make(src->buffer, moved, src->loc)}));
        if (guard) load = ir::If::make(e.loc, ir::simplify(substitute(guard, at)), load, nullptr);
        for (size_t d = dims.size(); d-- > 0;)
            load = ir::For::make(e.loc, ds[d], ir::i32(0), ir::i32(dims[d]->trips), ir::i32(1), true, load);
        made_.insert(pf.get());
        std::vector<ir::Stmt>& where = early ? prefetches : late;
        where.push_back(ir::Alloc::make(e.loc, pf));
        where.push_back(load);
        if (forwardable(*dst, per_row)) {
            row_there.pop_back();
            forwards.push_back({dst->buffer.get(), pf, row_there});
            return ir::Block::make(e.loc, {});
        }
        return ir::Evaluate::make(
            e.loc, ir::Call::make_void(call->builtin, {call->args.at(0), ir::Load::make(pf, row_there)}));
    }

    // The copy into `dst` can go: it fills a whole row of registers that nothing else writes,
    // declared inside the same unrolled loops as the copy (so the row's index is in scope
    // wherever the registers are read).
    bool forwardable(const ir::Load& dst, int64_t per_row) const {
        auto depth = alloc_depth_.find(dst.buffer.get());
        auto w = writes_.find(dst.buffer.get());
        return depth != alloc_depth_.end() && depth->second == loops_.size() && w != writes_.end() && w->second == 1 &&
               dst.buffer->shape.size() == 1 && dst.indices.size() == 1 &&
               ir::const_int(dst.buffer->shape[0]) == std::optional<int64_t>(per_row) &&
               ir::const_int(dst.indices[0]) == std::optional<int64_t>(0);
    }

    const std::set<const ir::BufferNode*>& read_only_;
    const std::map<const ir::BufferNode*, int>& writes_;
    const std::set<const ir::VarNode*>& assigned_;
    ir::NameGen& names_;
    int64_t& budget_;
    int64_t& early_budget_;
    std::set<const ir::BufferNode*>& made_;
    VarMap lets_;
    std::set<const ir::VarNode*> declared_;                // declared after the main loop (visible or not)
    std::map<const ir::BufferNode*, size_t> alloc_depth_;  // arrays declared after it: unrolled loops around
    std::vector<UnrolledLoop> loops_;
    std::vector<ir::Expr> conds_;
    bool stop_ = false;
};

class Prefetch : public ir::IRMutator {
  public:
    Prefetch(const ir::Stmt& body, std::set<const ir::BufferNode*> read_only,
             std::map<const ir::BufferNode*, int> writes, int64_t threads)  // threads: 0 where not constant
        : read_only_(std::move(read_only)), writes_(std::move(writes)), names_(body) {
        AssignedVars a;
        a.visit_stmt(body);
        assigned_ = std::move(a.vars);
        IssuesWgmma w;
        w.visit_stmt(body);
        if (w.found) {
            budget_ = kMaxWgmmaBytes;
            early_budget_ = threads > 0 && threads <= 256 ? kMaxWgmmaBytes : kMaxWgmmaEarlyLarge;
        }
    }

  protected:
    ir::Stmt visit(const ir::Block* op, const ir::Stmt& self) override {
        ir::Stmt s = ir::IRMutator::visit(op, self);  // inner blocks first
        auto* b = ir::as<ir::Block>(s);
        size_t main = b->stmts.size();
        for (size_t i = 0; i < b->stmts.size(); ++i) {
            auto* f = ir::as<ir::For>(b->stmts[i]);
            if (f && !f->unroll) main = i;
        }
        if (main == b->stmts.size()) return s;
        Epilogue ep(read_only_, writes_, assigned_, names_, budget_, early_budget_, made_);
        std::vector<ir::Stmt> tail;
        for (size_t i = main + 1; i < b->stmts.size(); ++i) tail.push_back(ep.walk(b->stmts[i]));
        if (ep.prefetches.empty() && ep.late.empty()) return s;
        for (const Forward& f : ep.forwards)
            for (ir::Stmt& t : tail)
                t = replace_loads(t, [&](const ir::Load& l) -> ir::Expr {
                    if (l.buffer.get() != f.from) return nullptr;
                    std::vector<ir::Expr> at = f.row;
                    at.insert(at.end(), l.indices.begin(), l.indices.end());
                    return ir::Load::make(f.to, at, l.loc);
                });
        std::vector<ir::Stmt> out(b->stmts.begin(), b->stmts.begin() + static_cast<std::ptrdiff_t>(main));
        out.insert(out.end(), ep.prefetches.begin(), ep.prefetches.end());
        out.push_back(b->stmts[main]);
        out.insert(out.end(), ep.late.begin(), ep.late.end());
        out.insert(out.end(), tail.begin(), tail.end());
        return ir::Block::make(b->loc, out);
    }

  private:
    std::set<const ir::BufferNode*> read_only_;
    std::map<const ir::BufferNode*, int> writes_;
    std::set<const ir::VarNode*> assigned_;
    ir::NameGen names_;
    int64_t budget_ = kMaxBytes;
    int64_t early_budget_ = kMaxBytes;
    std::set<const ir::BufferNode*> made_;  // the register arrays prefetched into
};

}  // namespace

void prefetch_epilogue_loads(Graph& g) {
    for (Node* n : g.live()) {
        if (n->kind != Node::Kind::Anchor) continue;
        WrittenBuffers w;
        w.visit_stmt(n->anchor.body);
        std::set<const ir::BufferNode*> read_only;
        for (const ir::Buffer& b : reads(*n))
            if (b != n->buffer && !w.writes.count(b.get())) read_only.insert(b.get());
        n->anchor.body =
            Prefetch(n->anchor.body, read_only, w.writes, ir::constant_threads(n->anchor)).mutate(n->anchor.body);
    }
}

}  // namespace hds::graph
