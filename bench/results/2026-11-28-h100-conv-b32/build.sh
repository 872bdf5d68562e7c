#!/usr/bin/env bash
# ResNet-18's convolutions at batch 32 (the shapes of ../2026-11-27-h200-conv-split, the 1 x 1
# shortcuts and the stem, ReLU after each; the 3 x 3 ones also at batch 1, NAME_b1), written into
# .devcarry/convb32/convs/ and emitted with stdlib/ as committed at REV (`old`, default HEAD), as
# it is in the tree (`new`) and variants of the tree's (bench/stdlib_sets.sh):
#   bk32  conv2d_mma3x3's unsplit schedules with slices of 32 channels, not 16
#   tw16  mma3x3 with tiles of 8 x 16 pixels everywhere (not 4 x 32 above 16 columns)
#   tw64  mma3x3 with tiles of 2 x 64 pixels above 16 columns
#   flat  conv2d_mma (the pixels of all images as one axis, im2col gathered per tap) for every
#         3 x 3 convolution past batch 4, not conv2d_mma3x3 (tiles of one image's pixels)
#   s16out  the split's tiles of 8 x 16 pixels where the output (not the input) is at most 16 wide
# Call 1 ran SETS="old bk32 tw16 tw64 flat" at 0227845 (the tree then had no change), call 2
# SETS="old new s16out" with the tree's two-image tiles and output-width rule.
# The old stdlib also goes to .devcarry/convsplit/old-stdlib (../2026-11-27-h200-conv-split/models.sh).
#   bash bench/results/2026-11-28-h100-conv-b32/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
sets=${SETS:-old new s16out}
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init convb32 "${1:-HEAD}"
convs=$root/.devcarry/convb32/convs
mkdir -p "$convs"
# name C O H stride k
while read -r name c o h s k; do
    [[ $name == \#* ]] && continue
    p=$(((h + 2 * (k / 2) - k) / s + 1))
    for n in 32 1; do
        [[ $n == 1 && $k != 3 ]] && continue
        g=conv_$name
        [[ $n == 1 ]] && g+=_b1
        cat >"$convs/$g.hds" <<HDS
// ResNet-18's $k x $k convolution $c -> $o channels on $h x $h, stride $s, batch $n, ReLU after it.
target sm_90a;
import "nn.hds";
import "elementwise.hds";
graph $g(x: f16[$n, $c, $h, $h], w: f16[$o, $c, $k, $k]) -> f16[$n, $o, $p, $p] {
    return relu(conv2d(x, w, stride=$s, pad=$((k / 2))));
}
HDS
    done
done <"$root/bench/resnet18_convs.txt"
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set convb32 "$set")
    case $set in
    new) ;;
    bk32) stdlib_rule "$d/nn.hds" "conv2d_mma3x3<TW = 16> for" "conv2d_mma3x3<TW = 16, BK = 32> for"
          stdlib_rule "$d/nn.hds" "mma3x3 = conv2d_mma3x3 for" "mma3x3 = conv2d_mma3x3<BK = 32> for" ;;
    tw16) stdlib_rule "$d/nn.hds" "mma3x3 = conv2d_mma3x3 for" "mma3x3 = conv2d_mma3x3<TW = 16> for" ;;
    tw64) stdlib_rule "$d/nn.hds" "mma3x3 = conv2d_mma3x3 for" "mma3x3 = conv2d_mma3x3<TW = 64> for" ;;
    s16out) stdlib_rule "$d/nn.hds" "conv2d_mma3x3<TW = 16, SPLIT = 8> for f16, bf16 when W <= 16 &&" \
              "conv2d_mma3x3<TW = 16, SPLIT = 8> for f16, bf16 when (W + 2 * pad - S) / stride + 1 <= 16 &&" ;;
    flat) stdlib_rule "$d/nn.hds" "    schedule mma3x3_16 =" "    schedule mma_flat = conv2d_mma for f16, bf16 when N > 4;
    schedule mma3x3_16 =" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed convb32 "$set"
done
stdlib_sets_emit convb32 "$sets" "$convs"/*.hds
mkdir -p "$root/.devcarry/convsplit"
rm -rf "$root/.devcarry/convsplit/old-stdlib"
cp -r /tmp/convb32-stdlib/old "$root/.devcarry/convsplit/old-stdlib"
