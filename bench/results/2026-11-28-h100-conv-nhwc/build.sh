#!/usr/bin/env bash
# ResNet-18's convolutions (batch 32; the 3 x 3 ones also at batch 1, NAME_b1), ReLU after each, as
# conv2d on NCHW (conv_NAME.hds, the tree's schedules) and as conv2d_nhwc (nhwc_NAME.hds: NHWC x,
# [O, R, S, C] weights, conv2d_wgmma.hds), written into .devcarry/convnhwc/convs/ and emitted with
# the tree's stdlib (`new`) and variants of conv2d_nhwc's rule in nn.hds (bench/stdlib_sets.sh):
#   bm64   64-row tiles (one consumer warpgroup)     bn64   64-column tiles
#   b64    64 x 64 tiles                             bn256  128 x 256 tiles
#   ctas0  a block per tile (not persistent)         st6    6 stages
#   split  (call 5) where 128 x 128 tiles are at most 66: 128 x 128 tiles, their slices split over
#          a cluster (SPLITK), not 64 x 128 tiles          split64  64 x 128 tiles split so
# Call 1 ran before nn.hds had its tile rules (`new`: 128 x 128 tiles everywhere); in the tree the
# variants change the last rule only (`wgmma`), after `wgmma_taps`, `wgmma_n64` and `wgmma_m64`.
# Calls 2-4 emitted with SETS=new.
#   bash bench/results/2026-11-28-h100-conv-nhwc/build.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
sets=${SETS:-new bm64 bn64 b64 bn256 ctas0 st6}
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init convnhwc HEAD
convs=$root/.devcarry/convnhwc/convs
mkdir -p "$convs"
# name C O H stride k
while read -r name c o h s k; do
    [[ $name == \#* || $name == stem ]] && continue  # (conv2d_nhwc: C a multiple of 8)
    p=$(((h + 2 * (k / 2) - k) / s + 1))
    for n in 32 1; do
        [[ $n == 1 && $k != 3 ]] && continue
        g=${name}
        [[ $n == 1 ]] && g+=_b1
        cat >"$convs/conv_$g.hds" <<HDS
// ResNet-18's $k x $k convolution $c -> $o channels on $h x $h, stride $s, batch $n, ReLU after it.
target sm_90a;
import "nn.hds";
import "elementwise.hds";
graph conv_$g(x: f16[$n, $c, $h, $h], w: f16[$o, $c, $k, $k]) -> f16[$n, $o, $p, $p] {
    return relu(conv2d(x, w, stride=$s, pad=$((k / 2))));
}
HDS
        cat >"$convs/nhwc_$g.hds" <<HDS
// The same in NHWC (conv2d_nhwc).
target sm_90a;
import "nn.hds";
import "elementwise.hds";
graph nhwc_$g(x: f16[$n, $h, $h, $c], w: f16[$o, $k, $k, $c]) -> f16[$n, $p, $p, $o] {
    return relu(conv2d_nhwc(x, w, stride=$s, pad=$((k / 2))));
}
HDS
    done
done <"$root/bench/resnet18_convs.txt"
base="schedule wgmma = conv2d_wgmma for"
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set convnhwc "$set")
    case $set in
    new) ;;
    bm64) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<BM = 64> for" ;;
    bn64) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<BN = 64> for" ;;
    b64) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<BM = 64, BN = 64> for" ;;
    bn256) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<BN = 256> for" ;;
    ctas0) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<CTAS = 0> for" ;;
    st6) stdlib_rule "$d/nn.hds" "$base" "schedule wgmma = conv2d_wgmma<STAGES = 6> for" ;;
    split) stdlib_rule "$d/nn.hds" "schedule wgmma_m64 = conv2d_wgmma<BM = 64>" "schedule wgmma_m64 = conv2d_wgmma<SPLITK = 8>" ;;
    split64) stdlib_rule "$d/nn.hds" "schedule wgmma_m64 = conv2d_wgmma<BM = 64>" \
                 "schedule wgmma_m64 = conv2d_wgmma<BM = 64, SPLITK = 8>" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed convnhwc "$set"
done
stdlib_sets_emit convnhwc "$sets" "$convs"/*.hds
