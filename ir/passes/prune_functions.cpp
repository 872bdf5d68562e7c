// prune_functions.cpp — drops device functions no kernel calls (directly or
// through other device functions), so the .cu holds only code that runs.
#include <set>

#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::ir {

namespace {
class CollectCalls : public IRVisitor {
  public:
    std::set<std::string> called;

  protected:
    void visit(const Call* c) override {
        if (c->builtin == Builtin::DeviceFn) called.insert(c->function);
        IRVisitor::visit(c);
    }
};
}  // namespace

void prune_functions(Module& m) {
    CollectCalls calls;
    for (const Kernel& k : m.kernels) calls.visit_stmt(k.body);
    // Grow the set through calls between device functions until it is stable.
    for (size_t before = 0; before != calls.called.size();) {
        before = calls.called.size();
        for (const DeviceFunction& f : m.functions)
            if (calls.called.count(f.name)) calls.visit_stmt(f.body);
    }
    std::vector<DeviceFunction> kept;
    for (DeviceFunction& f : m.functions)
        if (calls.called.count(f.name)) kept.push_back(std::move(f));
    m.functions = std::move(kept);
}

}  // namespace hds::ir
