#!/usr/bin/env bash
# On the GPU machine (.devcarry carried; bench/device_env.sh): ResNet-18 at batch 1 and 32 under
# torch.compile(backend="hds") (bench/bench_torch.py: hds, eager and inductor side by side, CUDA-graph
# replay), the tree with its convolutions all NCHW (`nchw`: HDS_CHANNELS_LAST=0) and as the
# backend picks them (`nhwc`: channels-last where a convolution has enough tiles), a process each,
# two runs, into $res/models-SET-RUN; then the kernels of batch 32 (`nhwc`) against inductor's.
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    for set in nchw nhwc; do
        flag=""
        [[ $set == nchw ]] && flag=0
        HDS_CHANNELS_LAST=$flag HDS_CACHE_DIR=/tmp/hds-cache-$set python3 bench/bench_torch.py \
            --only resnet18_b1 resnet18_b32 --out "$res/models-$set-$run" >"$res/models-$set-$run.log" 2>&1
        echo "$set run $run:"; grep "resnet" "$res/models-$set-$run/torch.md"
    done
done
HDS_CACHE_DIR=/tmp/hds-cache-nhwc python3 bench/results/2026-11-26-h100-model-profiles/model_profiles.py \
    "$res/profiles" resnet18_b32 >"$res/profiles.log" 2>&1
grep -A30 "^hds:" "$res/profiles/profiles.md" | head -30
