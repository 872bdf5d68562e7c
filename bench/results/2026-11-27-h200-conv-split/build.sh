#!/usr/bin/env bash
# Emits convs/*.hds into .devcarry/convsplit/SET with stdlib/ as committed at REV (`old`, default
# d2ca23b: before the change), as it is in the tree (`new`), and variants of `old`:
# SETS=... (default: old s1 new)
#   s1   conv2d_mma3x3's split over a cluster down to one channel slice a block (8 from 8
#        slices, 4 from 4, 2 from 2), not two (from 16, 8, 4); at most 132 blocks as before
#   bk32 (`new` with) slices of 32 channels for the small images (14 x 14 and 7 x 7:
#        mma3x3_split16), not 16
#   bash bench/results/2026-11-27-h200-conv-split/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
here=${HERE:-$root/bench/results/2026-11-27-h200-conv-split}  # (the convs/ of another folder: HERE)
rev=${1:-d2ca23b}
out=$root/.devcarry/convsplit
rm -rf "$out" /tmp/convsplit-stdlib
sets=${SETS:-old s1 new}
for set in $sets; do
    d=/tmp/convsplit-stdlib/$set
    mkdir -p "$out/$set" "$d"
    if [[ $set == new || $set == bk32 ]]; then
        cp "$root"/stdlib/*.hds "$d/"
    else
        git -C "$root" archive "$rev" stdlib | tar -x -C "$d" --strip-components=1
    fi
    case $set in
    old | new) ;;
    bk32) sed -i 's/conv2d_mma3x3<TW = 16, SPLIT = 8>/conv2d_mma3x3<TW = 16, BK = 32, SPLIT = 8>/' "$d/nn.hds"
          ! diff -q "$d/nn.hds" "$root/stdlib/nn.hds" >/dev/null || { echo "bk32 changed nothing" >&2; exit 1; } ;;
    s1) python3 - "$d/conv2d_mma3x3.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
n = s.count('>= 16 ? 8') + s.count('>= 8 ? 4') + s.count('>= 4 ? 2')
s = s.replace('>= 16 ? 8', '>= #8 ? 8').replace('>= 8 ? 4', '>= #4 ? 4').replace('>= 4 ? 2', '>= #2 ? 2').replace('#', '')
assert n == 9, n
open(p, 'w').write(s)
PY
        ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
done
for f in "$here"/convs/*.hds; do
    for set in $sets; do
        "$root/build/hdsc" "$f" -I /tmp/convsplit-stdlib/$set -o "$out/$set/$(basename "$f" .hds).cu" &
    done
done
wait
echo "$sets" >"$out/sets"
# The stdlib before the change, for run.sh's models.
mkdir -p "$out/old-stdlib"
git -C "$root" archive "$rev" stdlib | tar -x -C "$out/old-stdlib" --strip-components=1
