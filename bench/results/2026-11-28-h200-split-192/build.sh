#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM and Llama MLP sweep graphs (every size
# symbolic) with the stdlib of REV (`old`) and variants that split K for 129-192 rows against a
# long K where the tiles chosen leave multiprocessors idle (M = 192, N = 4096: 96 tiles of 64 x 128
# on 132):
#   t64   64 x 192 tiles, K split over clusters (at most 66 tiles: 132 blocks at N = 4096)
#   t128  128 x 128 tiles, K split over clusters (at most 66 tiles: 128 blocks)
#   bench/results/2026-11-28-h200-split-192/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init s192 "${1:?REV}"
anchor='    schedule wgmma64x192 = matmul_wgmma<BM = 64, BN = 192, CTAS = 132, STAGES = 6> for f16, bf16'
d=$(stdlib_set s192 t64)
stdlib_rule "$d/nn.hds" "$anchor" "    schedule split64x192 = matmul_wgmma<BM = 64, BN = 192, CTAS = 132, STAGES = 6, SPLITK = 8> for f16, bf16
        when M > 128 && M <= 192 && (M + 63) / 64 * ((N + 191) / 192) <= 66 && K >= 4096;
$anchor"
d=$(stdlib_set s192 t128)
stdlib_rule "$d/nn.hds" "$anchor" "    schedule split128 = matmul_wgmma<BM = 128, BN = 128, CTAS = 132, SPLITK = 8> for f16, bf16
        when M > 128 && M <= 192 && (M + 127) / 128 * ((N + 127) / 128) <= 66 && K >= 4096;
$anchor"
for s in t64 t128; do stdlib_set_changed s192 $s; done
stdlib_sets_emit s192 "old t64 t128" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_llama_mlp.hds
