# The tree as committed, on the GPU machine (after scripts/emit_for_device.sh, and the tree
# before it emitted into .devcarry/base by its own hdsc and stdlib): `part1` runs the GPU tests
# of the matmul and row schedules, compute-sanitizer on the new kernels and the first sweep;
# `part2` the sweep of the tree before, then this tree's again (same machine, alternating trees).
source bench/device_env.sh
if [[ $1 == part1 ]]; then
    python3 -m pytest -q tests/gpu -k "matmul or rows or softmax or rms or mlp or layer_norm" 2>&1 | tail -2 | tee $OUT/pytest.txt
    cases="(few_rows and (2051 or 4096)) or (every_variant_sm90 and (4097 or 517)) or (rows_of_symbolic and 61)"
    compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "$cases" 2>&1 | tail -1 > $OUT/sanitizer.txt
    compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu -k "$cases" 2>&1 | tail -1 >> $OUT/sanitizer.txt
    cat $OUT/sanitizer.txt
    python3 bench/bench_sweep.py --out $OUT/run1 2>&1 | grep "^| [a-z]" | cut -c1-110
else
    HDS_EMITTED_DIR=$PWD/.devcarry/base HDS_TEST_CACHE=$PWD/build/base-cache \
        python3 bench/bench_sweep.py --out $OUT/before 2>&1 | grep "^| [a-z]" | cut -c1-110
    python3 bench/bench_sweep.py --out $OUT/run2 2>&1 | grep "^| [a-z]" | cut -c1-110
fi
rm -f $OUT/*/sweep.md
