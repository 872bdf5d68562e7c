# The second sweep of the committed tree, and whether the split kernel's cost where it does not
# split is its shared memory or its code (64 x 128 tiles, STAGES = 4, with and without SPLITK).
source bench/device_env.sh
python3 bench/bench_sweep.py --out $OUT/run2 --only gemm mlp 2>&1 | grep -v Warn | tail -1
python3 bench/results/2026-11-25-h100-splitk-clusters/profile_variants.py v64x128 v64x128s v64x128st4 v64x128st4s 2>&1 \
    | grep "^|" | tee $OUT/variants-stages4.md
