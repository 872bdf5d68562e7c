# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh on the final tree): the
# attention GPU tests, then the attention sweep of bench/bench_sweep.py twice (untuned
# defaults, symbolic sizes; decode rows and prefill).
source bench/device_env.sh
timeout 300 python3 -m pytest -q --timeout 120 tests/gpu/test_gpu_attention.py -p no:cacheprovider > $OUT/pytest-attention.txt 2>&1
tail -2 $OUT/pytest-attention.txt
for run in 1 2; do
    timeout 280 python3 bench/bench_sweep.py --out $OUT/sweep$run --only attention 2>&1 | grep -v "^|" | tail -2
    mv $OUT/sweep$run/*.json $OUT/sweep-run$run.json && rm -rf $OUT/sweep$run
done
