#!/usr/bin/env bash
# A third A/B (README, `k1536/`): the shifted kernels from K = 1536 whatever b's size (`k1536`)
# against REV's bounds (`old`), into .devcarry/lmhead.
#   bash bench/results/2026-12-03-h200-lm-head/k1536.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init lmhead "$1"
d=$(stdlib_set lmhead k1536 old)
sed -i "s/(K >= 2048 || K \* N/(K >= 1536 || K * N/" "$d/nn.hds"
[[ $(grep -c "(K >= 1536 || K \* N" "$d/nn.hds") == 3 ]]
stdlib_sets_emit lmhead "old k1536" "$root"/bench/sweep/sweep_gemm_f16.hds
