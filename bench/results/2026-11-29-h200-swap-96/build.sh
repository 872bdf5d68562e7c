#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# tree's stdlib (`new`: the swapped product for 129-192 rows only at 40-66 tiles of 64 columns) and
# `w132`, where swap144 ... swap192 take up to 132 tiles (a block per tile: N = 6144's 96).
#   bench/results/2026-11-29-h200-swap-96/build.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init wide96 HEAD
rm -rf /tmp/wide96-stdlib/old
stdlib_set wide96 new >/dev/null
d=$(stdlib_set wide96 w132)
for m in "128 && M <= 144" "144 && M <= 160" "160 && M <= 176" "176 && M <= 192"; do
    stdlib_rule "$d/nn.hds" "when M > $m && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304
             && (N + 63) / 64 >= 40 && (N + 63) / 64 <= 66;" "when M > $m && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304
             && (N + 63) / 64 >= 40 && (N + 63) / 64 <= 132;"
done
stdlib_set_changed wide96 w132
stdlib_sets_emit wide96 "new w132" bench/sweep/sweep_gemm_f16.hds
