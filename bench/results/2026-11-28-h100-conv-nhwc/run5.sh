#!/usr/bin/env bash
# Call 5 (SETS="new split split64" from build.sh, then /tmp/convnhwc-stdlib/split copied to
# .devcarry/convnhwc/split-stdlib): the convolutions whose 128 x 128 tiles are at most 66 (7 x 7
# maps at batch 32) with each set (run.py, two runs); the GPU tests of conv2d_wgmma;
# ResNet-18 at batch 32 with the `split` stdlib (in .devcarry/stdlib, where the package looks first).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-nhwc
names="c256s2 c512 d256"
for set in $(cat .devcarry/convnhwc/sets); do
    python3 $here/run.py --out "$res" --build "$set" $names >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-gpu-conv.txt tests/gpu/test_gpu_ops.py -k "conv_wgmma"
wait
python3 $here/run.py --out "$res" $names 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -20
pack convnhwc5
rm -rf .devcarry/stdlib && cp -r .devcarry/convnhwc/split-stdlib .devcarry/stdlib
HDS_CACHE_DIR=/tmp/hds-cache-split timeout 150 python3 bench/bench_torch.py --only resnet18_b32 --out "$res/models-split" \
    >"$res/models-split.log" 2>&1
grep resnet "$res/models-split/torch.md"
rm -rf .devcarry/stdlib
pack convnhwc5
