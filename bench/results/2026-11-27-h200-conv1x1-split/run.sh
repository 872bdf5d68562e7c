#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried): the convolutions with each stdlib
# side by side with torch eager (run.py), then ResNet-18 under torch.compile(backend="hds")
# (bench/bench_torch.py, batch 1 and 32) compiled with stdlib/ as committed before the change
# (`old`, placed in .devcarry/stdlib, where the package looks first beside .devcarry/bin/hdsc)
# and as it is; then the GPU tests of the convolutions and the ResNet graphs.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-27-h200-conv1x1-split
python3 $here/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -40
for run in 1 2; do
    for set in old new; do
        rm -rf .devcarry/stdlib
        [[ $set == old ]] && cp -r .devcarry/convsplit/old-stdlib .devcarry/stdlib
        HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py --only resnet18_b1 resnet18_b32 \
            --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep "resnet" "$res/models-$set-$run/torch.md"
    done
done
n=""; python3 -c "import xdist" 2>/dev/null && n="-n 8"
python3 -m pytest -q $n tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet" -p no:cacheprovider >"$res/pytest-gpu-conv.txt" 2>&1
tail -3 "$res/pytest-gpu-conv.txt"
pack convsplit
