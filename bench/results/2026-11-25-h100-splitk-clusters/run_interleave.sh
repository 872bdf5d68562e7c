# The split kernel with its K range in one piece per block (.devcarry/variants, as committed)
# and interleaved (.devcarry/variants-b: block r takes slices r, r + split, ...: no division).
source bench/device_env.sh
for d in variants variants-b; do
    echo "## $d"
    HDS_VARIANTS_DIR=$PWD/.devcarry/$d python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py \
        v64x128 v64x128s 2>&1 | grep "^|" | tee $OUT/$d.md
done
