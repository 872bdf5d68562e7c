#!/usr/bin/env bash
# Emits the sm_80 attention sweep graphs for run.py into .devcarry/rows32/SET: `old` with
# stdlib/ as at REV (default 0b8af44: a warp owns 16 query rows), `new` with stdlib/ as it is,
# and variants of heads of 128 (SETS=..., default: old new):
#   d64mt2  heads of 64 with two row tiles a warp too (`first/` ran it as `new`)
#   bk32    two row tiles a warp, tiles of 32 keys (`first/` ran it as `new`, `second/` as `new`
#           without min_blocks_per_sm)
#   w8      two row tiles a warp, 8 warps, tiles of 32 keys
#   bash bench/results/2026-11-27-h200-sm80-rows32/build.sh [REV]
# (The steps are bench/stdlib_sets.sh's; as it ran, they were written out here: the same files.)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
sets=${SETS:-old new}
stdlib_sets_init rows32 "${1:-0b8af44}"
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set rows32 "$set")
    case $set in
    new) ;;
    d64mt2) sed -i 's/schedule flash_mma = attention_mma for/schedule flash_mma = attention_mma<MT = 2> for/' "$d/nn.hds" ;;
    bk32) sed -i 's/attention_mma<HD = 128, BK = 64, MT = 2>/attention_mma<HD = 128, BK = 32, MT = 2>/' "$d/nn.hds" ;;
    w8) sed -i 's/attention_mma<HD = 128, BK = 64, MT = 2>/attention_mma<HD = 128, BK = 32, MT = 2, WARPS = 8>/' "$d/nn.hds" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed rows32 "$set"
done
stdlib_sets_emit rows32 "$sets" "$root"/bench/sweep/sweep_attention_{d64_sm80,d128_sm80}.hds
