#!/usr/bin/env bash
# On the GPU machine after build.sh (.devcarry carried): the convolutions with each stdlib
# side by side with torch eager (run.py), then ResNet-18 under torch.compile(backend="hds")
# (bench/bench_torch.py, batch 1 and 32) compiled with stdlib/ as committed before the change
# (`old`, placed in .devcarry/stdlib, where the package looks first beside .devcarry/bin/hdsc)
# and as it is.
set -uo pipefail
source bench/device_env.sh
here=${HERE:-bench/results/2026-11-27-h200-conv-split}  # (another folder's run.py: HERE)
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
pack convsplit
