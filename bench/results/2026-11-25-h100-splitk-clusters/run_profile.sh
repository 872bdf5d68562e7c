# M = 64..128 per kernel, this tree and the one before (.devcarry/base: emitted from the
# previous commit's stdlib), then the sweep of the tree before on this same GPU.
source bench/device_env.sh
echo "## this tree"; python3 bench/results/2026-11-25-h100-splitk-clusters/profile_m.py 2>&1 | grep "M="
echo "## before"; HDS_EMITTED_DIR=$PWD/.devcarry/base HDS_TEST_CACHE=$PWD/build/base-cache \
    python3 bench/results/2026-11-25-h100-splitk-clusters/profile_m.py 2>&1 | grep "M="
HDS_EMITTED_DIR=$PWD/.devcarry/base HDS_TEST_CACHE=$PWD/build/base-cache \
    python3 bench/bench_sweep.py --out $OUT/before-run1 --only gemm mlp 2>&1 | grep -v Warn | tail -2
