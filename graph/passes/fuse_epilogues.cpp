// fuse_epilogues.cpp — injective users folded into how a reduction or an
// anchor stores its result.
#include <algorithm>
#include <optional>

#include "graph/passes/passes.h"
#include "graph/rewrite.h"
#include "graph/schedule.h"
#include "graph/shapes.h"
#include "ir/builtins.h"
#include "ir/ir_mutator.h"
#include "ir/ir_visitor.h"
#include "ir/name_gen.h"
#include "ir/passes/passes.h"
#include "ir/polynomial.h"

namespace hds::graph {

namespace {

// The only live user of `b` (null when there are none, several, or the graph returns b).
Node* only_user(Graph& g, const ir::Buffer& b) {
    if (g.output && g.output->buffer == b) return nullptr;
    Node* user = nullptr;
    for (Node* n : g.live()) {
        for (const ir::Buffer& r : reads(*n)) {
            if (r != b) continue;
            if (user) return nullptr;
            user = n;
        }
    }
    return user;
}

// Every load of `b` in `e` is at exactly `axes`.
bool reads_at_own_index(const ir::Expr& e, const ir::Buffer& b, const std::vector<ir::Var>& axes) {
    bool ok = true;
    replace_loads(e, [&](const ir::Load& l) -> ir::Expr {
        if (l.buffer != b) return nullptr;
        for (size_t d = 0; d < l.indices.size(); ++d) ok &= l.indices[d] == axes[d];
        return nullptr;
    });
    return ok;
}

// The destination of a vector copy (`copy_16(b[.., k], src[..])`), or null.
const ir::Load* copy_destination(const ir::Evaluate& e) {
    auto* call = ir::as<ir::Call>(e.value);
    return call && ir::copy_bytes(*call) > 0 ? ir::as<ir::Load>(call->args.at(0)) : nullptr;
}

// Stores into `from` become stores of the epilogue's value into its buffer.
// A vector copy into `from` (`copy_16(c[m, n], cs[r, k])`: V elements of a
// row) becomes V values computed in registers and one copy of them into the
// epilogue's buffer; the epilogue's loads along the row are vector copies too
// where the rows stay aligned.
class EpilogueStores : public ir::IRMutator {
  public:
    // The value the producer stored gets a name (the producer's buffer name, made unique).
    EpilogueStores(const Graph& g, const Node& producer, const Node& epilogue)
        : p_(producer), c_(epilogue), names_(producer.anchor.body) {
        for (const Node* n : g.live()) names_.reserve(n->buffer->name);
        name_ = names_.fresh(producer.buffer->name);
    }

  protected:
    ir::Stmt visit(const ir::Store* op, const ir::Stmt& self) override {
        if (op->buffer != p_.buffer || op->op) return self;
        bool simple =
            ir::as<ir::VarNode>(op->value) || ir::as<ir::IntImm>(op->value) || ir::as<ir::FloatImm>(op->value);
        std::vector<ir::Stmt> stmts;
        ir::Expr v = op->value;
        if (!simple) {
            ir::Var tmp = ir::make_var(v->type, name_);
            stmts.push_back(ir::Decl::make(op->loc, tmp, v, true));
            v = tmp;
        }
        VarMap at;
        for (size_t d = 0; d < op->indices.size(); ++d) at[c_.compute.axes[d].get()] = op->indices[d];
        ir::Expr value = substitute(c_.compute.value, at);
        value = replace_loads(value, [&](const ir::Load& l) { return l.buffer == p_.buffer ? v : nullptr; });
        stmts.push_back(ir::Store::make(epilogue_loc(op->loc), c_.buffer, op->indices, value));
        return stmts.size() == 1 ? stmts[0] : ir::Block::make(op->loc, stmts);
    }
    ir::Stmt visit(const ir::Evaluate* op, const ir::Stmt& self) override {
        const ir::Load* dst = copy_destination(*op);
        if (!dst || dst->buffer != p_.buffer) return self;
        auto* call = ir::as<ir::Call>(op->value);
        return epilogue_copy(op->loc, *dst, *ir::as<ir::Load>(call->args.at(1)),
                             ir::copy_bytes(*call) / byte_size(p_.buffer->elem));
    }

  private:
    // The epilogue's statements point back to its graph expression (the schedule's store,
    // where the graph has no location).
    SourceLoc epilogue_loc(SourceLoc store) const { return c_.loc.valid() ? c_.loc : store; }

    // `dst[.., k] .. dst[.., k + v) = src[.., j] .. src[.., j + v)` with the epilogue applied.
    ir::Stmt epilogue_copy(SourceLoc loc, const ir::Load& dst, const ir::Load& src, int64_t v) {
        std::vector<ir::Stmt> out;
        // The copied values in registers: the source itself when it is a register array
        // (a previous epilogue's results), else a copy of it.
        ir::Buffer vals = src.buffer;
        std::vector<ir::Expr> first = src.indices;
        if (src.buffer->scope != ir::Scope::Register) {
            ir::Buffer r = ir::make_buffer(names_.fresh("v_" + p_.buffer->name), src.buffer->elem, {ir::i32(v)},
                                           ir::Scope::Register);
            out.push_back(ir::Alloc::make(loc, r));
            out.push_back(ir::Evaluate::make(
                loc, ir::Call::make_void(
                         copy_builtin(static_cast<int>(v * byte_size(r->elem))),
                         {ir::Load::make(r, {ir::i32(0)}), ir::Load::make(src.buffer, src.indices, src.loc)})));
            vals = r;
            first = {ir::i32(0)};
        }
        ir::Var e = ir::make_var(ScalarType::I32, names_.fresh("e"));
        auto element = [&](const std::vector<ir::Expr>& at) {  // at[.., k] -> at[.., k + e]
            std::vector<ir::Expr> moved = at;
            moved.back() = ir::simplify(ir::add(moved.back(), e));
            return moved;
        };
        // The epilogue at row dst[.., col], col = k + e.
        ir::Var col = ir::make_var(ScalarType::I32, "col");
        VarMap at;
        const std::vector<ir::Var>& axes = c_.compute.axes;
        for (size_t d = 0; d + 1 < axes.size(); ++d) at[axes[d].get()] = dst.indices[d];
        at[axes.back().get()] = col;
        ir::Expr value = replace_loads(substitute(c_.compute.value, at), [&](const ir::Load& l) {
            return l.buffer == p_.buffer ? ir::Load::make(vals, element(first), l.loc) : nullptr;
        });
        std::vector<ir::Stmt> loads;
        SourceLoc eloc = epilogue_loc(loc);
        VectorLoads vec =
            vectorize_loads(value, col, v, dst.indices.back(), e, false, loads, eloc, nullptr, nullptr, &names_);
        // The other tensors the epilogue reads along the row are copied v values at a time where
        // they start aligned: always, or where the rows of the result do, which the copy into them
        // already needs (their rows are as long; the variant's 16-byte rows). One element at a
        // time, the Llama MLP's residual took its down projection from 36.6 to 44.5 us at 128
        // tokens (bench/results/2026-11-27-h200-mlp-profile).
        if (vec.aligned_with(c_.buffer->shape.back(), v)) {
            out.insert(out.end(), loads.begin(), loads.end());
            value = vec.value;
        } else {
            value = substitute(value, VarMap{{col.get(), ir::add(dst.indices.back(), e)}});
        }
        if (c_.buffer->elem == p_.buffer->elem) {  // the results in registers, then one copy
            for (ir::Stmt& s :
                 store_vector(c_.buffer, dst.indices, value, e, v, eloc, names_.fresh("v_" + c_.buffer->name)))
                out.push_back(s);
        } else {  // another element size (a cast): one store per element
            out.push_back(ir::For::make(eloc, e, ir::i32(0), ir::i32(v), ir::i32(1), true,
                                        ir::Store::make(eloc, c_.buffer, element(dst.indices), value)));
        }
        return ir::Block::make(loc, out);
    }

    const Node& p_;
    const Node& c_;
    ir::NameGen names_;
    std::string name_;
};

// Moves `n` to just after `after` in the graph's order (`n` comes before it).
void move_after(Graph& g, Node* n, Node* after) {
    auto pos_n = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& x) { return x.get() == n; });
    auto pos_a = std::find_if(g.nodes.begin(), g.nodes.end(), [&](auto& x) { return x.get() == after; });
    std::rotate(pos_n, pos_n + 1, pos_a + 1);
}

// p (rows [M, N]) -> r = reshape(p) to [d0, .., N] -> c (elementwise over r's shape, its only
// reader) becomes p -> c over [M, N] (other tensors c reads remapped) -> r = reshape(c) to c's
// old buffer, so that c can be p's epilogue and r a view (program.cpp): a product's rows
// reshaped to [batch, tokens, N] before a bias, an activation or a residual. True if done.
bool sink_reshape(Graph& g, Node* p, Node* r) {
    if (p->buffer->shape.size() != 2 || reshape_source(*r) != p->buffer || g.output == r) return false;
    const Shape& rows = r->buffer->shape;
    if (rows.size() < 2 || !same_dim(rows.back(), p->buffer->shape[1])) return false;
    Node* c = only_user(g, r->buffer);
    if (!c || c->kind != Node::Kind::Compute || !c->compute.injective() || !same_shape(c->buffer->shape, rows) ||
        !reads_at_own_index(c->compute.value, r->buffer, c->compute.axes))
        return false;
    ir::Var m = ir::make_var(ScalarType::I32, "m"), n = ir::make_var(ScalarType::I32, "n");
    VarMap unflatten;  // c's leading axes from the row m
    ir::Expr stride = ir::i32(1);
    for (size_t d = rows.size() - 1; d-- > 0;) {
        ir::Expr q = ir::div(m, stride);
        unflatten[c->compute.axes[d].get()] = d == 0 ? ir::simplify(q) : ir::simplify(ir::mod(q, rows[d]));
        stride = ir::mul(stride, rows[d]);
    }
    unflatten[c->compute.axes.back().get()] = n;
    ir::Expr value = replace_loads(c->compute.value, [&](const ir::Load& l) -> ir::Expr {
        return l.buffer == r->buffer ? ir::Load::make(p->buffer, {m, n}, l.loc) : nullptr;
    });
    ir::Buffer shaped = c->buffer;
    c->compute.value = substitute(value, unflatten);
    c->compute.axes = {m, n};
    c->buffer =
        ir::make_buffer(g.fresh_name(shaped->name + "_rows"), shaped->elem, p->buffer->shape, ir::Scope::Global);
    std::vector<ir::Expr> leading(r->compute.axes.begin(), r->compute.axes.end() - 1);
    std::vector<ir::Expr> dims(rows.begin(), rows.end() - 1);
    r->compute.value = ir::Load::make(c->buffer, {row_major_offset(leading, dims), r->compute.axes.back()});
    r->buffer = shaped;
    if (g.output == c) g.output = r;
    move_after(g, r, c);  // r now reads c
    return true;
}

// Whether `p` is an anchor that loads through TMA (the sm_90a wgmma schedules).
bool tma_anchor(const Node& p) {
    if (p.kind != Node::Kind::Anchor) return false;
    struct Finder : ir::IRVisitor {
        bool found = false;
        void visit(const ir::Call* c) override {
            found |= is_tma_load(c->builtin);
            ir::IRVisitor::visit(c);
        }
    } f;
    f.visit_stmt(p.anchor.body);
    return f.found;
}

// `p` (its body rewritten to compute `c`) takes `c`'s buffer and place: c is gone.
void absorb(Graph& g, Node* p, Node* c) {
    p->buffer = c->buffer;
    p->ops += "+" + c->ops;
    c->dead = true;
    if (g.output == c) g.output = p;
    move_after(g, p, c);  // p now also reads c's other inputs: it takes c's place in the order
}

// Where `c` only moves `p`'s elements, its element of each of p's: c's index d is
// p's index whole[d], or split[d] = (hi, lo, K): p's indices hi * K + lo (a permute,
// and a reshape that merges dimensions: c[.., i, ..] = p[.., i / K, .., i % K, ..]),
// or 0 (c's extent 1).
struct Placement {
    std::vector<int> whole, hi, lo;
    std::vector<int64_t> k;
};

// The placement where c reads p at its own axes, split or whole, each once, the extents
// matching (not a slice, as of a padded result), p's last index c's last (rows stay rows:
// the stores stay coalesced); else nothing.
std::optional<Placement> placement_of(const Node& c, const ir::Buffer& p) {
    auto* l = ir::as<ir::Load>(c.compute.value);
    if (c.kind != Node::Kind::Compute || !c.compute.injective() || !l || l->buffer != p ||
        l->buffer->elem != c.buffer->elem)
        return std::nullopt;
    const size_t n = c.compute.axes.size();
    Placement at{std::vector<int>(n, -1), std::vector<int>(n, -1), std::vector<int>(n, -1), std::vector<int64_t>(n, 0)};
    auto axis_of = [&](const ir::Expr& e) -> int {
        for (size_t d = 0; d < n; ++d)
            if (c.compute.axes[d].get() == e.get()) return static_cast<int>(d);
        return -1;
    };
    for (size_t e = 0; e < l->indices.size(); ++e) {
        const ir::Expr& i = l->indices[e];
        const ir::Expr& extent = p->shape[e];
        auto* b = ir::as<ir::Binary>(i);
        std::optional<int64_t> k = b ? ir::const_int(b->b) : std::nullopt;
        if (int d = axis_of(i); d >= 0) {
            if (at.whole[d] >= 0 || at.hi[d] >= 0 || at.lo[d] >= 0 || !same_dim(c.buffer->shape[d], extent))
                return std::nullopt;
            at.whole[d] = static_cast<int>(e);
        } else if (b && k && *k > 0 && (b->op == ir::BinOp::Div || b->op == ir::BinOp::Mod) && axis_of(b->a) >= 0) {
            int d = axis_of(b->a);
            std::vector<int>& slot = b->op == ir::BinOp::Div ? at.hi : at.lo;
            if (at.whole[d] >= 0 || slot[d] >= 0 || (at.k[d] != 0 && at.k[d] != *k)) return std::nullopt;
            if (b->op == ir::BinOp::Mod ? !same_dim(extent, ir::i32(*k))
                                        : !ir::same_value(c.buffer->shape[d], ir::mul(extent, ir::i32(*k))))
                return std::nullopt;
            slot[d] = static_cast<int>(e);
            at.k[d] = *k;
        } else if (ir::const_int(i) != std::optional<int64_t>(0) ||
                   ir::const_int(extent) != std::optional<int64_t>(1)) {
            return std::nullopt;
        }
    }
    for (size_t d = 0; d < n; ++d) {
        bool split = at.hi[d] >= 0 && at.lo[d] >= 0;
        if (at.whole[d] < 0 && !split && ir::const_int(c.buffer->shape[d]) != std::optional<int64_t>(1))
            return std::nullopt;
        if (!split && (at.hi[d] >= 0 || at.lo[d] >= 0)) return std::nullopt;
    }
    int last = static_cast<int>(l->indices.size()) - 1;
    if (at.whole[n - 1] != last && at.lo[n - 1] != last) return std::nullopt;
    return at;
}

// Whether the anchor's body writes `b` by plain stores and vector copies only (no TMA or
// atomics) and never reads it.
bool only_stored(const ir::Stmt& body, const ir::Buffer& b) {
    struct Finder : ir::IRVisitor {
        const ir::Buffer* b;
        bool other = false;
        void visit(const ir::Load* l) override {
            ir::IRVisitor::visit(l);
            other |= l->buffer == *b;
        }
        void visit(const ir::Store* st) override {
            for (const ir::Expr& i : st->indices) visit_expr(i);
            visit_expr(st->value);
            other |= st->op && st->buffer == *b;
        }
        void visit(const ir::Evaluate* e) override {
            const ir::Load* dst = copy_destination(*e);
            if (!dst || dst->buffer != *b) return ir::IRVisitor::visit(e);
            for (const ir::Expr& i : dst->indices) visit_expr(i);
            visit_expr(ir::as<ir::Call>(e->value)->args.at(1));
        }
    } f;
    f.b = &b;
    f.visit_stmt(body);
    return !f.other;
}

// An anchor whose only reader permutes its result (attention's [B, H, L, D] as torch's
// `.transpose(1, 2)` to [B, L, H, D], or that and the heads merged, before the output
// projection) stores it in that order itself: its stores' and vector copies' indices are
// placed (the last dimension stays last, so a copy's elements stay consecutive), no
// kernel copies it. True if done.
bool store_permuted(Graph& g, Node* p, Node* c) {
    if (p->kind != Node::Kind::Anchor || !c) return false;
    // A reshape of a wgmma schedule's result stays a view, as in fuse_one: absorbed, it
    // would let the elementwise epilogues after it into the schedule (GPT-2's residual adds
    // into the projections: 5 % slower, bench/results/2026-11-28-h200-swiglu).
    if (c->ops == "reshape" && tma_anchor(*p)) return false;
    std::optional<Placement> place = placement_of(*c, p->buffer);
    if (!place || !only_stored(p->anchor.body, p->buffer)) return false;
    struct Place : ir::IRMutator {
        const ir::Buffer* from;
        const Node* to;
        const Placement* at;
        std::vector<ir::Expr> placed(const std::vector<ir::Expr>& indices) const {
            std::vector<ir::Expr> i;
            for (size_t d = 0; d < at->whole.size(); ++d) {
                if (at->whole[d] >= 0)
                    i.push_back(indices[at->whole[d]]);
                else if (at->hi[d] >= 0)
                    i.push_back(ir::add(ir::mul(indices[at->hi[d]], ir::i32(at->k[d])), indices[at->lo[d]]));
                else
                    i.push_back(ir::i32(0));
            }
            return i;
        }
        ir::Stmt visit(const ir::Store* op, const ir::Stmt& self) override {
            if (op->buffer != *from) return self;
            return ir::Store::make(op->loc, to->buffer, placed(op->indices), op->value, op->op);
        }
        ir::Stmt visit(const ir::Evaluate* op, const ir::Stmt& self) override {
            const ir::Load* dst = copy_destination(*op);
            if (!dst || dst->buffer != *from) return self;
            auto* call = ir::as<ir::Call>(op->value);
            std::vector<ir::Expr> args = call->args;
            args[0] = ir::Load::make(to->buffer, placed(dst->indices), dst->loc);
            return ir::Evaluate::make(op->loc, ir::Call::make_void(call->builtin, args, call->function));
        }
    } m;
    m.from = &p->buffer;
    m.to = c;
    m.at = &*place;
    p->anchor.body = m.mutate(p->anchor.body);
    absorb(g, p, c);
    return true;
}

bool fuse_one(Graph& g, Node* p) {
    Node* c = only_user(g, p->buffer);
    // Not into the wgmma schedules: there an elementwise epilogue stalls the tensor cores
    // longer than a pass of its own takes (bench/results/2026-11-26-h100-python, run 3).
    if (c && c->kind == Node::Kind::Compute && c->ops == "reshape" && !tma_anchor(*p) && sink_reshape(g, p, c))
        c = only_user(g, p->buffer);
    if (store_permuted(g, p, c)) return true;
    if (!c || c->kind != Node::Kind::Compute || !c->compute.injective()) return false;
    if (!same_shape(c->buffer->shape, p->buffer->shape)) return false;
    if (!reads_at_own_index(c->compute.value, p->buffer, c->compute.axes)) return false;
    if (p->kind == Node::Kind::Compute) {
        VarMap to_p;
        for (size_t d = 0; d < c->compute.axes.size(); ++d) to_p[c->compute.axes[d].get()] = p->compute.axes[d];
        ir::Expr value = substitute(c->compute.value, to_p);
        p->compute.value =
            replace_loads(value, [&](const ir::Load& l) { return l.buffer == p->buffer ? p->compute.value : nullptr; });
    } else {
        p->anchor.body = EpilogueStores(g, *p, *c).mutate(p->anchor.body);
    }
    absorb(g, p, c);
    return true;
}

}  // namespace

void fuse_epilogues(Graph& g) {
    for (Node* p : g.live()) {
        if (p->kind == Node::Kind::Anchor || (p->kind == Node::Kind::Compute && !p->compute.injective()))
            while (fuse_one(g, p)) {
            }
    }
}

}  // namespace hds::graph
