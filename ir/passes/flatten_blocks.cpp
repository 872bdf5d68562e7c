// flatten_blocks.cpp — splices a nested block into its parent block when none
// of the names it declares is declared by the parent too, so that lowered
// mapping loops and other generated blocks do not show up as stray `{ }`.
#include <set>

#include "ir/ir_mutator.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {

void declared_names(const std::vector<Stmt>& stmts, std::set<std::string>* out) {
    for (const Stmt& s : stmts) {
        if (auto* d = as<Decl>(s)) out->insert(d->var->name);
        if (auto* a = as<Alloc>(s)) out->insert(a->buffer->name);
    }
}

class FlattenBlocks : public IRMutator {
  protected:
    Stmt visit(const Block* op, const Stmt& self) override {
        std::vector<Stmt> out;
        bool changed = false;
        for (const Stmt& s : op->stmts) {
            Stmt m = mutate(s);
            changed |= m != s;
            auto* inner = as<Block>(m);
            if (inner) {
                std::set<std::string> outer_names, inner_names;
                declared_names(op->stmts, &outer_names);
                declared_names(out, &outer_names);
                declared_names(inner->stmts, &inner_names);
                bool clash = false;
                for (const std::string& n : inner_names) clash |= outer_names.count(n) > 0;
                if (!clash) {
                    out.insert(out.end(), inner->stmts.begin(), inner->stmts.end());
                    changed = true;
                    continue;
                }
            }
            out.push_back(m);
        }
        return changed ? Block::make(op->loc, out) : self;
    }
};

}  // namespace

Stmt flatten_blocks(const Stmt& body) {
    FlattenBlocks pass;
    return pass.mutate(body);
}

}  // namespace hds::ir
