// decisions.cpp — the values a graph build gives conditions on symbolic sizes.
#include "graph/decisions.h"

#include "ir/ir_printer.h"

namespace hds::graph {

bool Decisions::decide(const Condition& c) {
    std::string text = ir::to_string(c.expr);
    for (const Made& m : made_)
        if (m.text == text) return m.value;
    bool value = made_.size() < forced_.size() ? forced_[made_.size()] : true;
    made_.push_back({c, text, value});
    return value;
}

std::vector<Condition> Decisions::taken() const {
    std::vector<Condition> out;
    for (const Made& m : made_)
        if (m.value) out.push_back(m.condition);
    return out;
}

std::optional<std::vector<bool>> Decisions::next() const {
    for (size_t i = made_.size(); i-- > 0;) {
        if (!made_[i].value) continue;
        std::vector<bool> forced;
        for (size_t j = 0; j < i; ++j) forced.push_back(made_[j].value);
        forced.push_back(false);
        return forced;
    }
    return std::nullopt;
}

}  // namespace hds::graph
