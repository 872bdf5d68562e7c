// ast_printer.cpp — AST dump and operator spellings.
#include "frontend/ast_printer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace hds {

const char* op_spelling(UnaryOp op) {
    switch (op) {
        case UnaryOp::Neg:
            return "-";
        case UnaryOp::Not:
            return "!";
        case UnaryOp::BitNot:
            return "~";
    }
    return "?";
}

const char* op_spelling(BinaryOp op) {
    static const char* names[] = {
        "*", "/", "%", "+", "-", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "^", "|", "&&", "||"};
    return names[static_cast<int>(op)];
}

namespace {

class Printer {
  public:
    explicit Printer(std::ostream& os) : os_(os) {}

    void decl(const Decl& d) {
        switch (d.kind) {
            case DeclKind::Import:
                head("ImportDecl", d.range, "\"" + as<const ImportDecl>(d).path + "\"");
                break;
            case DeclKind::Target:
                head("TargetDecl", d.range, d.name);
                break;
            case DeclKind::Const: {
                auto& c = as<const ConstDecl>(d);
                head("ConstDecl", d.range, fmt::format("'{}' {}", d.name, type(c.type)));
                child([&] { expr(*c.value); });
                break;
            }
            case DeclKind::Kernel: {
                auto& k = as<const KernelDecl>(d);
                head("KernelDecl", d.range, "'" + d.name + "'");
                child([&] {
                    for (const Param& p : k.params)
                        head("Param", p.name_range, fmt::format("'{}' {}", p.name, type(p.type)));
                    head("Grid", k.grid_range, "");
                    child([&] {
                        for (const ExprPtr& g : k.grid) expr(*g);
                    });
                    head("Block", k.block_range, "");
                    child([&] {
                        for (const ExprPtr& b : k.block) expr(*b);
                    });
                    if (k.cluster) {
                        head("Cluster", k.cluster->range, "");
                        child([&] { expr(*k.cluster); });
                    }
                    if (k.min_blocks) {
                        head("MinBlocksPerSM", k.min_blocks->range, "");
                        child([&] { expr(*k.min_blocks); });
                    }
                    stmt(*k.body);
                });
                break;
            }
            case DeclKind::Op: {
                auto& o = as<const OpDecl>(d);
                head("OpDecl", d.range, fmt::format("'{}' -> {}", d.name, type(o.result)));
                child([&] {
                    for (const Param& p : o.params)
                        head("Param", p.name_range, fmt::format("'{}' {}", p.name, type(p.type)));
                    for (const OpRequire& r : o.requires_) {
                        head("Require", r.range, "");
                        child([&] { expr(*r.cond); });
                    }
                    for (const ComputeDef& c : o.computes) {
                        head("Compute", c.range, "'" + c.name + "'");
                        child([&] {
                            for (const ExprPtr& i : c.indices) expr(*i);
                            expr(*c.value);
                        });
                    }
                    for (const ScheduleRef& s : o.schedules) {
                        std::string args;
                        for (const ScheduleArg& a : s.args) args += fmt::format(" {}={}", a.name, a.value);
                        if (!s.then_kernel.empty()) args += fmt::format(" then '{}'", s.then_kernel);
                        if (!s.pad.empty()) args += fmt::format(" pad({})", fmt::join(s.pad, ", "));
                        head("Schedule", s.range, fmt::format("'{}' = '{}'{}", s.name, s.kernel, args));
                        if (s.when) child([&] { expr(*s.when); });
                    }
                });
                break;
            }
            case DeclKind::Graph: {
                auto& g = as<const GraphDecl>(d);
                head("GraphDecl", d.range, fmt::format("'{}' -> {}", d.name, type(g.result)));
                child([&] {
                    for (const Param& p : g.params)
                        head("Param", p.name_range, fmt::format("'{}' {}", p.name, type(p.type)));
                    stmt(*g.body);
                });
                break;
            }
            case DeclKind::DeviceFn: {
                auto& f = as<const DeviceFnDecl>(d);
                head("DeviceFnDecl", d.range, fmt::format("'{}'{}", d.name, f.ret ? " -> " + type(*f.ret) : ""));
                child([&] {
                    for (const Param& p : f.params)
                        head("Param", p.name_range, fmt::format("'{}' {}", p.name, type(p.type)));
                    stmt(*f.body);
                });
                break;
            }
        }
    }

  private:
    template <typename F>
    void child(F&& f) {
        ++depth_;
        f();
        --depth_;
    }

    void head(const std::string& node, SourceRange r, const std::string& detail) {
        os_ << std::string(depth_ * 2, ' ') << node << " <" << r.begin.line << ":" << r.begin.col << ">";
        if (!detail.empty()) os_ << " " << detail;
        os_ << "\n";
    }

    static std::string type(const TypeRef& t) {
        std::string s = t.space == MemSpace::None ? "" : std::string(space_name(t.space)) + " ";
        s += t.scalar;
        if (t.is_tensor) s += fmt::format("[{} dims]", t.dims.size());
        return s;
    }

    void stmt(const Stmt& s) {
        switch (s.kind) {
            case StmtKind::Block: {
                head("Block", s.range, "");
                child([&] {
                    for (const StmtPtr& x : as<const BlockStmt>(s).stmts) stmt(*x);
                });
                break;
            }
            case StmtKind::Let: {
                auto& l = as<const LetStmt>(s);
                head(l.is_mutable ? "VarStmt" : "LetStmt", s.range,
                     "'" + l.name + "'" + (l.declared ? " " + type(*l.declared) : ""));
                if (l.init) child([&] { expr(*l.init); });
                break;
            }
            case StmtKind::Assign: {
                auto& a = as<const AssignStmt>(s);
                head("AssignStmt", s.range, a.op ? std::string(op_spelling(*a.op)) + "=" : "=");
                child([&] {
                    expr(*a.target);
                    expr(*a.value);
                });
                break;
            }
            case StmtKind::ExprStmt:
                head("ExprStmt", s.range, "");
                child([&] { expr(*as<const ExprStmt>(s).expr); });
                break;
            case StmtKind::If: {
                auto& i = as<const IfStmt>(s);
                head("IfStmt", s.range, "");
                child([&] {
                    expr(*i.cond);
                    stmt(*i.then_block);
                    if (i.else_stmt) stmt(*i.else_stmt);
                });
                break;
            }
            case StmtKind::For: {
                auto& f = as<const ForStmt>(s);
                std::vector<std::string> vars;
                for (const LoopVar& v : f.vars) vars.push_back(v.name);
                head("ForStmt", s.range, fmt::format("({}){}", fmt::join(vars, ", "), f.unroll ? " unroll" : ""));
                child([&] {
                    expr(*f.iterable);
                    if (f.hi) expr(*f.hi);
                    if (f.step) expr(*f.step);
                    if (f.on) expr(*f.on);
                    stmt(*f.body);
                });
                break;
            }
            case StmtKind::Return:
                head("ReturnStmt", s.range, "");
                if (auto& v = as<const ReturnStmt>(s).value) child([&] { expr(*v); });
                break;
            case StmtKind::Break:
                head("BreakStmt", s.range, "");
                break;
            case StmtKind::Continue:
                head("ContinueStmt", s.range, "");
                break;
        }
    }

    void expr(const Expr& e) {
        std::string t = e.checked ? " : " + e.type.str() : "";
        switch (e.kind) {
            case ExprKind::IntLit:
                head("IntLit", e.range, std::to_string(as<const IntLit>(e).value) + t);
                break;
            case ExprKind::FloatLit:
                head("FloatLit", e.range, fmt::format("{}", as<const FloatLit>(e).value) + t);
                break;
            case ExprKind::BoolLit:
                head("BoolLit", e.range, (as<const BoolLit>(e).value ? "true" : "false") + t);
                break;
            case ExprKind::Name:
                head("Name", e.range, "'" + as<const NameExpr>(e).name + "'" + t);
                break;
            case ExprKind::Member: {
                auto& m = as<const MemberExpr>(e);
                head("Member", e.range, "." + m.member + t);
                child([&] { expr(*m.base); });
                break;
            }
            case ExprKind::Index: {
                auto& i = as<const IndexExpr>(e);
                head("Index", e.range, t);
                child([&] {
                    expr(*i.base);
                    for (const ExprPtr& x : i.indices) expr(*x);
                });
                break;
            }
            case ExprKind::Unary: {
                auto& u = as<const UnaryExpr>(e);
                head("Unary", e.range, std::string("'") + op_spelling(u.op) + "'" + t);
                child([&] { expr(*u.operand); });
                break;
            }
            case ExprKind::Binary: {
                auto& b = as<const BinaryExpr>(e);
                head("Binary", e.range, std::string("'") + op_spelling(b.op) + "'" + t);
                child([&] {
                    expr(*b.lhs);
                    expr(*b.rhs);
                });
                break;
            }
            case ExprKind::Cond: {
                auto& c = as<const CondExpr>(e);
                head("Cond", e.range, t);
                child([&] {
                    expr(*c.cond);
                    expr(*c.then_expr);
                    expr(*c.else_expr);
                });
                break;
            }
            case ExprKind::Call: {
                auto& c = as<const CallExpr>(e);
                head("Call", e.range, "'" + c.callee + "'" + t);
                child([&] {
                    for (const CallArg& a : c.args) {
                        if (!a.name.empty()) head("NamedArg", a.name_range, "'" + a.name + "'");
                        expr(*a.value);
                    }
                });
                break;
            }
            case ExprKind::Cast: {
                auto& c = as<const CastExpr>(e);
                head("Cast", e.range, "<" + c.target + ">" + t);
                child([&] { expr(*c.operand); });
                break;
            }
            case ExprKind::Spread:
                head("Spread", e.range, "'*" + as<const SpreadExpr>(e).name + "'");
                break;
            case ExprKind::Reduce: {
                auto& r = as<const ReduceExpr>(e);
                head("Reduce", e.range, "'" + r.reducer + "'");
                child([&] {
                    for (const ReduceRange& rr : r.ranges) {
                        head("Range", rr.range, "'" + rr.name + "'");
                        child([&] {
                            expr(*rr.lo);
                            expr(*rr.hi);
                        });
                    }
                    expr(*r.body);
                });
                break;
            }
            case ExprKind::List:
                head("List", e.range, t);
                child([&] {
                    for (const ExprPtr& x : as<const ListExpr>(e).elems) expr(*x);
                });
                break;
        }
    }

    std::ostream& os_;
    int depth_ = 0;
};

}  // namespace

void print_ast(const Module& m, std::ostream& os) {
    Printer p(os);
    for (const DeclPtr& d : m.decls) p.decl(*d);
}

}  // namespace hds
