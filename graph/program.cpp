// program.cpp — kernels for the nodes that survived fusion, and the workspace plan.
#include "graph/program.h"

#include <algorithm>
#include <set>

#include "graph/decisions.h"
#include "graph/schedule.h"
#include "graph/strided_view.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

bool Program::is_temp(const ir::Buffer& b) const {
    return std::find(temps.begin(), temps.end(), b) != temps.end();
}

const ir::Buffer& Program::storage_of(const ir::Buffer& b) const {
    const View* v = view_of(b);
    return v ? v->source : b;
}

const Program::View* Program::view_of(const ir::Buffer& b) const {
    for (const View& v : views)
        if (v.view == b) return &v;
    return nullptr;
}

namespace {

// Global buffers and variables a kernel body touches.
class Uses : public ir::IRVisitor {
  public:
    std::vector<ir::Buffer> buffers;
    std::set<const ir::VarNode*> vars;
    std::set<const ir::BufferNode*> written;

    void buffer(const ir::Buffer& b) {
        if (b->scope != ir::Scope::Global) return;
        if (std::find(buffers.begin(), buffers.end(), b) == buffers.end()) buffers.push_back(b);
        for (const ir::Expr& d : b->shape) visit_expr(d);
    }

  protected:
    void visit(const ir::VarNode* v) override { vars.insert(v); }
    void visit(const ir::Load* op) override {
        ir::IRVisitor::visit(op);
        buffer(op->buffer);
    }
    void visit(const ir::Store* op) override {
        ir::IRVisitor::visit(op);
        buffer(op->buffer);
        written.insert(op->buffer.get());
    }
    void visit(const ir::Call* op) override {
        ir::IRVisitor::visit(op);
        if (builtin_writes_first_operand(op->builtin)) written.insert(ir::as<ir::Load>(op->args.at(0))->buffer.get());
    }
};

std::string kernel_name(const Graph& g, size_t index, const std::string& ops) {
    std::string name = g.name + "_k" + std::to_string(index);
    std::string part;
    int count = 0;
    for (size_t i = 0; i <= ops.size(); ++i) {
        if (i < ops.size() && ops[i] != '+') {
            part += ops[i];
            continue;
        }
        if (++count <= 3) name += "_" + part;
        part.clear();
    }
    return name;
}

// The kernel's parameters (the global buffers it touches, inputs first), its sizes, and
// its locals renamed clear of them.
void finish_kernel(const Graph& g, ir::Kernel& k) {
    Uses u;
    u.visit_stmt(k.body);
    for (const ir::Expr& e : k.grid) u.visit_expr(e);
    for (const ir::Expr& e : k.block) u.visit_expr(e);
    if (k.cluster_per_call) u.visit_expr(k.cluster_per_call);
    std::vector<ir::Buffer> bufs = u.buffers;
    for (const ir::Buffer& b : bufs) u.buffer(b);  // sizes in shapes
    // Inputs first (in graph order), then what the kernel computes.
    std::stable_sort(bufs.begin(), bufs.end(), [&](const ir::Buffer& a, const ir::Buffer& b) {
        return !u.written.count(a.get()) && u.written.count(b.get());
    });
    for (const ir::Buffer& b : bufs) {
        ir::KernelParam p;
        p.kind = ir::KernelParam::Kind::Tensor;
        p.buffer = b;
        p.written = u.written.count(b.get()) > 0;
        k.params.push_back(p);
    }
    for (const ir::Var& s : g.sizes)
        if (u.vars.count(s.get())) k.sizes.push_back(s);
    // A schedule's locals (`r`, `w`) must not hide the graph's tensors its epilogue reads.
    std::set<std::string> taken;
    for (const ir::KernelParam& p : k.params) taken.insert(p.buffer->name);
    for (const ir::Var& s : k.sizes) taken.insert(s->name);
    k.body = ir::rename_locals(k.body, taken);
}

// Whether `k` reads a tensor that `before` writes.
bool reads_written(const ir::Kernel& k, const ir::Kernel& before) {
    for (const ir::KernelParam& w : before.params)
        if (w.kind == ir::KernelParam::Kind::Tensor && w.written)
            for (const ir::KernelParam& r : k.params)
                if (r.buffer == w.buffer && !r.written) return true;
    return false;
}

// The node's kernel, or its kernels one per case (a row group's regimes), with how
// each is launched; `index` numbers the node among those with kernels.
std::vector<std::pair<ir::Kernel, Program::Launch>> make_kernels(const Graph& g, const Node& n, size_t index) {
    std::vector<KernelCase> cases;
    if (n.kind == Node::Kind::Anchor) {
        ir::Kernel k;
        k.body = n.anchor.body;
        k.grid = n.anchor.grid;
        k.block = n.anchor.block;
        k.cluster = n.anchor.cluster;
        k.cluster_per_call = n.anchor.cluster_per_call;
        k.min_blocks = n.anchor.min_blocks;
        cases.push_back({k, nullptr, "", ""});
    } else if (n.kind == Node::Kind::RowGroup) {
        cases = schedule_row_group(n, g.arch);
    } else {
        ir::Kernel k;
        if (n.compute.injective())
            schedule_injective(n, k);
        else
            schedule_reduction(n, k);
        cases.push_back({k, nullptr, "", ""});
    }
    std::vector<std::pair<ir::Kernel, Program::Launch>> out;
    for (size_t i = 0; i < cases.size(); ++i) {
        ir::Kernel& k = cases[i].k;
        k.name = kernel_name(g, index, n.ops) + (cases[i].suffix.empty() ? "" : "_" + cases[i].suffix);
        k.loc = n.loc;
        finish_kernel(g, k);
        // A regime over the shared memory of some sm_80+ GPUs gives way to the next one there.
        ir::Expr when = cases[i].when;
        std::optional<Condition> fits = when ? shared_memory_condition(g.arch, ir::shared_bytes(k)) : std::nullopt;
        if (fits) when = ir::Binary::make(ir::BinOp::And, when, fits->expr);
        out.push_back({k, {when, i > 0, cases[i].note, cases[i].suffix}});
    }
    return out;
}

bool materialized(const ir::Buffer& b, const Program& p) {
    return b == p.output || p.is_temp(b) || std::find(p.inputs.begin(), p.inputs.end(), b) != p.inputs.end() ||
           p.view_of(b) != nullptr;
}

// The materialized buffer `n` is a view of, where it is a reshape and not the output.
ir::Buffer view_source(const Node& n, const Program& p) {
    ir::Buffer source = reshape_source(n);
    if (!source || n.buffer == p.output) return nullptr;
    return materialized(source, p) ? source : nullptr;
}

// A strided view: `n` picks elements of a materialized tensor at an affine offset
// and every reader copies it only with TMA.
std::optional<Program::View> strided_view(const Graph& g, const Node& n, const Program& p) {
    if (n.buffer == p.output) return std::nullopt;
    std::optional<AffineForm> form = affine_form(n);
    if (!form || !materialized(form->source, p)) return std::nullopt;
    const Program::View* of = p.view_of(form->source);
    if (of && of->strided()) return std::nullopt;  // (a reshape's row-major offsets are its source's)
    bool read = false;
    for (const Node* u : g.live()) {
        std::vector<ir::Buffer> r = reads(*u);
        if (u == &n || std::find(r.begin(), r.end(), n.buffer) == r.end()) continue;
        if (u->kind != Node::Kind::Anchor || !only_tma_reads(u->anchor.body, n.buffer)) return std::nullopt;
        read = true;
    }
    if (!read) return std::nullopt;
    return Program::View{n.buffer, p.storage_of(form->source), form->offset, form->strides};
}

// Where the output is a reshape of what a kernel computes, that kernel writes the
// output's memory (its buffer a view of the output) and the reshape is no copy.
const Node* output_view_source(const Graph& g) {
    ir::Buffer source = reshape_source(*g.output);
    if (!source) return nullptr;
    for (const Node* n : g.live())
        if (n->buffer == source && n->kind != Node::Kind::Input && n->kind != Node::Kind::Constant) return n;
    return nullptr;
}

// Greedy slot reuse: a temporary takes the first slot whose last reader ran
// before the temporary's producer (the first of its kernels, where one of several
// cases writes it).
void plan_workspace(Program& p) {
    std::vector<size_t> def(p.temps.size(), p.module.kernels.size()), last(p.temps.size());
    for (size_t t = 0; t < p.temps.size(); ++t) {
        for (size_t k = 0; k < p.module.kernels.size(); ++k) {
            for (const ir::KernelParam& prm : p.module.kernels[k].params) {
                if (p.storage_of(prm.buffer) != p.temps[t]) continue;  // a view's readers read its source
                if (prm.written) def[t] = std::min(def[t], k);         // one node writes each temporary
                last[t] = std::max(last[t], k);
            }
        }
    }
    std::vector<size_t> slot_free_after;  // last use of the slot's current temporary
    for (size_t t = 0; t < p.temps.size(); ++t) {
        int slot = -1;
        for (size_t s = 0; s < slot_free_after.size() && slot < 0; ++s)
            if (slot_free_after[s] < def[t]) slot = static_cast<int>(s);
        if (slot < 0) {
            slot = static_cast<int>(slot_free_after.size());
            slot_free_after.push_back(0);
        }
        slot_free_after[slot] = last[t];
        p.slot_of.push_back(slot);
    }
    p.slots = static_cast<int>(slot_free_after.size());
}

}  // namespace

Program schedule_graph(const Graph& g, const std::vector<ir::DeviceFunction>& functions,
                       const std::vector<std::string>& file_names) {
    Program p;
    p.name = g.name;
    p.loc = g.loc;
    p.sizes = g.sizes;
    p.requirements = g.requirements;
    for (const Node* in : g.inputs) p.inputs.push_back(in->buffer);
    p.output = g.output->buffer;
    p.module.functions = functions;
    p.module.file_names = file_names;
    const Node* writes_output = output_view_source(g);
    size_t nodes = 0;  // with kernels
    for (Node* n : g.live()) {
        if (n->kind == Node::Kind::Input || n->kind == Node::Kind::Constant) continue;
        if (n == g.output && writes_output) continue;
        if (ir::Buffer source = n == writes_output ? nullptr : view_source(*n, p); source) {
            p.views.push_back({n->buffer, p.storage_of(source), nullptr, {}});
            continue;
        }
        if (std::optional<Program::View> v = strided_view(g, *n, p)) {
            p.views.push_back(*v);
            continue;
        }
        std::string where = n->loc.valid() && n->loc.file <= file_names.size()
                                ? file_names[n->loc.file - 1] + ":" + std::to_string(n->loc.line)
                                : "";
        for (auto& [k, launch] : make_kernels(g, *n, nodes++)) {
            // The second kernel of a `then` schedule (a small one, such as flash decoding's
            // combine) launches programmatically after the first, which lets it be placed
            // while the first runs; between other kernels that placement measured slower
            // (bench/results/2026-11-27-h200-dependent-launch). Not one that picks its
            // cluster per call: that launch sets the cluster's size alone.
            if (n->then_second && !k.cluster_per_call && !p.module.kernels.empty() &&
                reads_written(k, p.module.kernels.back())) {
                k.wait_previous = true;
                p.module.kernels.back().trigger_next = true;
            }
            p.module.kernels.push_back(std::move(k));
            p.launches.push_back(std::move(launch));
            p.origins.push_back(n->ops + (where.empty() ? "" : " (" + where + ")"));
        }
        if (n == writes_output)
            p.views.push_back({n->buffer, p.output, nullptr, {}});
        else if (n->buffer != p.output)
            p.temps.push_back(n->buffer);
    }
    plan_workspace(p);
    return p;
}

}  // namespace hds::graph
