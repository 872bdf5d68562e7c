#!/usr/bin/env bash
# On the GPU machine (.devcarry carried; here first: scripts/emit_for_device.sh, the tree's stdlib
# copied to .devcarry/stdlib and python/hds of a commit before the merge to .devcarry/pyold): the
# Llama layer (prefill 1k, decode against 1k) under torch.compile(backend="hds") with the
# tree's Python package (`merge`: q, k, v as one product) and the earlier one (`apart`), a
# process each, two runs, into $res/models-SET-RUN; then the Llama MLP rows of the shape sweep.
set -uo pipefail
source bench/device_env.sh
export HDS_RUNTIME=$PWD/runtime
for run in 1 2; do
    for set in apart merge; do
        path=$PWD/python
        [[ $set == apart ]] && path=$PWD/.devcarry/pyold
        PYTHONPATH=$path HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py \
            --only llama_layer_t1024 llama_layer_decode_s1024 --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep -E "llama|gpt2" "$res/models-$set-$run/torch.md" | cut -d'|' -f2-9
    done
done
python3 bench/bench_sweep.py --out "$res/sweep" --only mlp >"$res/sweep.log" 2>&1
grep llama "$res/sweep.log"
pack swiglu-merge
