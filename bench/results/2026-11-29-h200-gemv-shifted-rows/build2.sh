#!/usr/bin/env bash
# Call 2, here before `run.sh 2`: the GEMM sweep graphs with the stdlib of REV (`old`: one
# matmul_gemv_shifted of 2 rows a block for M = 1, converting each value of b per row), the
# tree's (`new`: b converted once; blocks of 1 row for M = 1 and of 2 for M = 2, before
# matmul_skinny_shifted) and `nh` (the tree's schedules, REV's kernel).
#   bench/results/2026-11-29-h200-gemv-shifted-rows/build2.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init gsrows "${1:?REV}"
stdlib_set gsrows new >/dev/null
d=$(stdlib_set gsrows nh)
git show "$1:stdlib/matmul_gemv_shifted.hds" >"$d/matmul_gemv_shifted.hds"
stdlib_set_changed gsrows nh
stdlib_sets_emit gsrows "old new nh" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
