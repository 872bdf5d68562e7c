// graph_printer.cpp — text and Graphviz forms of a graph.
#include "graph/graph_printer.h"

#include "graph/shapes.h"
#include "ir/ir_printer.h"

namespace hds::graph {

namespace {

std::string type_of(const ir::Buffer& b) {
    return std::string(scalar_name(b->elem)) + shape_str(b->shape);
}

std::string axes_of(const Compute& c) {
    std::string s;
    for (size_t d = 0; d < c.axes.size(); ++d) s += (d ? ", " : "") + c.axes[d]->name;
    return s;
}

}  // namespace

void print_graph(const Graph& g, std::ostream& os) {
    os << "graph " << g.name << "\n";
    for (const Node* n : g.live()) {
        os << "  " << n->buffer->name << ": " << type_of(n->buffer) << " = ";
        switch (n->kind) {
            case Node::Kind::Input:
                os << "input\n";
                break;
            case Node::Kind::Constant:
                os << "constant " << ir::to_string(n->constant) << "\n";
                break;
            case Node::Kind::Anchor:
                os << n->ops << " (schedule kernel)\n";
                break;
            case Node::Kind::RowGroup: {
                os << n->ops << " rows {";
                for (size_t i = 0; i < n->row_reductions.size(); ++i)
                    os << (i ? ", " : "") << n->row_reductions[i].first->name;
                os << "} [" << axes_of(n->compute) << "] " << ir::to_string(n->compute.value) << "\n";
                break;
            }
            case Node::Kind::Compute: {
                const Compute& c = n->compute;
                os << n->ops << " [" << axes_of(c) << "]";
                if (c.reduction) {
                    const Reduction& r = *c.reduction;
                    os << " " << reduce_name(r.kind) << "(";
                    for (size_t i = 0; i < r.vars.size(); ++i)
                        os << (i ? ", " : "") << r.vars[i]->name << " in " << ir::to_string(r.lo[i]) << ".."
                           << ir::to_string(r.hi[i]);
                    os << ") " << ir::to_string(r.body) << " -> " << r.acc->name << ";";
                }
                os << " " << ir::to_string(c.value) << "\n";
                break;
            }
        }
    }
    if (g.output) os << "  return " << g.output->buffer->name << "\n";
}

void print_dot(const Graph& g, std::ostream& os) {
    os << "digraph \"" << g.name << "\" {\n  rankdir=TB;\n  node [shape=box, fontname=\"monospace\"];\n";
    for (const Node* n : g.live()) {
        if (n->kind == Node::Kind::Constant) continue;
        const char* style = n->kind == Node::Kind::Input ? ", style=dashed" : "";
        os << "  \"" << n->buffer->name << "\" [label=\"" << n->buffer->name << "\\n"
           << n->ops << "\\n"
           << type_of(n->buffer) << "\"" << style << "];\n";
        for (const ir::Buffer& r : reads(*n)) os << "  \"" << r->name << "\" -> \"" << n->buffer->name << "\";\n";
    }
    os << "}\n";
}

}  // namespace hds::graph
