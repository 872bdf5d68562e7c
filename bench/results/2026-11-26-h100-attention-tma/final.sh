# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh; .devcarry/before: the same
# hdsc with `git archive 56d6d09 stdlib`, the cp.async attention): `sweep` runs the attention
# sweep of bench/bench_sweep.py twice (untuned defaults, symbolic sizes); `models` the transformer
# models of bench/bench_torch.py with this stdlib (after) and the one before, alternating.
source bench/device_env.sh
here=bench/results/2026-11-26-h100-attention-tma
if [[ $1 == sweep ]]; then
    for run in 1 2; do
        timeout 280 python3 bench/bench_sweep.py --out $OUT/sweep$run --only attention 2>&1 | grep -v "^|" | tail -3
        rm -f $OUT/sweep$run/sweep.md
    done
else
    unset HDS_EMITTED_DIR
    export LD_LIBRARY_PATH=$PWD/.devcarry/lib PYTHONPATH=$PWD/python
    for step in after before after before; do
        if [[ $step == after ]]; then export HDSC=$PWD/.devcarry/bin/hdsc; else export HDSC=$PWD/.devcarry/before/bin/hdsc; fi
        n=$(ls -d $OUT/$step* 2>/dev/null | wc -l)
        HDS_CACHE_DIR=/tmp/hds-cache-models-$step timeout 200 python3 bench/bench_torch.py --out $OUT/$step$((n + 1)) \
            --only gpt2_block_t1024 llama_layer_t1024 2>&1 | grep -v "^{" | tail -3
        rm -rf $OUT/$step$((n + 1))/debug
    done
fi
