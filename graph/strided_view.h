// strided_view.h — a node that only picks elements of another tensor at an affine
// offset (a slice, a head split, a transpose of leading dimensions: GPT-2's
// `qkv.split(..).view(..).transpose(1, 2)`) and that only TMA copies read needs
// no kernel: its readers' tensor maps walk the source's memory with the view's
// strides (program.cpp records it as a strided view).
#pragma once

#include <optional>
#include <vector>

#include "graph/graph.h"

namespace hds::graph {

// Element (i0, .., in) of a view is element offset + sum(strides[d] * id) of its
// source in row-major order. Strides are in elements, one per dimension; the
// last is 1.
struct AffineForm {
    ir::Buffer source;
    ir::Expr offset;
    std::vector<ir::Expr> strides;
};

// `n`'s affine form where it is a single load of a buffer of its element type
// whose row-major offset is affine in n's axes, with unit stride along the last
// axis and the offset and every other stride provably a multiple of 16 bytes (a
// tensor map's requirements); else nothing.
std::optional<AffineForm> affine_form(const Node& n);

// Whether `body` reads `b` only as the source of TMA copies (and writes it never).
bool only_tma_reads(const ir::Stmt& body, const ir::Buffer& b);

}  // namespace hds::graph
