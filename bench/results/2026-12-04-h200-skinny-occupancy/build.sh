#!/usr/bin/env bash
# Emits the f16 and bf16 GEMM sweep graphs (every size symbolic) for
# ../2026-11-28-h200-skinny-unaligned/run.py --tag occ into .devcarry/occ/SET: stdlib/ as committed
# at REV (`old`: matmul_skinny_shifted three stages, one block a multiprocessor), as it is in the
# tree (`new`: two stages, two blocks a multiprocessor, the warps' sums added in one buffer) and
# `occ1` (the tree's kernel three stages deep, one block a multiprocessor).
#   bash bench/results/2026-12-04-h200-skinny-occupancy/build.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init occ "$1"
stdlib_set occ new >/dev/null
d=$(stdlib_set occ occ1)
stdlib_rule "$d/nn.hds" "matmul_skinny_shifted<STAGES = 2, OCC = 2>" "matmul_skinny_shifted<STAGES = 3, OCC = 1>"
stdlib_sets_emit occ "old new occ1" "$root"/bench/sweep/sweep_gemm_{f16,bf16}.hds
