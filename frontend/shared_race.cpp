// shared_race.cpp — -Wshared-race (see shared_race.h).
#include "frontend/shared_race.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "frontend/symbol.h"
#include "ir/builtins.h"

namespace hds {

namespace {

const NameExpr* shared_base(const Expr& e) {
    if (e.kind != ExprKind::Index) return nullptr;
    const Expr& base = *static_cast<const IndexExpr&>(e).base;
    if (base.kind != ExprKind::Name) return nullptr;
    const Symbol* s = static_cast<const NameExpr&>(base).symbol;
    return s && s->kind == Symbol::Kind::Tensor && s->tensor.space == MemSpace::Shared
               ? &static_cast<const NameExpr&>(base)
               : nullptr;
}

// Structural equality of index expressions, names compared by spelling (each
// loop has its own symbol for `i`, but `s[i]` in two loops over the same
// mapping is the same element for a thread).
bool same(const Expr& a, const Expr& b) {
    if (a.kind != b.kind) return false;
    if (a.value && b.value)
        return a.value->kind == b.value->kind && a.value->i == b.value->i && a.value->f == b.value->f;
    switch (a.kind) {
        case ExprKind::Name:
            return static_cast<const NameExpr&>(a).name == static_cast<const NameExpr&>(b).name;
        case ExprKind::Member: {
            auto &x = static_cast<const MemberExpr&>(a), &y = static_cast<const MemberExpr&>(b);
            return x.member == y.member && same(*x.base, *y.base);
        }
        case ExprKind::Unary: {
            auto &x = static_cast<const UnaryExpr&>(a), &y = static_cast<const UnaryExpr&>(b);
            return x.op == y.op && same(*x.operand, *y.operand);
        }
        case ExprKind::Binary: {
            auto &x = static_cast<const BinaryExpr&>(a), &y = static_cast<const BinaryExpr&>(b);
            return x.op == y.op && same(*x.lhs, *y.lhs) && same(*x.rhs, *y.rhs);
        }
        case ExprKind::Cast: {
            auto &x = static_cast<const CastExpr&>(a), &y = static_cast<const CastExpr&>(b);
            return x.target == y.target && same(*x.operand, *y.operand);
        }
        default:
            return false;
    }
}

bool same_indices(const IndexExpr& a, const IndexExpr& b) {
    if (a.indices.size() != b.indices.size()) return false;
    for (size_t i = 0; i < a.indices.size(); ++i)
        if (!same(*a.indices[i], *b.indices[i])) return false;
    return true;
}

// Shared tensors written since the last barrier: the writes (element references), by symbol.
using Pending = std::map<const Symbol*, std::vector<const IndexExpr*>>;

void merge(Pending& into, const Pending& from) {
    for (const auto& [sym, writes] : from) {
        auto& w = into[sym];
        for (const IndexExpr* x : writes)
            if (std::find(w.begin(), w.end(), x) == w.end()) w.push_back(x);
    }
}

class Walker {
  public:
    explicit Walker(DiagnosticsEngine& d) : diags_(d) {}

    void stmt(const Stmt& s, Pending& p) {
        switch (s.kind) {
            case StmtKind::Let: {
                auto& l = static_cast<const LetStmt&>(s);
                if (l.init) read(*l.init, p);
                return;
            }
            case StmtKind::Assign: {
                auto& a = static_cast<const AssignStmt&>(s);
                read(*a.value, p);
                if (a.target->kind == ExprKind::Index)
                    for (const ExprPtr& i : static_cast<const IndexExpr&>(*a.target).indices) read(*i, p);
                if (const NameExpr* n = shared_base(*a.target))
                    p[n->symbol].push_back(static_cast<const IndexExpr*>(a.target.get()));
                return;
            }
            case StmtKind::ExprStmt:
                read(*static_cast<const ExprStmt&>(s).expr, p);
                return;
            case StmtKind::If: {
                auto& i = static_cast<const IfStmt&>(s);
                read(*i.cond, p);
                Pending then_p = p, else_p = p;
                if (i.constant_branch != 0) stmt(*i.then_block, then_p);
                if (i.else_stmt && i.constant_branch != 1) stmt(*i.else_stmt, else_p);
                if (i.constant_branch == 1) else_p = then_p;
                if (i.constant_branch == 0) then_p = else_p;
                p = then_p;
                merge(p, else_p);
                return;
            }
            case StmtKind::For: {
                auto& f = static_cast<const ForStmt&>(s);
                read(*f.iterable, p);
                if (f.hi) read(*f.hi, p);
                if (f.step) read(*f.step, p);
                // Twice: what the end of one iteration writes reaches the start of the next.
                Pending first = p;
                stmt(*f.body, first);
                Pending second = p;
                merge(second, first);
                stmt(*f.body, second);
                p = second;
                return;
            }
            case StmtKind::Return: {
                auto& r = static_cast<const ReturnStmt&>(s);
                if (r.value) read(*r.value, p);
                return;
            }
            case StmtKind::Break:
            case StmtKind::Continue:
                return;
            case StmtKind::Block:
                for (const StmtPtr& c : static_cast<const BlockStmt&>(s).stmts) stmt(*c, p);
                return;
        }
    }

  private:
    void check_read(const IndexExpr& e, const Symbol* sym, const Pending& p) {
        auto it = p.find(sym);
        if (it == p.end()) return;
        const IndexExpr* other = nullptr;
        for (const IndexExpr* w : it->second)
            if (!same_indices(*w, e)) other = w;
        if (!other) return;
        const SourceLoc& l = e.range.begin;
        if (!reported_.insert({l.file, l.line, l.col}).second) return;
        diags_.warning(DiagId::shared_read_before_barrier, e.range, sym->name);
        diags_.note(other->range, "written here; a syncthreads() between the two makes the write visible");
    }

    void read(const Expr& e, Pending& p) {
        switch (e.kind) {
            case ExprKind::Index: {
                auto& ix = static_cast<const IndexExpr&>(e);
                for (const ExprPtr& i : ix.indices) read(*i, p);
                if (const NameExpr* n = shared_base(e)) check_read(ix, n->symbol, p);
                return;
            }
            case ExprKind::Member:
                return read(*static_cast<const MemberExpr&>(e).base, p);
            case ExprKind::Unary:
                return read(*static_cast<const UnaryExpr&>(e).operand, p);
            case ExprKind::Binary:
                read(*static_cast<const BinaryExpr&>(e).lhs, p);
                return read(*static_cast<const BinaryExpr&>(e).rhs, p);
            case ExprKind::Cond: {
                auto& c = static_cast<const CondExpr&>(e);
                read(*c.cond, p);
                read(*c.then_expr, p);
                return read(*c.else_expr, p);
            }
            case ExprKind::Cast:
                return read(*static_cast<const CastExpr&>(e).operand, p);
            case ExprKind::Call:
                return call(static_cast<const CallExpr&>(e), p);
            default:
                return;
        }
    }

    void call(const CallExpr& c, Pending& p) {
        const BuiltinInfo* b = c.symbol ? nullptr : find_builtin(c.callee);
        if (!b || b->cls != BuiltinClass::Reference) {
            for (const CallArg& a : c.args) read(*a.value, p);
            if (b && (b->id == Builtin::SyncThreads || b->id == Builtin::SyncWarp)) p.clear();
            return;
        }
        switch (b->id) {
            case Builtin::MbarrierWait:
            case Builtin::ClusterSync:
            case Builtin::ClusterSyncRelaxed:
            case Builtin::BarrierSync:  // (orders the threads that meet there; assumed to be the writers)
                p.clear();
                return;
            case Builtin::BarrierArrive:
                return;
            case Builtin::MbarrierInit:  // barrier words: ordered by the barrier protocol itself
            case Builtin::MbarrierArrive:
            case Builtin::MbarrierExpectTx:
            case Builtin::MbarrierArriveCluster:
                return;
            default:
                break;
        }
        // Element references: the first is written by the built-ins that write it,
        // the others are read (a copy's source, ldmatrix's rows, wgmma's A and B).
        int refs = builtin_reference_operands(b->id);
        for (size_t i = 0; i < c.args.size(); ++i) {
            const Expr& a = *c.args[i].value;
            bool ref = static_cast<int>(i) < refs || b->id == Builtin::Copy4 || b->id == Builtin::Copy8 ||
                       b->id == Builtin::Copy16 || b->id == Builtin::CopyVec4;
            if (!ref || a.kind != ExprKind::Index) {
                read(a, p);
                continue;
            }
            auto& ix = static_cast<const IndexExpr&>(a);
            for (const ExprPtr& idx : ix.indices) read(*idx, p);
            const NameExpr* n = shared_base(a);
            if (!n) continue;
            if (i == 0 && builtin_writes_first_operand(b->id))
                p[n->symbol].push_back(&ix);
            else
                check_read(ix, n->symbol, p);
        }
    }

    DiagnosticsEngine& diags_;
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> reported_;
};

}  // namespace

void warn_shared_reads_before_barrier(const KernelDecl& k, DiagnosticsEngine& diags) {
    if (!k.body) return;
    Pending p;
    Walker(diags).stmt(*k.body, p);
}

}  // namespace hds
