// ir.cpp — node constructors with invariant checks.
#include "ir/ir.h"

#include <stdexcept>

#include "ir/internal_error.h"

namespace hds::ir {

bool is_comparison(BinOp op) {
    return op == BinOp::Lt || op == BinOp::Le || op == BinOp::Gt || op == BinOp::Ge || op == BinOp::Eq ||
           op == BinOp::Ne;
}

const char* op_symbol(BinOp op) {
    static const char* names[] = {
        "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "&&", "||"};
    return names[static_cast<int>(op)];
}

const char* op_symbol(UnOp op) {
    switch (op) {
        case UnOp::Neg:
            return "-";
        case UnOp::Not:
            return "!";
        case UnOp::BitNot:
            return "~";
    }
    return "?";
}

const char* scope_name(Scope s) {
    switch (s) {
        case Scope::Global:
            return "global";
        case Scope::Shared:
            return "shared";
        case Scope::Register:
            return "register";
    }
    return "?";
}

Expr IntImm::make(ScalarType t, int64_t v) {
    HDS_CHECK(is_int(t), "IntImm of non-integer type");
    return std::make_shared<IntImm>(t, v);
}
Expr FloatImm::make(ScalarType t, double v) {
    HDS_CHECK(is_float(t), "FloatImm of non-float type");
    return std::make_shared<FloatImm>(t, v);
}
Expr BoolImm::make(bool v) {
    return std::make_shared<BoolImm>(v);
}

Var make_var(ScalarType t, std::string name) {
    return std::make_shared<VarNode>(t, std::move(name));
}

Expr SpecialReg::make(SpecialKind w, int dim) {
    HDS_CHECK(dim >= 0 && dim < 3, "special register dimension out of range");
    return std::make_shared<SpecialReg>(w, dim);
}

std::string SpecialReg::cuda_name() const {
    static const char* names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
    static const char* dims[] = {"x", "y", "z"};
    return std::string(names[static_cast<int>(which)]) + "." + dims[dim];
}

Expr Cast::make(ScalarType t, Expr v) {
    HDS_CHECK(v != nullptr, "Cast of null");
    if (v->type == t) return v;
    return std::make_shared<Cast>(t, std::move(v));
}

Expr Unary::make(UnOp op, Expr a) {
    HDS_CHECK(a != nullptr, "Unary of null");
    HDS_CHECK(op != UnOp::Not || a->type == ScalarType::Bool, "! of non-bool");
    HDS_CHECK(op != UnOp::BitNot || is_int(a->type), "~ of non-integer");
    return std::make_shared<Unary>(op, std::move(a));
}

Expr Binary::make(BinOp op, Expr a, Expr b) {
    HDS_CHECK(a && b, "Binary of null");
    HDS_CHECK(a->type == b->type, std::string("operands of '") + op_symbol(op) + "' differ in type: " +
                                      std::string(scalar_name(a->type)) + " vs " + std::string(scalar_name(b->type)));
    bool logical = op == BinOp::And || op == BinOp::Or;
    HDS_CHECK(!logical || a->type == ScalarType::Bool, "&& or || of non-bool");
    ScalarType t = is_comparison(op) || logical ? ScalarType::Bool : a->type;
    return std::make_shared<Binary>(op, t, std::move(a), std::move(b));
}

Expr Select::make(Expr cond, Expr t, Expr f) {
    HDS_CHECK(cond && t && f, "Select of null");
    HDS_CHECK(cond->type == ScalarType::Bool, "Select condition is not bool");
    HDS_CHECK(t->type == f->type, "Select branches differ in type");
    return std::make_shared<Select>(std::move(cond), std::move(t), std::move(f));
}

int64_t BufferNode::constant_elements() const {
    int64_t n = 1;
    for (const Expr& d : shape) {
        auto c = const_int(d);
        if (!c) return -1;
        n *= *c;
    }
    return n;
}

Buffer make_buffer(std::string name, ScalarType elem, std::vector<Expr> shape, Scope scope) {
    HDS_CHECK(!shape.empty(), "buffer without dimensions");
    for (const Expr& d : shape) HDS_CHECK(d && is_int(d->type), "buffer dimension is not an integer");
    return std::make_shared<BufferNode>(BufferNode{std::move(name), elem, std::move(shape), scope});
}

static void check_indices(const Buffer& b, const std::vector<Expr>& indices) {
    HDS_CHECK(b != nullptr, "access of null buffer");
    HDS_CHECK(indices.size() == b->shape.size() || indices.size() == 1, "index count does not match rank");
    for (const Expr& i : indices) HDS_CHECK(i && is_int(i->type), "index is not an integer");
}

Expr Load::make(Buffer b, std::vector<Expr> indices, SourceLoc loc) {
    check_indices(b, indices);
    return std::make_shared<Load>(std::move(b), std::move(indices), loc);
}

Expr Call::make(ScalarType t, Builtin b, std::vector<Expr> args, std::string function) {
    for (const Expr& a : args) HDS_CHECK(a != nullptr, "call argument is null");
    if (b != Builtin::DeviceFn) {
        const BuiltinInfo& info = builtin_info(b);
        HDS_CHECK(static_cast<int>(args.size()) == info.arity, std::string("wrong arity for ") + info.name);
        if (info.cls == BuiltinClass::Atomic) HDS_CHECK(as<Load>(args[0]) != nullptr, "atomic target is not a load");
        for (int i = 0; i < builtin_reference_operands(b); ++i)
            HDS_CHECK(as<Load>(args[i]) != nullptr, "tensor-core operands are not element references");
    }
    return std::make_shared<Call>(t, b, std::move(function), std::move(args), true);
}

Expr Call::make_void(Builtin b, std::vector<Expr> args, std::string function) {
    Expr e = make(ScalarType::Bool, b, std::move(args), std::move(function));
    auto* c = static_cast<const Call*>(e.get());
    return std::make_shared<Call>(ScalarType::Bool, b, c->function, c->args, false);
}

int copy_bytes(const Call& c) {
    if (c.builtin != Builtin::CopyVec4) return builtin_copy_bytes(c.builtin);
    auto* dst = as<Load>(c.args.at(0));
    HDS_CHECK(dst, "copy_vec4 without an element reference");
    return 4 * byte_size(dst->buffer->elem);
}

Stmt Decl::make(SourceLoc l, Var v, Expr init, bool is_const) {
    HDS_CHECK(v && init, "Decl without variable or initializer");
    HDS_CHECK(v->type == init->type, "Decl initializer type differs from variable type");
    return std::make_shared<Decl>(l, std::move(v), std::move(init), is_const);
}

Stmt Assign::make(SourceLoc l, Var v, Expr value, std::optional<BinOp> op) {
    HDS_CHECK(v && value, "Assign of null");
    HDS_CHECK(v->type == value->type, "Assign value type differs from variable type");
    return std::make_shared<Assign>(l, std::move(v), std::move(value), op);
}

Stmt Store::make(SourceLoc l, Buffer b, std::vector<Expr> indices, Expr value, std::optional<BinOp> op) {
    check_indices(b, indices);
    HDS_CHECK(value && value->type == b->elem, "Store value type differs from element type");
    return std::make_shared<Store>(l, std::move(b), std::move(indices), std::move(value), op);
}

Stmt Alloc::make(SourceLoc l, Buffer b) {
    HDS_CHECK(b && b->scope != Scope::Global, "Alloc of a global buffer");
    HDS_CHECK(b->constant_elements() > 0, "Alloc of a buffer with non-constant size");
    return std::make_shared<Alloc>(l, std::move(b));
}

Stmt For::make(SourceLoc l, Var v, Expr lo, Expr hi, Expr step, bool unroll, Stmt body) {
    HDS_CHECK(v && lo && hi && step && body, "For with null part");
    HDS_CHECK(lo->type == v->type && hi->type == v->type && step->type == v->type,
              "For bounds differ in type from the loop variable");
    return std::make_shared<For>(l, std::move(v), std::move(lo), std::move(hi), std::move(step), unroll,
                                 std::move(body));
}

Stmt MapFor::make(SourceLoc l, std::vector<Var> vars, TaskMapping m, Expr worker, bool unroll, Stmt body) {
    HDS_CHECK(vars.size() == m.rank(), "MapFor variable count differs from mapping rank");
    HDS_CHECK(worker && is_int(worker->type) && body, "MapFor with null part");
    return std::make_shared<MapFor>(l, std::move(vars), std::move(m), std::move(worker), unroll, std::move(body));
}

Stmt If::make(SourceLoc l, Expr cond, Stmt then_s, Stmt else_s, std::string note) {
    HDS_CHECK(cond && cond->type == ScalarType::Bool && then_s, "If with bad condition or no body");
    return std::make_shared<If>(l, std::move(cond), std::move(then_s), std::move(else_s), std::move(note));
}

Stmt Block::make(SourceLoc l, std::vector<Stmt> stmts) {
    for (const Stmt& s : stmts) HDS_CHECK(s != nullptr, "null statement in block");
    return std::make_shared<Block>(l, std::move(stmts));
}

Stmt Evaluate::make(SourceLoc l, Expr value) {
    HDS_CHECK(value != nullptr, "Evaluate of null");
    return std::make_shared<Evaluate>(l, std::move(value));
}

Stmt Return::make(SourceLoc l, Expr value) {
    return std::make_shared<Return>(l, std::move(value));
}
Stmt Jump::make_break(SourceLoc l) {
    return std::make_shared<Jump>(StmtKind::Break, l);
}
Stmt Jump::make_continue(SourceLoc l) {
    return std::make_shared<Jump>(StmtKind::Continue, l);
}

Expr i32(int64_t v) {
    return IntImm::make(ScalarType::I32, v);
}
Expr add(Expr a, Expr b) {
    return Binary::make(BinOp::Add, std::move(a), std::move(b));
}
Expr sub(Expr a, Expr b) {
    return Binary::make(BinOp::Sub, std::move(a), std::move(b));
}
Expr mul(Expr a, Expr b) {
    return Binary::make(BinOp::Mul, std::move(a), std::move(b));
}
Expr div(Expr a, Expr b) {
    return Binary::make(BinOp::Div, std::move(a), std::move(b));
}
Expr mod(Expr a, Expr b) {
    return Binary::make(BinOp::Mod, std::move(a), std::move(b));
}

Expr lt(Expr a, Expr b) {
    return Binary::make(BinOp::Lt, std::move(a), std::move(b));
}

Expr le(Expr a, Expr b) {
    return Binary::make(BinOp::Le, std::move(a), std::move(b));
}

Expr eq(Expr a, Expr b) {
    return Binary::make(BinOp::Eq, std::move(a), std::move(b));
}

std::optional<int64_t> const_int(const Expr& e) {
    if (auto* i = as<IntImm>(e)) return i->value;
    return std::nullopt;
}

int64_t constant_threads(const Kernel& k) {
    int64_t n = 1;
    for (const Expr& b : k.block) {
        std::optional<int64_t> c = const_int(b);
        if (!c) return 0;
        n *= *c;
    }
    return n;
}

int64_t tma_box_rows(const Call* c, int64_t buffer_rows) {
    if (c->builtin != Builtin::TmaLoad2dRows) return buffer_rows;
    std::optional<int64_t> rows = const_int(c->args.at(3));
    HDS_CHECK(rows.has_value(), "tma_load_2d_rows with a rows count that is not constant");
    return *rows;
}

int64_t shared_array_align(ScalarType elem, bool sm90) {
    return sm90 && elem != ScalarType::U64 ? 1024 : 16;
}

int64_t shared_array_end(int64_t offset, int64_t bytes, ScalarType elem, bool sm90, int64_t* start) {
    int64_t align = shared_array_align(elem, sm90);
    int64_t at = (offset + align - 1) / align * align;
    if (start) *start = at;
    return at + (bytes + 15) / 16 * 16;
}

int64_t shared_array_end(int64_t offset, const Buffer& b, bool sm90, int64_t* start) {
    return shared_array_end(offset, b->constant_elements() * byte_size(b->elem), b->elem, sm90, start);
}

std::optional<bool> const_bool(const Expr& e) {
    if (auto* b = as<BoolImm>(e)) return b->value;
    return std::nullopt;
}

}  // namespace hds::ir
