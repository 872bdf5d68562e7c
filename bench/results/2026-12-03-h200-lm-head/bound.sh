#!/usr/bin/env bash
# A second A/B (README, `bound/`): the bound of b's elements under which the shifted kernels give way
# below K = 2048: 2^23 as committed at REV (`old`), 2^22 (`b22`), 2^21 (`b21`), into .devcarry/lmhead.
#   bash bench/results/2026-12-03-h200-lm-head/bound.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init lmhead "$1"
for e in 22 21; do
    d=$(stdlib_set lmhead "b$e" old)
    sed -i "s/K \* N >= 8388608);/K * N >= $((1 << e)));/" "$d/nn.hds"
    [[ $(grep -c "K \* N >= $((1 << e)));" "$d/nn.hds") == 3 ]]
done
stdlib_sets_emit lmhead "old b22 b21" "$root"/bench/sweep/sweep_gemm_f16.hds
