#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16/bf16 GEMM sweep graphs (every size symbolic) with
# the stdlib of REV (`old`), the tree's (`new`), and variants for decoding GEMMs (M <= 16) against
# weights past K = 4096 with at most 66 tiles of 64 columns, where matmul_wgmma_swap splits K over
# clusters of 2 and one block a multiprocessor keeps 6 slices in flight:
#   s4    K split over clusters of 4 from 40 tiles (256 blocks at N = 4096: two a multiprocessor)
#   d8    swap16 with one consumer warp group alone and 8 stages (1 block a multiprocessor)
#   s4d8  both: two blocks of 8 stages a multiprocessor
#   bench/results/2026-11-28-h200-decode-gemm-split/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init dgemm "${1:?REV}"
stdlib_set dgemm new >/dev/null
split4() {  # every split rule of matmul_wgmma_swap.hds: 4 blocks where it took 2 (40 to 66 tiles)
    python3 - "$1/matmul_wgmma_swap.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a, b = "<= 39 ? 3\n                                    : 2))", "<= 39 ? 3\n                                    : 4))"
c, d = "tiles64 <= 39 ? 3 : 2))", "tiles64 <= 39 ? 3 : 4))"
assert s.count(a) == 2 and s.count(c) == 1
open(p, "w").write(s.replace(a, b).replace(c, d))
PY
}
rule='schedule swap16 = matmul_wgmma_swap<BMS = 16, SPLITK = 8> for f16, bf16'
d=$(stdlib_set dgemm s4)
split4 "$d"
d=$(stdlib_set dgemm d8)
stdlib_rule "$d/nn.hds" "$rule" 'schedule swap16 = matmul_wgmma_swap<BMS = 16, WGS = 1, STAGES = 8, SPLITK = 8> for f16, bf16'
d=$(stdlib_set dgemm s4d8)
split4 "$d"
stdlib_rule "$d/nn.hds" "$rule" 'schedule swap16 = matmul_wgmma_swap<BMS = 16, WGS = 1, STAGES = 8, SPLITK = 8> for f16, bf16'
for s in s4 d8 s4d8; do stdlib_set_changed dgemm $s; done
stdlib_sets_emit dgemm "old new s4 d8 s4d8" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds
