#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# stdlib of REV (`old`: 129-192 rows at 67-132 tiles of 64 columns on 64 x 192, 64 x 128 or
# 128 x 128 tiles by the wave model) and the tree's (`new`: the swapped product there, a block per
# tile of 144, 160, 176 or 192 rows by 64 columns, one consumer).
#   bench/results/2026-11-29-h200-swap-one-192/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init swapone "${1:?REV}"
stdlib_set swapone new >/dev/null
stdlib_sets_emit swapone "old new" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_llama_mlp.hds
