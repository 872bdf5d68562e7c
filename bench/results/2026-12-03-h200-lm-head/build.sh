#!/usr/bin/env bash
# Emits the GEMM sweep's graphs (every size symbolic) for ../2026-11-28-h200-skinny-unaligned/run.py
# --tag lmhead into .devcarry/lmhead/SET: stdlib/ as committed at REV (`old`) and as it is in the
# tree (`new`: call/ ran REV bdd1c47 against the tree of 97a46ea, the kernels for b's rows that are
# not 16-byte multiples below K = 2048 where b has 2^23 elements).
#   bash bench/results/2026-12-03-h200-lm-head/build.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init lmhead "$1"
stdlib_set lmhead new >/dev/null
stdlib_sets_emit lmhead "old new" "$root"/bench/sweep/sweep_gemm_{f16,bf16,f16_default}.hds
