#!/usr/bin/env bash
# The fourth A/B (README, `call5/`): skinny_shifted2's rows of b 288 bytes apart (`pad16`: 99840
# bytes, under the 99 KiB of an sm_86/89 block; ldmatrix two-way bank conflicts) against 304 (the
# tree, `new`: 103936 bytes), into .devcarry/occ/SET.
#   bash bench/results/2026-12-04-h200-skinny-occupancy/build4.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init occ HEAD
stdlib_set occ new >/dev/null
d=$(stdlib_set occ pad16)
stdlib_rule "$d/matmul_skinny_shifted.hds" "var sb: shared T[STAGES, BK, GS_COLS + 24];" \
    "var sb: shared T[STAGES, BK, GS_COLS + (OCC == 2 ? 16 : 24)];"
stdlib_sets_emit occ "new pad16" "$root"/bench/sweep/sweep_gemm_f16.hds
grep -h "skinny_shifted2_k0_matmul, cudaFuncAttributeMaxDynamicSharedMemorySize" "$root"/.devcarry/occ/*/sweep_gemm_f16.cu
