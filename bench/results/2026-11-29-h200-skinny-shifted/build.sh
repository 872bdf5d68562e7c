#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_skinny's
# element-wise staging where b's rows are not 16-byte multiples, the GEMV kernels up to M = 3), the
# tree's with matmul_skinny_shifted for every M <= 16 there from K = 8, before the GEMV kernels
# (`new`: as call 6 ran it; the tree's runs it from M = 2 and K = 2048) and that with 4 stages
# (`s4`: too much shared memory for sm_80).
#   bench/results/2026-11-29-h200-skinny-shifted/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init shifted "${1:?REV}"
wide() {  # FILE: matmul_skinny_shifted for every M <= 16 from K = 8
    stdlib_rule "$1" 'when M <= 16 && M >= 2 && !(K % 8 == 0 && N % 8 == 0) && N >= 136 && K >= 2048;' \
        'when M <= 16 && !(K % 8 == 0 && N % 8 == 0) && N >= 136 && K >= 8;'
}
d=$(stdlib_set shifted new) && wide "$d/nn.hds"
d=$(stdlib_set shifted s4) && wide "$d/nn.hds"
stdlib_rule "$d/matmul_skinny_shifted.hds" 'STAGES: i32 = 3 in {3, 4}' 'STAGES: i32 = 4 in {3, 4}'
for s in s4; do stdlib_set_changed shifted $s; done
stdlib_sets_emit shifted "old new s4" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
