#!/usr/bin/env bash
# On the GPU machine after `SETS="old new" bash bench/results/2026-11-28-h200-conv-reduce/build.sh
# eaad4d2` and scripts/emit_for_device.sh (.devcarry carried): the stem with each stdlib against
# cuDNN (run.py), ResNet-18 at batch 1 and 32 with each stdlib (bench/bench_torch.py, a process
# each: `old` placed in .devcarry/stdlib, `new` the tree's; two runs), the GPU tests of the
# convolutions on the tree. Packs after each step.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-stem-gather
python3 $here/run.py --out "$res" 2>&1 | tee "$res/stem.txt" | grep "^run\|Error\|error" | tail -4
pack stem
for run in 1 2; do
    for set in old new; do
        rm -rf .devcarry/stdlib
        [[ $set == old ]] && cp -r .devcarry/convsplit/old-stdlib .devcarry/stdlib
        HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py --only resnet18_b1 resnet18_b32 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep resnet "$res/models-$set-$run/torch.md"
    done
    pack stem
    if [[ $run == 1 ]]; then
        rm -rf .devcarry/stdlib
        python3 -m pytest -q -n 8 tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet" \
            -p no:cacheprovider >"$res/pytest-gpu-conv.txt" 2>&1
        tail -1 "$res/pytest-gpu-conv.txt"
    fi
done
rm -rf .devcarry/stdlib
pack stem
