#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`) and variants of
# matmul_gemv_split (M <= 2 where K or N is odd, K >= 2048; 1024 threads, 64 registers: one
# block a multiprocessor, 132 blocks up to 66 strips of 128 columns):
#   u4    4 rows of b a lane per step (U = 4) instead of 8
#   m2    two blocks a multiprocessor (min_blocks_per_sm(2): 32 registers) and 264 blocks
#   u4m2  both
#   bench/results/2026-11-28-h200-gemv-split-blocks/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init gemv "${1:?REV}"
two_blocks() {  # every split rule of matmul_gemv_split.hds: 264 blocks; two of 1024 threads a multiprocessor
    python3 - "$1/matmul_gemv_split.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a, b = "> 66 ? 264 : 132)", "> 0 ? 264 : 132)"
assert s.count(a) == 3 and s.count("    block(1024)\n{") == 1
open(p, "w").write(s.replace(a, b).replace("    block(1024)\n{", "    block(1024) min_blocks_per_sm(2)\n{"))
PY
}
rule='schedule gemv_split = matmul_gemv_split then'
d=$(stdlib_set gemv u4)
stdlib_rule "$d/nn.hds" "$rule" 'schedule gemv_split = matmul_gemv_split<U = 4> then'
d=$(stdlib_set gemv m2)
two_blocks "$d"
d=$(stdlib_set gemv u4m2)
two_blocks "$d"
stdlib_rule "$d/nn.hds" "$rule" 'schedule gemv_split = matmul_gemv_split<U = 4> then'
for s in u4 m2 u4m2; do stdlib_set_changed gemv $s; done
stdlib_sets_emit gemv "old u4 m2 u4m2" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
