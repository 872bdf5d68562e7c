#!/usr/bin/env bash
# Emits the sm_80 attention sweep graphs for run.py into .devcarry/rows32/SET: `old` with
# stdlib/ as at REV (default 0b8af44: a warp owns 16 query rows), `new` with stdlib/ as it is,
# and variants of heads of 128 (SETS=..., default: old new):
#   d64mt2  heads of 64 with two row tiles a warp too (`first/` ran it as `new`)
#   bk32    two row tiles a warp, tiles of 32 keys (`first/` ran it as `new`, `second/` as `new`
#           without min_blocks_per_sm)
#   w8      two row tiles a warp, 8 warps, tiles of 32 keys
#   bash bench/results/2026-11-27-h200-sm80-rows32/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
rev=${1:-0b8af44}
out=$root/.devcarry/rows32
sets=${SETS:-old new}
rm -rf "$out" /tmp/rows32-stdlib
mkdir -p /tmp/rows32-stdlib/old
git -C "$root" archive "$rev" stdlib | tar -x -C /tmp/rows32-stdlib/old --strip-components=1
for set in $sets; do
    mkdir -p "$out/$set"
    [[ $set == old ]] && continue
    d=/tmp/rows32-stdlib/$set
    mkdir -p "$d"
    cp "$root"/stdlib/*.hds "$d/"
    case $set in
    new) ;;
    d64mt2) sed -i 's/schedule flash_mma = attention_mma for/schedule flash_mma = attention_mma<MT = 2> for/' "$d/nn.hds" ;;
    bk32) sed -i 's/attention_mma<HD = 128, BK = 64, MT = 2>/attention_mma<HD = 128, BK = 32, MT = 2>/' "$d/nn.hds" ;;
    w8) sed -i 's/attention_mma<HD = 128, BK = 64, MT = 2>/attention_mma<HD = 128, BK = 32, MT = 2, WARPS = 8>/' "$d/nn.hds" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    [[ $set == new ]] || ! diff -q "$d/nn.hds" "$root/stdlib/nn.hds" >/dev/null || { echo "set $set changed nothing" >&2; exit 1; }
done
for g in d64_sm80 d128_sm80; do
    for set in $sets; do
        "$root/build/hdsc" "$root/bench/sweep/sweep_attention_$g.hds" -I /tmp/rows32-stdlib/$set \
            -o "$out/$set/sweep_attention_$g.cu"
    done
done
echo "$sets" >"$out/sets"
ls "$out"
