#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_skinny's
# element-wise staging one 256-row slice ahead in registers), the tree's (`new`: REG = 2 slices
# ahead) and the variants `r1` (REG = 1, as `old` but through the unrolled loop) and `r3` (REG = 3).
#   bench/results/2026-11-29-h200-skinny-registers/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init regs "${1:?REV}"
stdlib_set regs new >/dev/null
for r in 1 3; do
    d=$(stdlib_set regs r$r)
    stdlib_rule "$d/matmul_skinny.hds" 'REG: i32 = 2 in {1, 2, 3}' "REG: i32 = $r in {1, 2, 3}"
    stdlib_set_changed regs r$r
done
stdlib_sets_emit regs "old new r1 r3" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
