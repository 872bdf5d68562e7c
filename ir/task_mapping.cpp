// task_mapping.cpp — reference semantics of task mappings.
#include "ir/task_mapping.h"

#include <fmt/format.h>
#include <algorithm>
#include <numeric>

namespace hds {

namespace {
int64_t product(const std::vector<int64_t>& v) {
    return std::accumulate(v.begin(), v.end(), int64_t{1}, std::multiplies<>());
}
}  // namespace

int64_t MappingAtom::workers() const {
    return kind == Kind::Spatial ? product(shape) : 1;
}
int64_t MappingAtom::tasks() const {
    return product(shape);
}

int64_t TaskMapping::workers() const {
    int64_t w = 1;
    for (const MappingAtom& a : atoms) w *= a.workers();
    return w;
}

std::vector<int64_t> TaskMapping::task_shape() const {
    std::vector<int64_t> s(rank(), 1);
    for (const MappingAtom& a : atoms)
        for (size_t d = 0; d < s.size(); ++d) s[d] *= a.shape[d];
    return s;
}

std::vector<int> loop_order(const std::vector<int>& ranks) {
    std::vector<int> order(ranks.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return ranks[a] < ranks[b]; });
    return order;
}

std::string TaskMapping::to_string() const {
    std::vector<std::string> parts;
    for (const MappingAtom& a : atoms) {
        bool column = a.ranks.size() > 1 && a.ranks.front() > a.ranks.back();
        std::string name = a.kind == MappingAtom::Kind::Spatial ? "spatial" : "repeat";
        if (column) name = "column_" + name;
        parts.push_back(fmt::format("{}({})", name, fmt::join(a.shape, ", ")));
    }
    return fmt::format("{}", fmt::join(parts, " * "));
}

MappingAtom TaskMapping::make_atom(MappingAtom::Kind kind, std::vector<int64_t> shape, bool column_major) {
    std::vector<int> ranks(shape.size());
    for (size_t d = 0; d < shape.size(); ++d)
        ranks[d] = column_major ? static_cast<int>(shape.size() - 1 - d) : static_cast<int>(d);
    return MappingAtom{kind, std::move(shape), std::move(ranks)};
}

TaskMapping TaskMapping::compose(const TaskMapping& outer, const TaskMapping& inner) {
    TaskMapping m = outer;
    m.atoms.insert(m.atoms.end(), inner.atoms.begin(), inner.atoms.end());
    return m;
}

bool TaskMapping::auto_map(const std::vector<int64_t>& shape, int64_t workers, TaskMapping* out) {
    std::vector<int64_t> spatial(shape.size()), repeat(shape.size());
    int64_t left = workers;
    for (size_t i = shape.size(); i-- > 0;) {
        spatial[i] = std::gcd(shape[i], left);
        repeat[i] = shape[i] / spatial[i];
        left /= spatial[i];
    }
    if (left != 1) return false;
    out->atoms = {make_atom(MappingAtom::Kind::Repeat, repeat, false),
                  make_atom(MappingAtom::Kind::Spatial, spatial, false)};
    return true;
}

std::vector<std::vector<int64_t>> TaskMapping::tasks_of(int64_t w) const {
    // Split the worker id: the last atom gets w % its workers, and so on outward.
    std::vector<int64_t> worker_of(atoms.size());
    for (size_t i = atoms.size(); i-- > 0;) {
        worker_of[i] = w % atoms[i].workers();
        w /= atoms[i].workers();
    }
    std::vector<std::vector<int64_t>> tasks = {std::vector<int64_t>(rank(), 0)};
    for (size_t i = 0; i < atoms.size(); ++i) {
        const MappingAtom& a = atoms[i];
        // The atom's own tasks for its worker, in enumeration order.
        std::vector<std::vector<int64_t>> local;
        std::vector<int> order = loop_order(a.ranks);
        if (a.kind == MappingAtom::Kind::Spatial) {
            std::vector<int64_t> t(rank());
            int64_t rest = worker_of[i];
            for (size_t k = order.size(); k-- > 0;) {
                t[order[k]] = rest % a.shape[order[k]];
                rest /= a.shape[order[k]];
            }
            local.push_back(t);
        } else {
            for (int64_t n = 0; n < a.tasks(); ++n) {
                std::vector<int64_t> t(rank());
                int64_t rest = n;
                for (size_t k = order.size(); k-- > 0;) {
                    t[order[k]] = rest % a.shape[order[k]];
                    rest /= a.shape[order[k]];
                }
                local.push_back(t);
            }
        }
        std::vector<std::vector<int64_t>> next;
        for (const auto& outer : tasks)
            for (const auto& in : local) {
                std::vector<int64_t> t(rank());
                for (size_t d = 0; d < t.size(); ++d) t[d] = outer[d] * a.shape[d] + in[d];
                next.push_back(t);
            }
        tasks = std::move(next);
    }
    return tasks;
}

}  // namespace hds
