#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_skinny reading
# b's unaligned rows element by element), the tree's (`new`: in the aligned 16-byte chunks that
# hold them), and variants of the new one: `st6` (6 stages), `m12` (matmul_skinny for M <= 2 too,
# not matmul_gemv / matmul_gemv_split).
#   bench/results/2026-11-28-h200-skinny-unaligned/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init skinny "${1:?REV}"
stdlib_set skinny new >/dev/null
d=$(stdlib_set skinny st6)
stdlib_rule "$d/nn.hds" 'schedule skinny = matmul_skinny for f16, bf16 when M <= 16;' \
    'schedule skinny = matmul_skinny<STAGES = 6> for f16, bf16 when M <= 16;'
d=$(stdlib_set skinny m12)
stdlib_rule "$d/nn.hds" 'when M <= 2 && !(K % 8 == 0 && N % 8 == 0) && K >= 2048;' 'when M < 0;'
stdlib_rule "$d/nn.hds" 'matmul_gemv for f16, bf16 when M <= 2 && !(K % 8 == 0 && N % 8 == 0);' \
    'matmul_gemv for f16, bf16 when M < 0;'
for s in st6 m12; do stdlib_set_changed skinny $s; done
stdlib_sets_emit skinny "old new st6 m12" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
