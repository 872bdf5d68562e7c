# The 64 x 128 tile kernel without and with SPLITK from two stdlib trees side by side:
# .devcarry/variants (as committed) and .devcarry/variants-b (a changed matmul_wgmma.hds; each
# emitted with `hdsc splitk_variants.hds -I <stdlib> --out-dir ...`). Used for the interleaved K
# (attempts/interleaved-k-h100.md) and the divisions made shifts (attempts/shifts-h100.md).
source bench/device_env.sh
for d in variants variants-b; do
    echo "## $d"
    HDS_VARIANTS_DIR=$PWD/.devcarry/$d python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py \
        v64x128 v64x128s 2>&1 | grep "^|" | tee $OUT/$d.md
done
