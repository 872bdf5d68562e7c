#!/usr/bin/env bash
# Emits the attention sweep graphs for run_split.py into .devcarry/decsplit/SET, with
# stdlib/ as committed before the split schedules (`old`, from git REV, default 1e1b0c4,
# the commit before them), as it is (`new`), and variants of it: SETS=... (default: old new s3 w2)
#   low    the split from 1025 keys instead of 4097
#   k1024  at least 1024 keys a block instead of 256
#   s3     three stages (one block per multiprocessor at heads of 64 too)
#   w2     twice the blocks (two waves)
#   bg16   from 16 key/value heads (times the batch) the split from 1025 keys
#   bash bench/results/2026-11-27-h200-decode-split/build.sh [REV]
# (The steps are bench/stdlib_sets.sh's; as it ran, they were written out here: the same files.)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
sets=${SETS:-old new s3 w2}
stdlib_sets_init decsplit "${1:-1e1b0c4}"
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set decsplit "$set")
    case $set in
    new) ;;
    low) sed -i 's/B \* G <= 32 \&\& M > 4096;/B * G <= 32 \&\& M > 1024;/' "$d/nn.hds" ;;
    k1024) sed -i 's|(M + 255) / 256|(M + 1023) / 1024|g' "$d/attention_decode_split.hds" ;;
    s3) sed -i 's/attention_decode_split<HD = \(64\|128\)> then/attention_decode_split<HD = \1, STAGES = 3> then/' "$d/nn.hds" ;;
    bg16) sed -i 's/B \* G <= 32 \&\& M > 4096;/B * G <= 32 \&\& (M > 4096 || B * G >= 16 \&\& M > 1024);/' "$d/nn.hds" ;;
    w2) sed -i 's/(HD == 64 \&\& STAGES == 2 ? 264 : 132)/(HD == 64 \&\& STAGES == 2 ? 528 : 264)/g' "$d/attention_decode_split.hds" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed decsplit "$set"
done
stdlib_sets_emit decsplit "$sets" "$root"/bench/sweep/sweep_attention_{gqa_d64,gqa_d128,d64_sm80,d128_sm80}.hds
