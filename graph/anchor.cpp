// anchor.cpp — instantiating an op's hand-written schedule kernel over graph buffers.
#include "graph/anchor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include "frontend/ast_clone.h"
#include "graph/padding.h"
#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"

#include "ir/ir_mutator.h"
#include "ir/ir_printer.h"
#include "ir/ir_visitor.h"
#include "ir/passes/passes.h"

namespace hds::graph {

namespace {

const KernelDecl* find_kernel(const Module& m, const std::string& name) {
    for (const DeclPtr& d : m.decls)
        if (d->kind == DeclKind::Kernel && d->name == name) return &as<KernelDecl>(*d);
    return nullptr;
}

// How a schedule parameter's dimensions sit in its graph tensor. Where the
// op's tensor has a spread (`q: T[*B, L, D]`), the parameter has one dimension
// for it (`q: T[B, L, 64]`): kernel dimension `at` stands for graph dimensions
// at .. at + count - 1 (their product; none: a size of 1), the others map one
// to one.
struct ParamFit {
    ir::Buffer to;
    size_t at = 0, count = 1;

    // The spread's graph dimensions.
    Shape spread() const {
        auto first = to->shape.begin() + static_cast<std::ptrdiff_t>(at);
        return Shape(first, first + static_cast<std::ptrdiff_t>(count));
    }
    // The graph dimension(s) behind kernel dimension d.
    ir::Expr dim(size_t d) const {
        if (d < at) return to->shape[d];
        if (d > at) return to->shape[d + count - 1];
        return numel(spread());
    }
    // Graph indices for kernel indices: the spread's index unravelled.
    std::vector<ir::Expr> indices(const std::vector<ir::Expr>& in) const {
        if (count == 1) return in;
        std::vector<ir::Expr> out(in.begin(), in.begin() + static_cast<std::ptrdiff_t>(at));
        for (ir::Expr& i : unravel_indices(in[at], spread())) out.push_back(i);
        out.insert(out.end(), in.begin() + static_cast<std::ptrdiff_t>(at) + 1, in.end());
        return out;
    }
};

// The fit of a kernel parameter of `rank` dimensions for the op's tensor
// declared `decl` and bound to `to`; nullopt when the ranks disagree.
std::optional<ParamFit> fit_param(const TypeRef& decl, size_t rank, const ir::Buffer& to) {
    ParamFit f{to};
    size_t graph_rank = to->shape.size();
    auto spread =
        std::find_if(decl.dims.begin(), decl.dims.end(), [](const ExprPtr& d) { return d->kind == ExprKind::Spread; });
    if (spread == decl.dims.end()) {
        if (rank != graph_rank) return std::nullopt;
        f.at = rank;  // no spread: every dimension maps to itself
        return f;
    }
    if (rank != decl.dims.size()) return std::nullopt;
    f.at = static_cast<size_t>(spread - decl.dims.begin());
    f.count = graph_rank + 1 - rank;
    return f;
}

// Loads of the schedule's tensor parameters and stores into its result read
// and write the graph buffers instead.
class Retarget : public ir::IRMutator {
  public:
    explicit Retarget(const std::map<const ir::BufferNode*, ParamFit>& fits) : fits_(fits) {}

  protected:
    ir::Expr visit(const ir::Load* op, const ir::Expr& self) override {
        ir::Expr e = ir::IRMutator::visit(op, self);
        auto* l = ir::as<ir::Load>(e);
        auto it = fits_.find(l->buffer.get());
        return it == fits_.end() ? e : ir::Load::make(it->second.to, it->second.indices(l->indices), l->loc);
    }
    ir::Stmt visit(const ir::Store* op, const ir::Stmt& self) override {
        ir::Stmt s = ir::IRMutator::visit(op, self);
        auto* st = ir::as<ir::Store>(s);
        auto it = fits_.find(st->buffer.get());
        if (it == fits_.end()) return s;
        return ir::Store::make(st->loc, it->second.to, it->second.indices(st->indices), st->value, st->op);
    }

  private:
    const std::map<const ir::BufferNode*, ParamFit>& fits_;
};

// Whether every tensor the body copies with TMA has rows of a multiple of 16
// bytes in the graph (the copy engine's requirement). A symbolic width cannot
// be promised: the build decides (decisions.h), and without decisions such
// calls keep the next schedule.
bool tma_rows_aligned(const ir::Stmt& body, const std::map<std::string, ir::Buffer>& targets, Decisions* decisions) {
    struct Finder : ir::IRVisitor {
        std::vector<std::string> sources;
        void visit(const ir::Call* c) override {
            ir::IRVisitor::visit(c);
            if (is_tma_load(c->builtin)) sources.push_back(ir::as<ir::Load>(c->args.at(1))->buffer->name);
        }
    } f;
    f.visit_stmt(body);
    std::map<std::string, std::pair<ir::Expr, int64_t>> needed;  // symbolic width -> the multiple of elements
    for (const std::string& name : f.sources) {
        const ir::Buffer& t = targets.at(name);
        if (auto cols = ir::const_int(t->shape.back())) {
            if (*cols * byte_size(t->elem) % 16 != 0) return false;
            continue;
        }
        int64_t m = 16 / byte_size(t->elem);
        // A width rounded up to a multiple (a padded copy, padding.h) needs no decision.
        if (ir::const_bool(divisible(t->shape.back(), m)) == std::optional<bool>(true)) continue;
        auto& [width, multiple] = needed[ir::to_string(t->shape.back())];
        width = t->shape.back();
        multiple = std::max(multiple, m);
    }
    if (needed.empty()) return true;
    return decisions && decisions->decide(rows_condition(needed));
}

// The schedule's `when` for the call over the graph's sizes (true when it has
// none); null after an error.
ir::Expr when_condition(OpInstantiator& o, const OpCall& call, const ScheduleRef& sched, const Bindings& b) {
    if (!sched.when) return ir::BoolImm::make(true);
    std::string unbound;
    ir::Expr c = eval_condition(*sched.when, b, &unbound);
    if (!c) o.diags().error(DiagId::schedule_when, sched.when->range, sched.name, unbound, call.op->name);
    return c;
}

// Whether a symbolic `when` holds: the build's decision (none: false).
bool decide_when(OpInstantiator& o, const OpCall& call, const ScheduleRef& sched, const ir::Expr& c) {
    if (!o.decisions()) return false;
    const SourceManager& sm = o.diags().sources();
    std::string why =
        fmt::format("`when {}` of {}'s schedule '{}', {}:{}", sm.range_text(sched.when->range), call.op->name,
                    sched.name, sm.base_name(sched.range.begin.file), sched.range.begin.line);
    return o.decisions()->decide({c, why, sched.name});
}

// "matmul<f16> sm_90a [M, 520] [520, 264]": the op, its element type, the
// target and its tensors' shapes as the graph has them.
std::string tune_key(const OpInstantiator& o, const OpCall& call, const std::string& elem) {
    std::string key = call.op->name + "<" + elem + "> " + arch_name(o.arch());
    for (const Node* a : call.args) {
        std::vector<std::string> dims;
        for (const ir::Expr& d : a->buffer->shape) dims.push_back(ir::to_string(d));
        key += " [" + fmt::format("{}", fmt::join(dims, ", ")) + "]";
    }
    return key;
}

// Whether the schedule fixes kernel parameter `name` (`<BM = 64>`).
bool fixes(const ScheduleRef& sched, const std::string& name) {
    return std::any_of(sched.args.begin(), sched.args.end(), [&](const ScheduleArg& a) { return a.name == name; });
}

// The schedule's tunable integer parameters with their defaults and candidates
// (integer literals: the checker makes sure of it), less those the schedule
// fixes (`<BM = 64>`).
TuneSchedule tune_schedule(const OpInstantiator& o, const ScheduleRef& sched) {
    TuneSchedule s{sched.name, {}};
    const KernelDecl* generic = find_kernel(o.module(), sched.kernel);
    for (const TypeParam& tp : generic->type_params) {
        // Only `in {..}` parameters are tuned (conv2d's stride and pad are the call's).
        if (tp.value_type.empty() || tp.candidates.empty() || !tp.default_value ||
            tp.default_value->kind != ExprKind::IntLit || fixes(sched, tp.name))
            continue;
        TuneParam p{tp.name, static_cast<int64_t>(as<IntLit>(*tp.default_value).value), {}};
        for (const auto& c : tp.candidates) p.candidates.push_back(static_cast<int64_t>(as<IntLit>(*c).value));
        s.params.push_back(p);
    }
    return s;
}

// The cache's choice for the site: that of the first size bucket whose
// `NAME <= MAX` holds (decided per build where NAME is symbolic, like a `when`),
// else the entry for any size; null when the cache has none.
const TuneChoice* tuned_choice(OpInstantiator& o, const Tuning& tuning, const std::string& key) {
    for (const TuneBucket& bucket : buckets_of(tuning.choices, key)) {
        auto v = std::find_if(o.graph().sizes.begin(), o.graph().sizes.end(),
                              [&](const ir::Var& s) { return s->name == bucket.size; });
        if (v == o.graph().sizes.end() || !o.decisions()) continue;
        ir::Expr c = ir::Binary::make(ir::BinOp::Le, *v, ir::i32(bucket.max));
        std::string why = fmt::format("a size bucket of the tuning cache for {}", key);
        if (o.decisions()->decide({c, why, "tuned"})) return bucket.choice;
    }
    auto it = tuning.choices.find(key);
    return it == tuning.choices.end() ? nullptr : &it->second;
}

}  // namespace

Node* instantiate_anchor(OpInstantiator& o, const OpCall& call, const std::map<std::string, ScalarType>& types,
                         const Bindings& b, Node* result) {
    const OpDecl& op = *call.op;
    std::string elem;
    if (!op.type_params.empty() && types.count(op.type_params[0].name))
        elem = scalar_name(types.at(op.type_params[0].name));
    std::vector<const ScheduleRef*> scheds;
    for (const ScheduleRef& sched : op.schedules)
        if (sched.types.empty() || std::find(sched.types.begin(), sched.types.end(), elem) != sched.types.end())
            scheds.push_back(&sched);
    Tuning* tuning = o.tuning();
    std::string key = tuning ? tune_key(o, call, elem) : "";
    if (tuning && tuning->record) {  // `hdsc tune`: which schedules apply here
        TuneSite site{key, o.graph().name, {}};
        for (const ScheduleRef* s : scheds) {
            bool skipped = false;
            if (!instantiate_schedule(o, call, *s, types, b, result, {}, &skipped, true)) return nullptr;
            if (!skipped) site.schedules.push_back(tune_schedule(o, *s));
        }
        if (!site.schedules.empty()) tuning->sites.push_back(site);
    }
    const TuneChoice* chosen = tuning ? tuned_choice(o, *tuning, key) : nullptr;
    for (const ScheduleRef* s : scheds) {  // the cache's choice, when it still applies
        if (!chosen || s->name != chosen->schedule) continue;
        bool skipped = false;
        Node* n = instantiate_schedule(o, call, *s, types, b, result, chosen->params, &skipped);
        if (!skipped) return n;
    }
    for (const ScheduleRef* s : scheds) {
        bool skipped = false;
        Node* n = instantiate_schedule(o, call, *s, types, b, result, {}, &skipped);
        if (!skipped) return n;
    }
    return result;  // no schedule applies: the automatic one
}

Node* instantiate_schedule(OpInstantiator& o, const OpCall& call, const ScheduleRef& sched,
                           const std::map<std::string, ScalarType>& types, const Bindings& b, Node* result,
                           const std::map<std::string, int64_t>& tuned, bool* skipped, bool dry_run) {
    const OpDecl& op = *call.op;
    const KernelDecl* generic = find_kernel(o.module(), sched.kernel);
    if (!generic || generic->type_params.empty()) {
        o.diags().error(DiagId::schedule_unknown_kernel, sched.kernel_range, sched.kernel, sched.kernel);
        return nullptr;
    }
    // Tensor parameters by name: the op's tensors and its result.
    std::map<std::string, ir::Buffer> targets;
    std::string expected;
    size_t arg = 0;
    for (const Param& p : op.params) {
        if (!p.type.is_tensor) continue;
        targets[p.name] = call.args[arg++]->buffer;
        expected += "'" + p.name + "', ";
    }
    const std::string& out_name = op.computes.back().name;
    targets[out_name] = result->buffer;
    expected += "and the result '" + out_name + "' as tensor parameters, and no scalars";
    bool params_ok = generic->params.size() == targets.size();
    for (const Param& p : generic->params) params_ok &= p.type.is_tensor && targets.count(p.name);
    if (!params_ok) {
        o.diags().error(DiagId::schedule_params, generic->name_range, generic->name, expected);
        o.diags().note(sched.range, "used as a schedule here");
        return nullptr;
    }

    // Integer parameters named like an op attribute take the call's value (conv2d's
    // stride and pad); the others their defaults (tuning will choose).
    std::map<std::string, const Expr*> values;
    for (const Param& p : op.params) {
        if (p.type.is_tensor) continue;
        auto it = call.attrs.find(p.name);
        const Expr* v = it != call.attrs.end() ? it->second : p.default_value.get();
        if (v) values[p.name] = v;
    }
    std::vector<std::unique_ptr<IntLit>> literals;  // the fixed and tuned values, alive while cloning
    auto literal = [&](int64_t v) {
        literals.push_back(std::make_unique<IntLit>(sched.range));
        literals.back()->value = static_cast<uint64_t>(v);
        return literals.back().get();
    };
    for (const ScheduleArg& a : sched.args) {  // `<BM = 64>`: fixed, not tuned
        auto tp = std::find_if(generic->type_params.begin(), generic->type_params.end(),
                               [&](const TypeParam& t) { return t.name == a.name && !t.value_type.empty(); });
        if (tp == generic->type_params.end()) {
            o.diags().error(DiagId::schedule_arg, a.range, a.name, generic->name);
            return nullptr;
        }
        values[a.name] = literal(a.value);
    }
    for (const auto& entry : tuned) {  // not a structured binding: C++17 lambdas cannot capture those (clang)
        const std::string& name = entry.first;
        if (fixes(sched, name)) continue;
        // Only parameters declared tunable (`in {..}`) take a tuned value: a cache
        // never overrides an op attribute such as a convolution's stride.
        auto tp = std::find_if(generic->type_params.begin(), generic->type_params.end(),
                               [&](const TypeParam& t) { return t.name == name && !t.candidates.empty(); });
        if (tp == generic->type_params.end()) continue;
        values[name] = literal(entry.second);
    }
    CloneMap map;
    bind_value_params(*generic, values, map);
    for (const TypeParam& tp : generic->type_params) {
        auto it = types.find(tp.name);
        if (it != types.end()) map.types[tp.name] = scalar_name(it->second);
    }
    auto lowered = o.check_and_lower(clone_kernel(*generic, op.name + "_" + sched.name, map), call.range,
                                     "in the schedule of '" + op.name + "' instantiated here");
    if (!lowered) return nullptr;
    ir::Kernel ik = std::move(*lowered);
    // The target lacks its built-ins (a Hopper schedule on sm_80), or the sizes do not
    // suit it: the next schedule runs. (The emulator takes the schedules of the target
    // a compile would have: `hdsc run --arch`; arch 0, unused by hdsc, counts as sm_80.)
    if (ir::required_arch(ik) > (o.arch() == 0 ? 80 : o.arch())) {
        *skipped = true;
        return result;
    }
    // `pad(K, N)`: sizes that do not make 16-byte rows are rounded up (padding.h);
    // from here on the schedule sees the padded sizes and tensors.
    std::optional<Padding> padding = plan_padding(op, sched, b, targets, o.decisions());
    const Bindings& sb = padding ? padding->sizes : b;
    if (padding) targets = padding->targets;
    std::map<const ir::BufferNode*, ParamFit> fits;
    for (const ir::KernelParam& p : ik.params) {
        const std::string& name = p.buffer->name;
        auto decl = std::find_if(op.params.begin(), op.params.end(), [&](const Param& q) { return q.name == name; });
        const TypeRef& type = name == out_name ? op.result : decl->type;
        auto fit = fit_param(type, p.buffer->shape.size(), targets.at(name));
        if (!fit) {
            o.diags().error(DiagId::schedule_param_rank, generic->name_range, generic->name, name, type.dims.size(),
                            p.buffer->shape.size());
            o.diags().note(sched.range, "used as a schedule here");
            return nullptr;
        }
        // A constant dimension (`q: T[B, L, 64]`) is a condition: other shapes keep the next schedule.
        for (size_t d = 0; d < p.buffer->shape.size(); ++d) {
            auto want = ir::const_int(p.buffer->shape[d]);
            if (want && ir::const_int(fit->dim(d)) != want) {
                *skipped = true;
                return result;
            }
        }
        fits.emplace(p.buffer.get(), *fit);
    }

    // A `when` on symbolic sizes is decided after the constant dimensions and the
    // rows (a schedule whose shapes do not fit, or that TMA cannot run, adds no case).
    ir::Expr when = when_condition(o, call, sched, sb);
    if (!when) return nullptr;
    std::optional<bool> known = ir::const_bool(when);
    if ((known && !*known) || !tma_rows_aligned(ik.body, targets, o.decisions()) ||
        (!known && !decide_when(o, call, sched, when))) {
        *skipped = true;
        return result;
    }

    if (dry_run) return result;
    // The padded copies join the graph now that the schedule runs; the kernel's
    // tensors are those.
    Node* anchor = result;
    if (padding) {
        anchor = commit_padding(o.graph(), call, *padding, result);
        for (auto& entry : fits) entry.second.to = padding->targets.at(entry.first->name);
    }
    // Sizes: the op's size names, else the dimension of the tensor that has it
    // (a result dimension such as conv2d's output height; a spread's product).
    VarMap sizes;
    for (const ir::Var& s : ik.sizes) {
        auto it = sb.sizes.find(s->name);
        if (it != sb.sizes.end()) sizes[s.get()] = it->second;
    }
    for (const ir::KernelParam& p : ik.params)
        for (size_t d = 0; d < p.buffer->shape.size(); ++d)
            if (auto* v = ir::as<ir::VarNode>(p.buffer->shape[d]); v && !sizes.count(v))
                sizes[v] = fits.at(p.buffer.get()).dim(d);
    ik.body = substitute(Retarget(fits).mutate(ik.body), sizes);
    for (ir::Expr& g : ik.grid) g = substitute(g, sizes);
    for (ir::Expr& bl : ik.block) bl = substitute(bl, sizes);
    if (ik.cluster_per_call) ik.cluster_per_call = substitute(ik.cluster_per_call, sizes);
    if (ik.min_blocks) ik.min_blocks = substitute(ik.min_blocks, sizes);
    ik.params.clear();  // recomputed when the node becomes a kernel
    ik.sizes.clear();
    anchor->kind = Node::Kind::Anchor;
    anchor->anchor = std::move(ik);
    return result;
}

}  // namespace hds::graph
