// task_mapping.h — task mappings (Hidet's spatial/repeat and composition) as
// compile-time values: shapes, worker counts and the worker -> task relation.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hds {

// One factor of a composed mapping.
struct MappingAtom {
    enum class Kind { Spatial, Repeat } kind;
    std::vector<int64_t> shape;
    // Enumeration order: ranks[d] is the rank of dimension d; the dimension
    // with the highest rank varies fastest. Row-major is 0, 1, ..., n-1.
    std::vector<int> ranks;

    int64_t workers() const;
    int64_t tasks() const;
};

// A composition A1 * A2 * ... * Ak (k >= 1), all atoms of the same rank.
struct TaskMapping {
    std::vector<MappingAtom> atoms;

    size_t rank() const { return atoms.empty() ? 0 : atoms.front().shape.size(); }
    int64_t workers() const;
    std::vector<int64_t> task_shape() const;
    // "spatial(16, 16) * repeat(4, 4)"
    std::string to_string() const;
    // Reference semantics (used by tests and the constant evaluator): the tasks
    // of worker `w`, in enumeration order.
    std::vector<std::vector<int64_t>> tasks_of(int64_t w) const;

    static MappingAtom make_atom(MappingAtom::Kind kind, std::vector<int64_t> shape, bool column_major);
    static TaskMapping compose(const TaskMapping& outer, const TaskMapping& inner);
    // repeat(...) * spatial(...) such that consecutive workers take consecutive
    // tasks of the innermost dimension. Returns false when `workers` does not
    // divide the task grid that way.
    static bool auto_map(const std::vector<int64_t>& shape, int64_t workers, TaskMapping* out);
};

// Row-major ranks 0..n-1 or column-major n-1..0; dimensions in order of
// increasing rank (outermost loop first).
std::vector<int> loop_order(const std::vector<int>& ranks);

}  // namespace hds
