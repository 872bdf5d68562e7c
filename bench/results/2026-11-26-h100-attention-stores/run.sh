# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh; .devcarry/before: the
# hdsc of 08024e9 with its stdlib): every GPU test (HDSC set, for the Python package's), then
# the transformer models of bench/bench_torch.py with this hdsc (after) and the one before,
# alternating, twice each; one JSON per model run.
source bench/device_env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
HDSC=$PWD/.devcarry/bin/hdsc timeout 420 python3 -m pytest -q --timeout 120 tests/gpu -p no:cacheprovider \
    > $OUT/pytest-gpu-all.txt 2>&1
tail -2 $OUT/pytest-gpu-all.txt
unset HDS_EMITTED_DIR
for step in after before after before; do
    if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
    n=$(ls $OUT/models-$step*.json 2>/dev/null | wc -l)
    HDS_CACHE_DIR=/tmp/hds-cache-models-$step timeout 240 python3 bench/bench_torch.py --out /tmp/models-$step \
        --only gpt2_block_t1024 llama_layer_t1024 2>&1 | grep -v "^{" | tail -3
    cp /tmp/models-$step/torch.json $OUT/models-$step$((n + 1)).json
    rm -rf /tmp/models-$step
done
