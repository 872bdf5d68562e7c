// flatten_indices.cpp — row-major linearisation of global tensor accesses:
// a[i, j, k] on shape [D0, D1, D2] becomes a[(i * D1 + j) * D2 + k]. The
// arithmetic is done in the widest index type used (i32 unless an index is
// i64); launchers reject tensors with 2^31 or more elements for i32 indexing.
// TMA sources keep their coordinates (the tensor map does the addressing).
#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

class FlattenIndices : public IRMutator {
  protected:
    Expr visit(const Load* op, const Expr& self) override {
        bool changed = false;
        auto idx = mutate_all(op->indices, &changed);
        if (op->buffer->scope == Scope::Global && idx.size() > 1)
            return Load::make(op->buffer, {linear(op->buffer, idx)}, op->loc);
        return changed ? Load::make(op->buffer, idx, op->loc) : self;
    }

    Stmt visit(const Store* op, const Stmt& self) override {
        bool changed = false;
        auto idx = mutate_all(op->indices, &changed);
        Expr v = mutate(op->value);
        if (op->buffer->scope == Scope::Global && idx.size() > 1)
            return Store::make(op->loc, op->buffer, {linear(op->buffer, idx)}, v, op->op);
        if (!changed && v == op->value) return self;
        return Store::make(op->loc, op->buffer, idx, v, op->op);
    }

    Expr visit(const Call* op, const Expr& self) override {
        if (!is_tma_load(op->builtin)) return IRMutator::visit(op, self);
        // The copy engine takes the box's coordinates, not an address: a[r, c] stays.
        std::vector<Expr> args;
        for (size_t i = 0; i < op->args.size(); ++i) {
            const Load* l = as<Load>(op->args[i]);
            bool changed = false;
            args.push_back(i == 1 ? Load::make(l->buffer, mutate_all(l->indices, &changed), l->loc)
                                  : mutate(op->args[i]));
        }
        return Call::make_void(op->builtin, args);
    }

  private:
    static Expr linear(const Buffer& b, const std::vector<Expr>& idx) {
        ScalarType t = ScalarType::I32;
        for (const Expr& i : idx)
            if (i->type == ScalarType::I64 || i->type == ScalarType::U64) t = ScalarType::I64;
        Expr acc = Cast::make(t, idx[0]);
        for (size_t d = 1; d < idx.size(); ++d) acc = add(mul(acc, Cast::make(t, b->shape[d])), Cast::make(t, idx[d]));
        return acc;
    }
};

}  // namespace

Stmt flatten_indices(const Stmt& body) {
    FlattenIndices pass;
    return pass.mutate(body);
}

}  // namespace hds::ir
