#!/usr/bin/env bash
# Emits the sweep's decoding graphs for run.py (bench/results/2026-12-02-h200-decode-tma/run.py
# --tag decbal) into .devcarry/decbal/SET: stdlib/ as committed at REV (`old`: `split` blocks a
# key/value head) and with balanced.patch applied to it (`new`: every head's tiles in equal runs
# over the blocks, a run meeting up to two heads; dropped, README).
#   bash bench/results/2026-12-03-h200-decode-balanced/build.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
here=$root/bench/results/2026-12-03-h200-decode-balanced
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init decbal "$1"
d=$(stdlib_set decbal new old)
(cd "$d" && sed -n '/^diff --git a\/stdlib/,/^diff --git a\/tests/p' "$here/balanced.patch" | sed '$d' | patch -s -p2)
stdlib_set_changed decbal new
stdlib_sets_emit decbal "old new" "$root"/bench/sweep/sweep_attention_{gqa_d64,gqa_d128,d64_sm80,d128_sm80}.hds
