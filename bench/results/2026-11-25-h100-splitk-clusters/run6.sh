# The tree as committed (the split schedule up to M = 64; the sweep gains M = 48): matmul GPU
# tests, compute-sanitizer on the split cases, the GEMM and MLP sweeps twice with the tree before
# (.devcarry/base) between them, on the same GPU.
source bench/device_env.sh
python3 -m pytest -q tests/gpu -k "matmul or mlp" 2>&1 | tail -2 | tee $OUT/pytest.txt
split="every_variant_sm90 and (1100 or 2100 or 4100 or 1600)"
compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "$split" 2>&1 | tail -2 > $OUT/sanitizer.txt
compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "$split" 2>&1 | tail -2 >> $OUT/sanitizer.txt
cat $OUT/sanitizer.txt
python3 bench/bench_sweep.py --out $OUT/run1 --only gemm mlp 2>&1 | grep -v Warn | tail -1
HDS_EMITTED_DIR=$PWD/.devcarry/base HDS_TEST_CACHE=$PWD/build/base-cache \
    python3 bench/bench_sweep.py --out $OUT/before --only gemm mlp 2>&1 | grep -v Warn | tail -1
python3 bench/bench_sweep.py --out $OUT/run2 --only gemm mlp 2>&1 | grep -v Warn | tail -1
rm $OUT/*/sweep.md  # (the files that come back are few: sweep.json has every number)
