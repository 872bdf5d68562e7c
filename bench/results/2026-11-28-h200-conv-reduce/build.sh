#!/usr/bin/env bash
# Emits the convolutions of ../2026-11-27-h200-conv-split (3 x 3), ../2026-11-27-h200-conv1x1-split
# (1 x 1) and convs/ here (the stem) into .devcarry/convsplit/SET with stdlib/ as committed at
# REV (`old`, default c25ed15: before the change) and as it is in the tree (`new`), through
# ../2026-11-27-h200-conv-split/build.sh, and variants of `new` (below) through
# bench/stdlib_sets.sh (as it ran, those steps were written out here: the same files).
#   bash bench/results/2026-11-28-h200-conv-reduce/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
rev=${1:-c25ed15}
sets=${SETS:-old new s16}
# Variants of `new`:
#   h16  each halo value stored to shared memory by itself, not 8 as one 16-byte store: the
#        two-byte loads are then not packed into registers in the block that issues them
#        (ptxas waited there for the loads, before the tensor cores' work on the slice before)
#   s16  clusters of 16 (non-portable) where 8 of them hold the tiles and each block keeps one
#        slice or more (ResNet-18's 7 x 7 and 14 x 14 maps at batch 1: 128 blocks, not 64)
SETS="old new" bash "$root/bench/results/2026-11-27-h200-conv-split/build.sh" "$rev"
source "$root/bench/stdlib_sets.sh"
variants=""
for set in $sets; do
    [[ $set == old || $set == new ]] && continue
    variants="$variants $set"
    d=$(stdlib_set convsplit "$set")
    case $set in
    s16) python3 - "$d/conv2d_mma3x3.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
g = "N * ((P + 128 / TW - 1) / (128 / TW)) * ((Q + TW - 1) / TW) * ((O + M3_BO - 1) / M3_BO)"
a = f"({g} <= 15 && (C + BK - 1) / BK >= 8 ? 8"
b = "(groups <= 15 && slices >= 8 ? 8"
assert s.count(a) == 2 and s.count(b) == 1
s = s.replace(a, f"({g} <= 8 && (C + BK - 1) / BK >= 16 ? 16 : {g} <= 15 && (C + BK - 1) / BK >= 8 ? 8")
s = s.replace(b, "(groups <= 8 && slices >= 16 ? 16 : groups <= 15 && slices >= 8 ? 8")
assert s.count("parts: register f32[8]") == 1 and s.count("for d in 0..8") == 1 and s.count("for d in 1..8") == 1
s = s.replace("parts: register f32[8]", "parts: register f32[16]").replace("for d in 0..8", "for d in 0..16").replace("for d in 1..8", "for d in 1..16")
open(p, 'w').write(s)
PY
        ;;
    h16) python3 - "$d/conv2d_mma3x3.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a = "copy_16(hx[st, u % HP, u / HP * 8], rh[i, 0]);"
assert s.count(a) == 1
s = s.replace(a, "@unroll for e in 0..8 {\n                        hx[st, u % HP, u / HP * 8 + e] = rh[i, e];\n                    }")
open(p, 'w').write(s)
PY
        ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed convsplit "$set"
    cp -r "$d" "$root/.devcarry/convsplit/$set-stdlib"
done
res=$root/bench/results
[[ -z $variants ]] || stdlib_sets_emit convsplit "$variants" "$res"/2026-11-27-h200-conv-split/convs/*.hds >/dev/null
stdlib_sets_emit convsplit "$sets" "$res"/2026-11-27-h200-conv1x1-split/convs/*.hds "$res"/2026-11-28-h200-conv-reduce/convs/*.hds
