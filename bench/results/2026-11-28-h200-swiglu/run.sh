#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): swiglu's GPU tests, the MLP sweep with each stdlib set twice (run.py), and the Llama
# layer under torch.compile(backend="hds") with REV's stdlib (`old`) and the tree's (`new`), two
# runs each (bench/bench_torch.py: hds, eager and inductor side by side). Two calls:
#   bash bench/results/2026-11-28-h200-swiglu/run.sh mlp; ... run.sh models
set -uo pipefail
source bench/device_env.sh
if [[ $1 == mlp ]]; then
build_sets swiglu bench/results/2026-11-28-h200-swiglu/run.py
gpu_tests pytest-gpu.txt tests/gpu -k "swiglu or glu or mlp or llama"
wait
for run in 1 2; do
    python3 bench/results/2026-11-28-h200-swiglu/run.py --out "$res/mlp$run" >"$res/mlp$run.log" 2>&1
    cat "$res/mlp$run.log"
done
pack swiglu-mlp
exit
fi
for run in 1 2; do
    for set in old new; do
        hdsc=$HDSC
        [[ $set == old ]] && hdsc=$PWD/.devcarry/old/bin/hdsc
        HDSC=$hdsc HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py --only llama_layer_t1024 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep "llama" "$res/models-$set-$run/torch.md"
    done
done
pack swiglu-models
