#!/usr/bin/env bash
# Emits the sweep's decoding graphs for run.py into .devcarry/dectma/SET: stdlib/ as committed at
# REV (`old`: attention_decode_split copying its tiles by cp.async, two stages), as it is in the
# tree (`new`: on sm_90a by TMA, three stages), and `t2` (TMA, two stages).
#   bash bench/results/2026-12-02-h200-decode-tma/build.sh REV
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
sets="old new t2"
stdlib_sets_init dectma "$1"
for set in new t2; do
    d=$(stdlib_set dectma "$set")
    [[ $set == t2 ]] && sed -i 's/STAGES = 3, TMA = 1>/STAGES = 2, TMA = 1>/' "$d/nn.hds"
    stdlib_set_changed dectma "$set"
done
stdlib_sets_emit dectma "$sets" "$root"/bench/sweep/sweep_attention_{gqa_d64,gqa_d128,d64_sm80,d128_sm80}.hds
