#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# stdlib of REV (`old`: the session's start) and the tree's (`new`), both by this hdsc.
#   bench/results/2026-11-28-h200-session-final/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init final "${1:?REV}"
stdlib_set final new >/dev/null
stdlib_sets_emit final "old new" bench/sweep/sweep_gemm_f16.hds
