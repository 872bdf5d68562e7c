// ir_printer.cpp — prints IR with explicit types: casts, buffer scopes,
// mapping loops, and the .hds line of each statement.
#include "ir/ir_printer.h"

#include <fmt/format.h>

#include "ir/expr_printer.h"

namespace hds::ir {

namespace {

class IRExprPrinter : public ExprPrinter {
  protected:
    std::string int_imm(const IntImm* i) override {
        std::string s = std::to_string(i->value);
        return i->type == ScalarType::I32 ? s : s + std::string(scalar_name(i->type));
    }
    std::string float_imm(const FloatImm* f) override {
        return float_text(f->value) + (f->type == ScalarType::F32 ? "" : std::string(scalar_name(f->type)));
    }
    std::string cast(const Cast* c, const std::string& v) override {
        return fmt::format("cast<{}>({})", scalar_name(c->type), v);
    }
    std::string load(const Load* l, const std::vector<std::string>& idx) override {
        return fmt::format("{}[{}]", l->buffer->name, fmt::join(idx, ", "));
    }
    std::string call(const Call* c, const std::vector<std::string>& args) override {
        std::string name = c->builtin == Builtin::DeviceFn ? c->function : builtin_info(c->builtin).name;
        return fmt::format("{}({})", name, fmt::join(args, ", "));
    }
};

class StmtPrinter {
  public:
    explicit StmtPrinter(std::ostream& os) : os_(os) {}

    void stmt(const Stmt& s, int indent) {
        std::string pad(indent * 2, ' ');
        std::string line = s->loc.valid() ? fmt::format("  // line {}", s->loc.line) : "";
        switch (s->kind) {
            case StmtKind::Decl: {
                auto* d = as<Decl>(s);
                os_ << pad << (d->is_const ? "let " : "var ") << d->var->name << ": " << scalar_name(d->var->type)
                    << " = " << e_.print(d->init) << line << "\n";
                break;
            }
            case StmtKind::Assign: {
                auto* a = as<Assign>(s);
                os_ << pad << a->var->name << " " << (a->op ? op_symbol(*a->op) : "") << "= " << e_.print(a->value)
                    << line << "\n";
                break;
            }
            case StmtKind::Store: {
                auto* st = as<Store>(s);
                std::vector<std::string> idx;
                for (const Expr& i : st->indices) idx.push_back(e_.print(i));
                os_ << pad << st->buffer->name << "[" << fmt::format("{}", fmt::join(idx, ", ")) << "] "
                    << (st->op ? op_symbol(*st->op) : "") << "= " << e_.print(st->value) << line << "\n";
                break;
            }
            case StmtKind::Alloc: {
                auto* a = as<Alloc>(s);
                std::vector<std::string> dims;
                for (const Expr& d : a->buffer->shape) dims.push_back(e_.print(d));
                os_ << pad << "alloc " << scope_name(a->buffer->scope) << " " << a->buffer->name << ": "
                    << scalar_name(a->buffer->elem) << "[" << fmt::format("{}", fmt::join(dims, ", ")) << "]" << line
                    << "\n";
                break;
            }
            case StmtKind::For: {
                auto* f = as<For>(s);
                os_ << pad << (f->unroll ? "@unroll " : "") << "for " << f->var->name << " in " << e_.print(f->lo)
                    << ".." << e_.print(f->hi);
                if (!(const_int(f->step) && *const_int(f->step) == 1)) os_ << " step " << e_.print(f->step);
                os_ << " {" << line << "\n";
                body(f->body, indent);
                break;
            }
            case StmtKind::MapFor: {
                auto* m = as<MapFor>(s);
                std::vector<std::string> names;
                for (const Var& v : m->vars) names.push_back(v->name);
                os_ << pad << (m->unroll ? "@unroll " : "") << "for (" << fmt::format("{}", fmt::join(names, ", "))
                    << ") in " << m->mapping.to_string() << " on " << e_.print(m->worker) << " {" << line << "\n";
                body(m->body, indent);
                break;
            }
            case StmtKind::If: {
                auto* i = as<If>(s);
                os_ << pad << "if " << e_.print(i->cond) << " {" << line << "\n";
                block_items(i->then_s, indent + 1);
                if (i->else_s) {
                    os_ << pad << "} else {\n";
                    block_items(i->else_s, indent + 1);
                }
                os_ << pad << "}\n";
                break;
            }
            case StmtKind::Block:
                os_ << pad << "{\n";
                body(s, indent);
                break;
            case StmtKind::Evaluate:
                os_ << pad << e_.print(as<Evaluate>(s)->value) << line << "\n";
                break;
            case StmtKind::Return: {
                auto* r = as<Return>(s);
                os_ << pad << "return" << (r->value ? " " + e_.print(r->value) : "") << line << "\n";
                break;
            }
            case StmtKind::Break:
                os_ << pad << "break" << line << "\n";
                break;
            case StmtKind::Continue:
                os_ << pad << "continue" << line << "\n";
                break;
        }
    }

    void block_items(const Stmt& s, int indent) {
        if (auto* b = as<Block>(s)) {
            for (const Stmt& x : b->stmts) stmt(x, indent);
        } else {
            stmt(s, indent);
        }
    }

    void body(const Stmt& s, int indent) {
        block_items(s, indent + 1);
        os_ << std::string(indent * 2, ' ') << "}\n";
    }

    IRExprPrinter e_;

  private:
    std::ostream& os_;
};

}  // namespace

std::string to_string(const Expr& e) {
    IRExprPrinter p;
    return p.print(e);
}

void print_module(const Module& m, std::ostream& os) {
    StmtPrinter p(os);
    for (const DeviceFunction& f : m.functions) {
        std::vector<std::string> params;
        for (const Var& v : f.params) params.push_back(v->name + ": " + std::string(scalar_name(v->type)));
        os << "device fn " << f.name << "(" << fmt::format("{}", fmt::join(params, ", ")) << ")";
        if (f.ret) os << " -> " << scalar_name(*f.ret);
        os << " {\n";
        p.body(f.body, 0);
        os << "\n";
    }
    for (const Kernel& k : m.kernels) {
        std::vector<std::string> params;
        for (const KernelParam& kp : k.params) {
            if (kp.kind == KernelParam::Kind::Scalar) {
                params.push_back(kp.var->name + ": " + std::string(scalar_name(kp.var->type)));
                continue;
            }
            std::vector<std::string> dims;
            for (const Expr& d : kp.buffer->shape) dims.push_back(p.e_.print(d));
            params.push_back(fmt::format("{}: {}{}[{}]", kp.buffer->name, kp.written ? "" : "const ",
                                         scalar_name(kp.buffer->elem), fmt::join(dims, ", ")));
        }
        std::vector<std::string> sizes, grid, block;
        for (const Var& v : k.sizes) sizes.push_back(v->name);
        for (const Expr& g : k.grid) grid.push_back(p.e_.print(g));
        for (const Expr& b : k.block) block.push_back(p.e_.print(b));
        std::string cluster = k.cluster_per_call ? fmt::format(" cluster({})", p.e_.print(k.cluster_per_call))
                              : k.cluster > 1    ? fmt::format(" cluster({})", k.cluster)
                                                 : "";
        if (k.min_blocks) cluster += fmt::format(" min_blocks_per_sm({})", p.e_.print(k.min_blocks));
        os << fmt::format("kernel {}({}) sizes({}) grid({}) block({}){} {{\n", k.name, fmt::join(params, ", "),
                          fmt::join(sizes, ", "), fmt::join(grid, ", "), fmt::join(block, ", "), cluster);
        p.body(k.body, 0);
        os << "\n";
    }
}

}  // namespace hds::ir
