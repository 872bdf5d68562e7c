# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh on the tree with
# decode128_wide): the attention GPU tests, then the grouped-query rows of the attention sweep
# twice (now with batches of 2 to 4 decoding against 16k keys).
source bench/device_env.sh
timeout 300 python3 -m pytest -q --timeout 120 tests/gpu/test_gpu_attention.py -p no:cacheprovider > $OUT/pytest-attention2.txt 2>&1
tail -1 $OUT/pytest-attention2.txt
for run in 1 2; do
    timeout 200 python3 bench/bench_sweep.py --out $OUT/sweep$run --only attention --match gqa 2>&1 | grep -v "^|" | grep "L=1 " 
    mv $OUT/sweep$run/*.json $OUT/sweep-gqa-run$run.json && rm -rf $OUT/sweep$run
done
