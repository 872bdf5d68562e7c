# The split kernel as committed (.devcarry/variants) and with its divisions by the split made
# shifts (.devcarry/variants-b: splits of 1, 2, 4, 8 only), without and with SPLITK.
source bench/device_env.sh
for d in variants variants-b; do
    echo "## $d"
    HDS_VARIANTS_DIR=$PWD/.devcarry/$d python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py \
        v64x128 v64x128s 2>&1 | grep "^|" | tee $OUT/$d.md
done
