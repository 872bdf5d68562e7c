// lower_task_mappings.cpp — replaces every `for (vars) in MAPPING on WORKER`
// by plain loops and index arithmetic (Hidet's lower_task_mapping).
//
// For a composition A1 * ... * Ak, worker w is split into per-atom workers
// (the last atom gets w % W_k, the one before (w / W_k) % W_{k-1}, ...); each
// repeat atom becomes nested loops (outermost atom first, each atom's
// dimensions in its enumeration order), each spatial atom unravels its worker;
// task index d is ((a1_d * s2_d + a2_d) * s3_d + a3_d) ... Dimensions of
// extent 1 produce neither loops nor terms. Assumes 0 <= w < workers.
#include "ir/passes/passes.h"

#include "ir/ir_mutator.h"
#include "ir/name_gen.h"

namespace hds::ir {

namespace {

class LowerTaskMappings : public IRMutator {
  public:
    explicit LowerTaskMappings(NameGen& names) : names_(names) {}

  protected:
    Stmt visit(const MapFor* op, const Stmt&) override {
        Stmt body = mutate(op->body);
        const TaskMapping& m = op->mapping;
        size_t rank = m.rank();
        size_t k = m.atoms.size();

        // Per-atom worker expressions (null for repeat atoms).
        std::vector<Expr> atom_worker(k);
        int64_t inner_workers = 1;
        for (size_t i = k; i-- > 0;) {
            const MappingAtom& a = m.atoms[i];
            if (a.kind == MappingAtom::Kind::Spatial) {
                Expr w = inner_workers == 1 ? op->worker : div(op->worker, i32(inner_workers));
                if (!is_outermost_spatial(m, i)) w = mod(w, i32(a.workers()));
                atom_worker[i] = w;
            }
            inner_workers *= a.workers();
        }

        // Per-atom, per-dimension local task indices; repeat loops collected.
        struct LoopSpec {
            Var var;
            int64_t extent;
        };
        std::vector<LoopSpec> loops;
        std::vector<std::vector<Expr>> local(k, std::vector<Expr>(rank));
        int repeat_atoms = 0;
        for (const MappingAtom& a : m.atoms) repeat_atoms += a.kind == MappingAtom::Kind::Repeat;
        int repeat_seen = 0;
        // A dimension that only one repeat atom spans uses the task variable
        // itself as the loop variable: `for (int i = 0; i < 8; ++i)`.
        std::vector<bool> direct(rank);
        for (size_t d = 0; d < rank; ++d) {
            int spanning = 0;
            bool by_repeat = false;
            for (const MappingAtom& a : m.atoms) {
                if (a.shape[d] == 1) continue;
                ++spanning;
                by_repeat = a.kind == MappingAtom::Kind::Repeat;
            }
            direct[d] = spanning == 1 && by_repeat;
        }
        for (size_t i = 0; i < k; ++i) {
            const MappingAtom& a = m.atoms[i];
            std::vector<int> order = loop_order(a.ranks);
            if (a.kind == MappingAtom::Kind::Repeat) {
                ++repeat_seen;
                for (int d : order) {
                    if (a.shape[d] == 1) continue;
                    std::string base = op->vars[d]->name + "_r";
                    if (repeat_atoms > 1) base += std::to_string(repeat_seen);
                    Var v = direct[d] ? op->vars[d] : make_var(ScalarType::I32, names_.fresh(base));
                    loops.push_back({v, a.shape[d]});
                    local[i][d] = v;
                }
                continue;
            }
            // Spatial: unravel the atom's worker in enumeration order.
            int64_t stride = 1;
            for (size_t j = order.size(); j-- > 0;) {
                int d = order[j];
                if (a.shape[d] == 1) continue;
                Expr idx = stride == 1 ? atom_worker[i] : div(atom_worker[i], i32(stride));
                bool slowest = true;
                for (size_t q = 0; q < j; ++q) slowest &= a.shape[order[q]] == 1;
                if (!slowest) idx = mod(idx, i32(a.shape[d]));
                local[i][d] = idx;
                stride *= a.shape[d];
            }
        }

        // Task variable declarations: t_d = (... (a1 * s2 + a2) * s3 + a3 ...).
        std::vector<Stmt> decls;
        for (size_t d = 0; d < rank; ++d) {
            if (direct[d]) continue;
            Expr t;
            for (size_t i = 0; i < k; ++i) {
                int64_t s = m.atoms[i].shape[d];
                if (t && s != 1) t = mul(t, i32(s));
                if (local[i][d]) t = t ? add(t, local[i][d]) : local[i][d];
            }
            decls.push_back(Decl::make(op->loc, op->vars[d], t ? t : i32(0), true));
        }
        decls.push_back(body);
        Stmt result = Block::make(op->loc, decls);
        for (size_t i = loops.size(); i-- > 0;)
            result = For::make(op->loc, loops[i].var, i32(0), i32(loops[i].extent), i32(1), op->unroll, result);
        return result;
    }

  private:
    static bool is_outermost_spatial(const TaskMapping& m, size_t i) {
        for (size_t j = 0; j < i; ++j)
            if (m.atoms[j].kind == MappingAtom::Kind::Spatial) return false;
        return true;
    }

    NameGen& names_;
};

}  // namespace

Stmt lower_task_mappings(const Stmt& body) {
    NameGen names(body);
    LowerTaskMappings pass(names);
    return pass.mutate(body);
}

}  // namespace hds::ir
