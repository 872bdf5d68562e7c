// ast_builder.cpp — parse tree -> AST, with a SourceRange on every node and
// literal decoding (suffixes, hex, range checks).
#include "frontend/ast_builder.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace hds {

namespace {

class Builder {
  public:
    Builder(uint32_t file, DiagnosticsEngine& diags) : file_(file), diags_(diags) {}

    std::unique_ptr<Module> file(HdsParser::FileContext* ctx) {
        auto m = std::make_unique<Module>();
        for (auto* item : ctx->item()) {
            if (auto* d = item->importDecl())
                m->decls.push_back(import_decl(d));
            else if (auto* d = item->targetDecl())
                m->decls.push_back(target_decl(d));
            else if (auto* d = item->constDecl())
                m->decls.push_back(const_decl(d));
            else if (auto* d = item->kernelDecl())
                m->decls.push_back(kernel_decl(d));
            else if (auto* d = item->deviceFnDecl())
                m->decls.push_back(fn_decl(d));
            else if (auto* d = item->kernelInstance())
                m->decls.push_back(kernel_instance(d));
            else if (auto* d = item->opDecl())
                m->decls.push_back(op_decl(d));
            else if (auto* d = item->graphDecl())
                m->decls.push_back(graph_decl(d));
        }
        return m;
    }

  private:
    SourceLoc loc(antlr4::Token* t) const {
        return {file_, static_cast<uint32_t>(t->getLine()), static_cast<uint32_t>(t->getCharPositionInLine() + 1)};
    }
    SourceLoc end_loc(antlr4::Token* t) const {
        SourceLoc l = loc(t);
        l.col += static_cast<uint32_t>(t->getText().size());
        return l;
    }
    SourceRange range(antlr4::ParserRuleContext* ctx) const {
        antlr4::Token* stop = ctx->getStop() ? ctx->getStop() : ctx->getStart();
        return {loc(ctx->getStart()), end_loc(stop)};
    }
    SourceRange range(antlr4::tree::TerminalNode* n) const { return {loc(n->getSymbol()), end_loc(n->getSymbol())}; }
    SourceRange range(antlr4::Token* t) const { return {loc(t), end_loc(t)}; }

    DeclPtr target_decl(HdsParser::TargetDeclContext* ctx) {
        auto d = std::make_unique<TargetDecl>(range(ctx));
        d->name = ctx->ID()->getText();
        d->name_range = range(ctx->ID());
        return d;
    }

    DeclPtr import_decl(HdsParser::ImportDeclContext* ctx) {
        auto d = std::make_unique<ImportDecl>(range(ctx));
        std::string s = ctx->STRING()->getText();
        d->path = s.substr(1, s.size() - 2);
        d->name_range = range(ctx->STRING());
        return d;
    }

    DeclPtr const_decl(HdsParser::ConstDeclContext* ctx) {
        auto d = named<ConstDecl>(ctx);
        d->type = type_ref(ctx->typeRef());
        d->value = expr(ctx->expr());
        return d;
    }

    void params(HdsParser::ParamListContext* ctx, std::vector<Param>& out) {
        if (!ctx) return;
        for (auto* p : ctx->param()) {
            Param param;
            param.name = p->ID()->getText();
            param.name_range = range(p->ID());
            param.type = type_ref(p->typeRef());
            if (p->expr()) param.default_value = expr(p->expr());
            out.push_back(std::move(param));
        }
    }

    // A declaration with its range and name (`ctx->ID()`).
    template <typename D, typename C>
    std::unique_ptr<D> named(C* ctx) {
        auto d = std::make_unique<D>(range(ctx));
        d->name = ctx->ID()->getText();
        d->name_range = range(ctx->ID());
        return d;
    }

    std::vector<TypeParam> type_params(HdsParser::TypeParamsContext* ctx) {
        std::vector<TypeParam> out;
        if (!ctx) return out;
        for (auto* tp : ctx->typeParam()) {
            TypeParam p{tp->ID()->getText(), range(tp->ID()), "", nullptr, nullptr, {}};
            if (tp->scalarType()) p.value_type = tp->scalarType()->getText();
            if (tp->expr()) {
                p.default_owner = std::shared_ptr<Expr>(expr(tp->expr()).release());
                p.default_value = p.default_owner.get();
            }
            if (tp->exprList())
                for (auto* e : tp->exprList()->expr()) p.candidates.push_back(std::shared_ptr<Expr>(expr(e).release()));
            out.push_back(std::move(p));
        }
        return out;
    }

    DeclPtr op_decl(HdsParser::OpDeclContext* ctx) {
        auto d = named<OpDecl>(ctx);
        d->type_params = type_params(ctx->typeParams());
        params(ctx->paramList(), d->params);
        d->result = type_ref(ctx->typeRef());
        for (auto* item : ctx->opItem()) {
            if (auto* c = dynamic_cast<HdsParser::ComputeItemContext*>(item)) {
                ComputeDef def;
                def.range = range(c);
                def.name = c->ID()->getText();
                def.name_range = range(c->ID());
                def.indices = expr_list(c->exprList());
                def.value = expr(c->expr());
                d->computes.push_back(std::move(def));
            } else if (auto* r = dynamic_cast<HdsParser::RequireItemContext*>(item)) {
                d->requires_.push_back({range(r), expr(r->expr())});
            } else {
                auto* s = dynamic_cast<HdsParser::ScheduleItemContext*>(item);
                ScheduleRef ref{
                    range(s), s->ID(0)->getText(), s->ID(1)->getText(), range(s->ID(1)), {}, {}, nullptr, {}, {}, {},
                    {}};
                if (s->scheduleArgs())
                    for (auto* a : s->scheduleArgs()->scheduleArg())
                        ref.args.push_back({a->ID()->getText(), int_value(a->INT()), range(a)});
                if (auto* then = s->scheduleThen()) {
                    if (then->ID(0)->getText() != "then")
                        diags_.error(DiagId::schedule_then_word, range(then->ID(0)), then->ID(0)->getText());
                    ref.then_kernel = then->ID(1)->getText();
                    ref.then_range = range(then->ID(1));
                }
                for (size_t i = 2; i < s->ID().size(); ++i) ref.types.push_back(s->ID(i)->getText());
                if (s->expr()) ref.when = expr(s->expr());
                if (auto* pad = s->schedulePad()) schedule_pad(pad, *d, ref);
                d->schedules.push_back(std::move(ref));
            }
        }
        return d;
    }

    // `pad(K, N)`: the word, then sizes that the op's tensor parameters have.
    void schedule_pad(HdsParser::SchedulePadContext* ctx, const OpDecl& op, ScheduleRef& ref) {
        if (ctx->ID(0)->getText() != "pad") {
            diags_.error(DiagId::schedule_pad_word, range(ctx->ID(0)), ctx->ID(0)->getText());
            return;
        }
        for (size_t i = 1; i < ctx->ID().size(); ++i) {
            std::string name = ctx->ID(i)->getText();
            bool size = false;
            for (const Param& p : op.params)
                for (const ExprPtr& d : p.type.dims)
                    size |= p.type.is_tensor && d->kind == ExprKind::Name && as<NameExpr>(*d).name == name;
            if (!size) {
                diags_.error(DiagId::schedule_pad_size, range(ctx->ID(i)), name, ref.name, op.name);
                continue;
            }
            ref.pad.push_back(name);
            ref.pad_ranges.push_back(range(ctx->ID(i)));
        }
    }

    DeclPtr kernel_instance(HdsParser::KernelInstanceContext* ctx) {
        auto d = std::make_unique<KernelDecl>(range(ctx));
        d->name = ctx->ID(0)->getText();
        d->name_range = range(ctx->ID(0));
        d->instance_of = ctx->ID(1)->getText();
        d->instance_of_range = range(ctx->ID(1));
        for (auto* e : ctx->expr()) d->type_args.push_back(expr(e));
        return d;
    }

    DeclPtr graph_decl(HdsParser::GraphDeclContext* ctx) {
        auto d = named<GraphDecl>(ctx);
        params(ctx->paramList(), d->params);
        d->result = type_ref(ctx->typeRef());
        d->body = block(ctx->block());
        return d;
    }

    DeclPtr kernel_decl(HdsParser::KernelDeclContext* ctx) {
        auto d = named<KernelDecl>(ctx);
        d->type_params = type_params(ctx->typeParams());
        params(ctx->paramList(), d->params);
        auto* lc = ctx->launchConfig();
        d->grid = expr_list(lc->exprList(0));
        d->block = expr_list(lc->exprList(1));
        d->grid_range = range(lc->exprList(0));
        d->block_range = range(lc->exprList(1));
        if (lc->cluster) d->cluster = expr(lc->cluster);
        if (lc->minBlocks) d->min_blocks = expr(lc->minBlocks);
        d->body = block(ctx->block());
        return d;
    }

    DeclPtr fn_decl(HdsParser::DeviceFnDeclContext* ctx) {
        auto d = named<DeviceFnDecl>(ctx);
        params(ctx->paramList(), d->params);
        if (ctx->typeRef()) d->ret = type_ref(ctx->typeRef());
        d->body = block(ctx->block());
        return d;
    }

    TypeRef type_ref(HdsParser::TypeRefContext* ctx) {
        TypeRef t;
        t.range = range(ctx);
        if (auto* ms = ctx->memSpace()) {
            std::string s = ms->getText();
            t.space = s == "shared" ? MemSpace::Shared : s == "register" ? MemSpace::Register : MemSpace::Global;
        }
        t.scalar = ctx->scalarType()->getText();
        t.scalar_range = range(ctx->scalarType());
        if (ctx->exprList()) {
            t.is_tensor = true;
            t.dims = expr_list(ctx->exprList());
        }
        return t;
    }

    std::unique_ptr<BlockStmt> block(HdsParser::BlockContext* ctx) {
        auto b = std::make_unique<BlockStmt>(range(ctx));
        for (auto* s : ctx->stmt()) b->stmts.push_back(stmt(s));
        return b;
    }

    StmtPtr if_stmt(SourceRange r, HdsParser::ExprContext* cond, std::vector<HdsParser::BlockContext*> blocks,
                    HdsParser::IfOnlyContext* else_if) {
        auto s = std::make_unique<IfStmt>(r);
        s->cond = expr(cond);
        s->then_block = block(blocks.at(0));
        if (blocks.size() > 1)
            s->else_stmt = block(blocks[1]);
        else if (else_if)
            s->else_stmt = if_stmt(range(else_if), else_if->expr(), else_if->block(), else_if->ifOnly());
        return s;
    }

    StmtPtr stmt(HdsParser::StmtContext* ctx) {
        SourceRange r = range(ctx);
        if (auto* c = dynamic_cast<HdsParser::ForStmtContext*>(ctx)) {
            auto s = std::make_unique<ForStmt>(r);
            for (auto* a : c->attribute()) s->attributes.emplace_back(a->ID()->getText(), range(a));
            for (auto* id : c->forTargets()->ID()) s->vars.push_back({id->getText(), range(id)});
            s->iterable = expr(c->expr());
            auto* tail = c->forTail();
            if (tail->hi) s->hi = expr(tail->hi);
            if (tail->step) s->step = expr(tail->step);
            if (tail->worker) s->on = expr(tail->worker);
            s->body = block(c->block());
            return s;
        }
        if (auto* c = dynamic_cast<HdsParser::LetStmtContext*>(ctx)) {
            auto s = std::make_unique<LetStmt>(r);
            s->name = c->ID()->getText();
            s->name_range = range(c->ID());
            if (c->typeRef()) s->declared = type_ref(c->typeRef());
            s->init = expr(c->expr());
            return s;
        }
        if (auto* c = dynamic_cast<HdsParser::VarStmtContext*>(ctx)) {
            auto s = std::make_unique<LetStmt>(r);
            s->is_mutable = true;
            s->name = c->ID()->getText();
            s->name_range = range(c->ID());
            s->declared = type_ref(c->typeRef());
            if (c->expr()) s->init = expr(c->expr());
            return s;
        }
        if (auto* c = dynamic_cast<HdsParser::VarInferStmtContext*>(ctx)) {
            auto s = std::make_unique<LetStmt>(r);
            s->is_mutable = true;
            s->name = c->ID()->getText();
            s->name_range = range(c->ID());
            s->init = expr(c->expr());
            return s;
        }
        if (auto* c = dynamic_cast<HdsParser::IfStmtContext*>(ctx))
            return if_stmt(r, c->expr(), c->block(), c->ifOnly());
        if (auto* c = dynamic_cast<HdsParser::ReturnStmtContext*>(ctx)) {
            auto s = std::make_unique<ReturnStmt>(r);
            if (c->expr()) s->value = expr(c->expr());
            return s;
        }
        if (dynamic_cast<HdsParser::BreakStmtContext*>(ctx)) return std::make_unique<JumpStmt>(StmtKind::Break, r);
        if (dynamic_cast<HdsParser::ContinueStmtContext*>(ctx))
            return std::make_unique<JumpStmt>(StmtKind::Continue, r);
        if (auto* c = dynamic_cast<HdsParser::AssignStmtContext*>(ctx)) {
            auto s = std::make_unique<AssignStmt>(r);
            s->target = expr(c->expr(0));
            s->value = expr(c->expr(1));
            std::string op = c->assignOp()->getText();
            if (op != "=") s->op = binary_op(op.substr(0, op.size() - 1));
            return s;
        }
        if (auto* c = dynamic_cast<HdsParser::ExprStmtContext*>(ctx)) {
            auto s = std::make_unique<ExprStmt>(r);
            s->expr = expr(c->expr());
            return s;
        }
        auto* c = dynamic_cast<HdsParser::BlockStmtContext*>(ctx);
        return block(c->block());
    }

    static BinaryOp binary_op(const std::string& op) {
        static const std::pair<const char*, BinaryOp> table[] = {
            {"*", BinaryOp::Mul},  {"/", BinaryOp::Div},    {"%", BinaryOp::Mod},    {"+", BinaryOp::Add},
            {"-", BinaryOp::Sub},  {"<<", BinaryOp::Shl},   {">>", BinaryOp::Shr},   {"<", BinaryOp::Lt},
            {"<=", BinaryOp::Le},  {">", BinaryOp::Gt},     {">=", BinaryOp::Ge},    {"==", BinaryOp::Eq},
            {"!=", BinaryOp::Ne},  {"&", BinaryOp::BitAnd}, {"^", BinaryOp::BitXor}, {"|", BinaryOp::BitOr},
            {"&&", BinaryOp::And}, {"||", BinaryOp::Or}};
        for (const auto& [s, o] : table)
            if (op == s) return o;
        return BinaryOp::Add;  // unreachable for input the grammar accepted
    }

    std::vector<ExprPtr> expr_list(HdsParser::ExprListContext* ctx) {
        std::vector<ExprPtr> out;
        if (ctx)
            for (auto* e : ctx->expr()) out.push_back(expr(e));
        return out;
    }

    ExprPtr expr(HdsParser::ExprContext* ctx) {
        SourceRange r = range(ctx);
        if (auto* c = dynamic_cast<HdsParser::PrimaryExprContext*>(ctx)) return primary(c->primary());
        if (auto* c = dynamic_cast<HdsParser::MemberExprContext*>(ctx)) {
            auto e = std::make_unique<MemberExpr>(r);
            e->base = expr(c->expr());
            e->member = c->ID()->getText();
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::IndexExprContext*>(ctx)) {
            auto e = std::make_unique<IndexExpr>(r);
            e->base = expr(c->expr());
            e->indices = expr_list(c->exprList());
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::UnaryExprContext*>(ctx)) {
            auto e = std::make_unique<UnaryExpr>(r);
            std::string op = c->op->getText();
            e->op = op == "-" ? UnaryOp::Neg : op == "!" ? UnaryOp::Not : UnaryOp::BitNot;
            e->operand = expr(c->expr());
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::BinaryExprContext*>(ctx)) {
            auto e = std::make_unique<BinaryExpr>(r);
            e->op = binary_op(c->op->getText());
            e->op_range = range(c->op);
            e->lhs = expr(c->expr(0));
            e->rhs = expr(c->expr(1));
            return e;
        }
        auto* c = dynamic_cast<HdsParser::CondExprContext*>(ctx);
        auto e = std::make_unique<CondExpr>(r);
        e->cond = expr(c->expr(0));
        e->then_expr = expr(c->expr(1));
        e->else_expr = expr(c->expr(2));
        return e;
    }

    template <typename T>
    static bool split_suffix(std::string& text, std::optional<ScalarType>& suffix,
                             std::initializer_list<const char*> suffixes) {
        for (const char* s : suffixes) {
            std::string sfx(s);
            if (text.size() > sfx.size() && text.compare(text.size() - sfx.size(), sfx.size(), sfx) == 0) {
                suffix = parse_scalar(sfx);
                text.resize(text.size() - sfx.size());
                return true;
            }
        }
        return false;
    }

    // An INT token's value (decimal or hex; a type suffix is ignored), saturated.
    static int64_t int_value(antlr4::tree::TerminalNode* t) {
        std::string text = t->getText();
        bool hex = text.size() > 1 && text[1] == 'x';
        uint64_t v = std::strtoull(text.c_str(), nullptr, hex ? 16 : 10);
        return static_cast<int64_t>(std::min<uint64_t>(v, INT64_MAX));
    }

    ExprPtr primary(HdsParser::PrimaryContext* ctx) {
        SourceRange r = range(ctx);
        if (auto* c = dynamic_cast<HdsParser::IntLitContext*>(ctx)) {
            auto e = std::make_unique<IntLit>(r);
            std::string text = c->getText();
            bool hex = text.size() > 1 && text[1] == 'x';
            // Hex digits include no 'i'/'u', so suffix splitting is safe for both bases.
            split_suffix<IntLit>(text, e->suffix, {"i8", "i16", "i32", "i64", "u8", "u32", "u64"});
            errno = 0;
            e->value = std::strtoull(text.c_str(), nullptr, hex ? 16 : 10);
            if (errno == ERANGE) diags_.error(DiagId::literal_out_of_range, r, c->getText(), "u64");
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::FloatLitContext*>(ctx)) {
            auto e = std::make_unique<FloatLit>(r);
            std::string text = c->getText();
            split_suffix<FloatLit>(text, e->suffix, {"bf16", "f16", "f32", "f64"});
            e->value = std::strtod(text.c_str(), nullptr);
            if (std::isinf(e->value)) diags_.error(DiagId::literal_out_of_range, r, c->getText(), "f64");
            return e;
        }
        if (dynamic_cast<HdsParser::BoolLitContext*>(ctx)) {
            auto e = std::make_unique<BoolLit>(r);
            e->value = ctx->getText() == "true";
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::CastExprContext*>(ctx)) {
            auto e = std::make_unique<CastExpr>(r);
            e->target = c->scalarType()->getText();
            e->target_range = range(c->scalarType());
            e->operand = expr(c->expr());
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::CallExprContext*>(ctx)) {
            auto e = std::make_unique<CallExpr>(r);
            e->callee = c->ID()->getText();
            e->callee_range = range(c->ID());
            if (auto* args = c->argList()) {
                for (auto* a : args->arg()) {
                    CallArg arg;
                    if (a->ID()) {
                        arg.name = a->ID()->getText();
                        arg.name_range = range(a->ID());
                    }
                    arg.value = expr(a->expr());
                    e->args.push_back(std::move(arg));
                }
            }
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::NameExprContext*>(ctx)) {
            auto e = std::make_unique<NameExpr>(r);
            e->name = c->ID()->getText();
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::ParenExprContext*>(ctx)) {
            ExprPtr inner = expr(c->expr());
            inner->range = r;  // keep the parentheses in the range
            return inner;
        }
        if (auto* c = dynamic_cast<HdsParser::SpreadExprContext*>(ctx)) {
            auto e = std::make_unique<SpreadExpr>(r);
            e->name = c->ID()->getText();
            return e;
        }
        if (auto* c = dynamic_cast<HdsParser::ReduceExprContext*>(ctx)) {
            auto e = std::make_unique<ReduceExpr>(r);
            e->reducer = c->ID()->getText();
            e->reducer_range = range(c->ID());
            for (auto* rr : c->reduceRange())
                e->ranges.push_back({rr->ID()->getText(), range(rr->ID()), expr(rr->expr(0)), expr(rr->expr(1))});
            e->body = expr(c->expr());
            return e;
        }
        auto* c = dynamic_cast<HdsParser::ListExprContext*>(ctx);
        auto e = std::make_unique<ListExpr>(r);
        e->elems = expr_list(c->exprList());
        return e;
    }

    uint32_t file_;
    DiagnosticsEngine& diags_;
};

}  // namespace

std::unique_ptr<Module> build_ast(HdsParser::FileContext* tree, uint32_t file, DiagnosticsEngine& diags) {
    return Builder(file, diags).file(tree);
}

}  // namespace hds
