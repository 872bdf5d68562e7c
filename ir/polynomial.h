// polynomial.h — deciding that two integer index expressions are equal by
// expanding both into polynomials over their atoms (a row-major offset written
// two ways: `(i1 * 12 + i2 / 64) * 64 + i2 % 64` and `i1 * 768 + i2`).
#pragma once

#include "ir/ir.h"

namespace hds::ir {

// Whether integer expressions `a` and `b` provably have the same value: equal as
// polynomials with integer coefficients over their atoms (variables, and
// divisions, calls, casts and the like taken whole), where x % y counts as
// x - (x / y) * y (C's identity, any signs). False where that does not decide it.
bool same_value(const Expr& a, const Expr& b);

}  // namespace hds::ir
