// anchor.cpp — instantiating an op's hand-written schedule kernel over graph buffers.
#include "graph/anchor.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include "frontend/ast_clone.h"
#include "frontend/lower_to_ir.h"
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

// Whether the schedule's kernels fit the shared memory of the GPU the call runs on: a
// decision where sm_80 code needs more than 99 KiB a block (decisions.h); no decisions: false.
bool shared_memory_fits(OpInstantiator& o, const ir::Kernel& k, const std::optional<ir::Kernel>& k2) {
    int64_t bytes = std::max(ir::shared_bytes(k), k2 ? ir::shared_bytes(*k2) : 0);
    std::optional<Condition> c = shared_memory_condition(o.arch(), bytes);
    return !c || (o.decisions() && o.decisions()->decide(*c));
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

// The kernel's sizes over the graph's: the op's size names, else the dimension of
// the tensor that has it (a result dimension such as conv2d's output height; a
// spread's product).
VarMap bind_sizes(const ir::Kernel& k, const std::map<const ir::BufferNode*, ParamFit>& fits, const Bindings& b) {
    VarMap sizes;
    for (const ir::Var& s : k.sizes) {
        auto it = b.sizes.find(s->name);
        if (it != b.sizes.end()) sizes[s.get()] = it->second;
    }
    for (const ir::KernelParam& p : k.params) {
        auto fit = fits.find(p.buffer.get());
        if (fit == fits.end()) continue;
        for (size_t d = 0; d < p.buffer->shape.size(); ++d)
            if (auto* v = ir::as<ir::VarNode>(p.buffer->shape[d]); v && !sizes.count(v)) sizes[v] = fit->second.dim(d);
    }
    return sizes;
}

// The kernel over graph buffers and sizes: its loads and stores retargeted, its
// launch over the graph's sizes; its parameters are recomputed when the node
// becomes a kernel.
ir::Kernel finish(ir::Kernel k, const std::map<const ir::BufferNode*, ParamFit>& fits, const VarMap& sizes) {
    k.body = substitute(Retarget(fits).mutate(k.body), sizes);
    for (ir::Expr& g : k.grid) g = substitute(g, sizes);
    for (ir::Expr& bl : k.block) bl = substitute(bl, sizes);
    if (k.cluster_per_call) k.cluster_per_call = substitute(k.cluster_per_call, sizes);
    if (k.min_blocks) k.min_blocks = substitute(k.min_blocks, sizes);
    k.params.clear();
    k.sizes.clear();
    return k;
}

// `schedule s = first then second`: the first takes tensors of the op and one of its
// own (`scratch`, set here), which the second reads; the second writes the result.
bool then_params(OpInstantiator& o, const ScheduleRef& sched, const OpDecl& op, const KernelDecl& first,
                 const KernelDecl& second, const std::map<std::string, ir::Buffer>& targets,
                 const std::string& out_name, std::string* scratch) {
    auto fail = [&](DiagId id, const SourceRange& at, auto&&... args) {
        o.diags().error(id, at, args...);
        o.diags().note(sched.range, "used as a schedule here");
        return false;
    };
    for (const Param& p : first.params) {
        if (p.name == out_name)  // (at the first kernel's parameter: the one to take away)
            return fail(DiagId::schedule_then_result, p.name_range, second.name, out_name, first.name);
        if (!p.type.is_tensor || (!targets.count(p.name) && !scratch->empty()))
            return fail(DiagId::schedule_then_params, p.name_range, first.name, p.name, op.name);
        if (!targets.count(p.name)) *scratch = p.name;
    }
    bool result = false, reads = false;
    for (const Param& p : second.params) {
        if (!p.type.is_tensor || (!targets.count(p.name) && p.name != *scratch))
            return fail(DiagId::schedule_then_params, p.name_range, second.name, p.name, op.name);
        result |= p.name == out_name;
        reads |= !scratch->empty() && p.name == *scratch;
    }
    if (!result) return fail(DiagId::schedule_then_result, second.name_range, second.name, out_name, first.name);
    if (!reads) return fail(DiagId::schedule_then_scratch, first.name_range, first.name, sched.name, second.name);
    return true;
}

// With `then`: the tensor the first kernel writes for the second, over the graph's
// sizes (a size only it has is an error; so is another shape in the second kernel).
// Adds both kernels' parameters for it to `fits` and sets the second kernel's sizes.
ir::Buffer own_tensor(OpInstantiator& o, const ScheduleRef& sched, const OpDecl& op, const KernelDecl& first,
                      const KernelDecl& second, const ir::Kernel& k1, const ir::Kernel& k2, const std::string& scratch,
                      const VarMap& sizes, std::map<const ir::BufferNode*, ParamFit>& fits, const Bindings& b,
                      VarMap* sizes2) {
    auto fail = [&](DiagId id, const KernelDecl& k, const std::string& size) {
        o.diags().error(id, k.name_range, scratch, k.name, size, op.name);
        o.diags().note(sched.range, "used as a schedule here");
        return ir::Buffer();
    };
    auto param = [&](const ir::Kernel& k) {
        return std::find_if(k.params.begin(), k.params.end(), [&](auto& p) { return p.buffer->name == scratch; });
    };
    const ir::Buffer& decl = param(k1)->buffer;
    Shape shape;
    for (const ir::Expr& d : decl->shape) {
        shape.push_back(substitute(d, sizes));
        for (const ir::Var& s : k1.sizes)
            if (uses(shape.back(), s)) return fail(DiagId::schedule_then_size, first, s->name);
    }
    ir::Buffer own = ir::make_buffer(op.name + "_" + scratch, decl->elem, shape, ir::Scope::Global);
    const ir::Buffer& decl2 = param(k2)->buffer;
    fits.emplace(decl.get(), ParamFit{own, shape.size()});
    fits.emplace(decl2.get(), ParamFit{own, shape.size()});
    *sizes2 = bind_sizes(k2, fits, b);
    bool same = decl2->elem == decl->elem && decl2->shape.size() == shape.size();
    for (size_t d = 0; same && d < shape.size(); ++d)
        same = ir::to_string(substitute(decl2->shape[d], *sizes2)) == ir::to_string(shape[d]);
    if (!same) return fail(DiagId::schedule_then_shape, second, first.name);
    return own;
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
    const KernelDecl* then = nullptr;  // `then combine`
    if (!sched.then_kernel.empty()) {
        then = find_kernel(o.module(), sched.then_kernel);
        if (!then || then->type_params.empty()) {
            o.diags().error(DiagId::schedule_unknown_kernel, sched.then_range, sched.then_kernel, sched.then_kernel);
            return nullptr;
        }
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
    std::string scratch;  // with `then`: the tensor the first kernel writes for the second
    if (then) {
        if (!then_params(o, sched, op, *generic, *then, targets, out_name, &scratch)) return nullptr;
    } else {
        bool params_ok = generic->params.size() == targets.size();
        for (const Param& p : generic->params) params_ok &= p.type.is_tensor && targets.count(p.name);
        if (!params_ok) {
            o.diags().error(DiagId::schedule_params, generic->name_range, generic->name, expected);
            o.diags().note(sched.range, "used as a schedule here");
            return nullptr;
        }
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
    auto value_param = [](const KernelDecl* k, const std::string& name) {
        return k && std::any_of(k->type_params.begin(), k->type_params.end(),
                                [&](const TypeParam& t) { return t.name == name && !t.value_type.empty(); });
    };
    for (const ScheduleArg& a : sched.args) {  // `<BM = 64>`: fixed, not tuned (each kernel that has it)
        if (!value_param(generic, a.name) && !value_param(then, a.name)) {
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
    auto lower = [&](const KernelDecl& k, const std::string& name) -> std::optional<ir::Kernel> {
        CloneMap map;
        bind_value_params(k, values, map);
        for (const TypeParam& tp : k.type_params) {
            auto it = types.find(tp.name);
            if (it != types.end()) map.types[tp.name] = scalar_name(it->second);
        }
        // A later variant's build at this call: the clone checked then, lowered again.
        std::string key = o.clones() ? CheckedClones::key(k, name, map.types, values, call.range) : "";
        if (const KernelDecl* kept = key.empty() ? nullptr : o.clones()->find(key)) return lower_kernel(*kept);
        return o.check_and_lower(clone_kernel(k, name, map), call.range,
                                 "in the schedule of '" + op.name + "' instantiated here", key);
    };
    auto lowered = lower(*generic, op.name + "_" + sched.name);
    if (!lowered) return nullptr;
    ir::Kernel ik = std::move(*lowered);
    std::optional<ir::Kernel> ik2;  // `then`
    if (then && !(ik2 = lower(*then, op.name + "_" + sched.name + "_then"))) return nullptr;
    // The target lacks its built-ins (a Hopper schedule on sm_80), or the sizes do not
    // suit it: the next schedule runs. (The emulator takes the schedules of the target
    // a compile would have: `hdsc run --arch`; arch 0, unused by hdsc, counts as sm_80.)
    int arch = o.arch() == 0 ? 80 : o.arch();
    if (ir::required_arch(ik) > arch || (ik2 && ir::required_arch(*ik2) > arch)) {
        *skipped = true;
        return result;
    }
    // `pad(K, N)`: sizes that do not make 16-byte rows are rounded up (padding.h);
    // from here on the schedule sees the padded sizes and tensors.
    std::optional<Padding> padding = plan_padding(op, sched, b, targets, o.decisions());
    const Bindings& sb = padding ? padding->sizes : b;
    if (padding) targets = padding->targets;
    std::map<const ir::BufferNode*, ParamFit> fits;
    for (ir::Kernel* k : {&ik, ik2 ? &*ik2 : nullptr}) {
        if (!k) continue;
        for (const ir::KernelParam& p : k->params) {
            const std::string& name = p.buffer->name;
            if (name == scratch) continue;  // a buffer of its own, made below
            auto decl =
                std::find_if(op.params.begin(), op.params.end(), [&](const Param& q) { return q.name == name; });
            const TypeRef& type = name == out_name ? op.result : decl->type;
            auto fit = fit_param(type, p.buffer->shape.size(), targets.at(name));
            if (!fit) {
                const KernelDecl* decl_k = k == &ik ? generic : then;
                o.diags().error(DiagId::schedule_param_rank, decl_k->name_range, decl_k->name, name, type.dims.size(),
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
    }
    VarMap sizes = bind_sizes(ik, fits, sb);
    // `then`: the first kernel's own tensor, its shape over the graph's sizes (the
    // second kernel must see the same), a temporary of the graph once the schedule runs.
    ir::Buffer own;
    VarMap sizes2;
    if (then && !(own = own_tensor(o, sched, op, *generic, *then, ik, *ik2, scratch, sizes, fits, sb, &sizes2)))
        return nullptr;

    // A `when` on symbolic sizes is decided after the constant dimensions and the
    // rows (a schedule whose shapes do not fit, or that TMA cannot run, adds no case).
    ir::Expr when = when_condition(o, call, sched, sb);
    if (!when) return nullptr;
    std::optional<bool> known = ir::const_bool(when);
    if (own) targets[scratch] = own;
    if ((known && !*known) || !tma_rows_aligned(ik.body, targets, o.decisions()) ||
        (ik2 && !tma_rows_aligned(ik2->body, targets, o.decisions())) ||
        (!known && !decide_when(o, call, sched, when)) || !shared_memory_fits(o, ik, ik2)) {
        *skipped = true;
        return result;
    }

    if (dry_run) return result;
    // The padded copies join the graph now that the schedule runs; the kernel's
    // tensors are those.
    Node* anchor = result;
    if (padding) {
        anchor = commit_padding(o.graph(), call, *padding, result);
        for (auto& entry : fits)  // (not the first kernel's own tensor: no padded copy)
            if (auto t = padding->targets.find(entry.first->name); t != padding->targets.end())
                entry.second.to = t->second;
    }
    if (own) {  // `then`: the first kernel's node defines its own tensor, a temporary the second reads
        Graph& g = o.graph();
        auto n = std::make_unique<Node>();
        n->kind = Node::Kind::Anchor;
        n->ops = anchor->ops;
        n->loc = anchor->loc;
        n->buffer = ir::make_buffer(g.fresh_name(own->name), own->elem, own->shape, ir::Scope::Global);
        for (auto& entry : fits)
            if (entry.second.to == own) entry.second.to = n->buffer;
        n->anchor = finish(std::move(ik), fits, sizes);
        g.add(std::move(n));
        auto pos = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& x) { return x.get() == anchor; });
        std::rotate(pos, pos + 1, g.nodes.end());  // the second kernel's node reads it: after it
        ik = std::move(*ik2);
        sizes = sizes2;
        anchor->then_second = true;
    }
    anchor->kind = Node::Kind::Anchor;
    anchor->anchor = finish(std::move(ik), fits, sizes);
    return result;
}

}  // namespace hds::graph
