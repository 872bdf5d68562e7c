# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh; .devcarry/before: the
# hdsc of 652bd59, before strided views, with its stdlib): every GPU test, then the transformer
# models of bench/bench_torch.py with this hdsc (after) and the one before, alternating, twice.
source bench/device_env.sh
timeout 420 python3 -m pytest -q --timeout 120 tests/gpu -p no:cacheprovider > $OUT/pytest-gpu-all.txt 2>&1
tail -3 $OUT/pytest-gpu-all.txt
unset HDS_EMITTED_DIR
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
for step in after before after before; do
    if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
    n=$(ls -d $OUT/$step* 2>/dev/null | wc -l)
    HDS_CACHE_DIR=/tmp/hds-cache-models-$step timeout 240 python3 bench/bench_torch.py --out $OUT/$step$((n + 1)) \
        --only gpt2_block_t1024 llama_layer_t1024 2>&1 | grep -v "^{" | tail -3
    mkdir -p $OUT/kernels-$step && cp $OUT/$step$((n + 1))/debug/*/*/*.hds $OUT/kernels-$step/ 2>/dev/null
    rm -rf $OUT/$step$((n + 1))/debug
done
