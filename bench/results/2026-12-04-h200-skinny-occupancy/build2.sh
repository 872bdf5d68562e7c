#!/usr/bin/env bash
# The second A/B (README, `call3/`): the tree's matmul_skinny_shifted (`new`: three stages, one block
# a multiprocessor, the warps' sums added two at a time) against the same kernel two stages deep at
# two blocks a multiprocessor (`occ2`), into .devcarry/occ/SET.
#   bash bench/results/2026-12-04-h200-skinny-occupancy/build2.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init occ HEAD
stdlib_set occ new >/dev/null
d=$(stdlib_set occ occ2)
stdlib_rule "$d/nn.hds" "schedule skinny_shifted = matmul_skinny_shifted then" \
    "schedule skinny_shifted = matmul_skinny_shifted<STAGES = 2, OCC = 2> then"
stdlib_sets_emit occ "new occ2" "$root"/bench/sweep/sweep_gemm_f16.hds
