#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the tree's stdlib (`new`: matmul_gemv /
# matmul_gemv_split up to M = 2 where K or N is not a multiple of 8, matmul_skinny's element-wise
# staging past it) and variants that give the SIMT decoding kernels more rows: `g4` (up to M = 4;
# gemv_split's blocks still take 2 rows each), `g4r4` (up to 4, gemv_split's blocks 4 rows each),
# `g8r4` (up to 8, 4 rows a block: b read twice).
#   bench/results/2026-11-29-h200-gemv-rows/build.sh
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init gemvrows HEAD
rm -rf /tmp/gemvrows-stdlib/old
stdlib_set gemvrows new >/dev/null
rules() {  # FILE M: the SIMT decoding schedules up to M rows
    stdlib_rule "$1" 'when M <= 2 && !(K % 8 == 0 && N % 8 == 0) && K >= 2048;' \
        "when M <= $2 && !(K % 8 == 0 && N % 8 == 0) && K >= 2048;"
    stdlib_rule "$1" 'matmul_gemv for f16, bf16 when M <= 2 &&' "matmul_gemv for f16, bf16 when M <= $2 &&"
}
rows4() {  # FILE: matmul_gemv_split's blocks take 4 rows of a
    stdlib_rule "$1" '(M + 1) / 2)' '(M + 3) / 4)'
    stdlib_rule "$1" 'let MR = 2;' 'let MR = 4;'
}
d=$(stdlib_set gemvrows g4) && rules "$d/nn.hds" 4
d=$(stdlib_set gemvrows g4r4) && rules "$d/nn.hds" 4 && rows4 "$d/matmul_gemv_split.hds"
d=$(stdlib_set gemvrows g8r4) && rules "$d/nn.hds" 8 && rows4 "$d/matmul_gemv_split.hds"
for s in g4 g4r4 g8r4; do stdlib_set_changed gemvrows $s; done
stdlib_sets_emit gemvrows "new g4 g4r4 g8r4" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
