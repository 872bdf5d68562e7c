#!/usr/bin/env bash
# On the GPU machine (.devcarry carried): the transformer models of bench/bench_torch.py under
# torch.compile(backend="hds") with the tree's hdsc (`tree`) and with hdsc built from a variant
# of the tree (`sink`: .devcarry/sink/bin/hdsc, the tree's stdlib beside it), a process each, two
# runs, into $res/models-SET-RUN; then the Llama prefill layer's kernels under `sink`.
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for set in tree sink; do
        hdsc=$HDSC
        [[ $set == sink ]] && hdsc=$PWD/.devcarry/sink/bin/hdsc
        HDSC=$hdsc HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py \
            --only llama_layer_t1024 gpt2_block_t1024 llama_layer_decode_s1024 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep -E "llama|gpt2" "$res/models-$set-$run/torch.md" | cut -d'|' -f2-9
    done
done
HDSC=$PWD/.devcarry/sink/bin/hdsc HDS_CACHE_DIR=/tmp/hds-cache-sink python3 \
    bench/results/2026-11-26-h100-model-profiles/model_profiles.py "$res/profiles" llama_layer_t1024 >"$res/profiles.log" 2>&1
grep -A22 "^hds:" "$res/profiles/profiles.md" | cut -c1-120
pack swiglu-sink
