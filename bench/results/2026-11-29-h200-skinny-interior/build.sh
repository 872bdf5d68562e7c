#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_skinny's
# element-wise staging clamping every read and selecting every store) and the tree's (`new`:
# slices inside K and strips inside N without them).
#   bench/results/2026-11-29-h200-skinny-interior/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init interior "${1:?REV}"
stdlib_set interior new >/dev/null
stdlib_sets_emit interior "old new" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
