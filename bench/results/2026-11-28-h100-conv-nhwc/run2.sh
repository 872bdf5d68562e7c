#!/usr/bin/env bash
# Call 2 (after the tile rules in nn.hds and the backend's channels-last convolutions): the GPU
# tests of conv2d_wgmma and of the backend, the convolutions with the tree's stdlib (`new`), the
# models (models.sh).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-nhwc
SETS=new python3 $here/run.py --out "$res" --build new >"$res/build-new.log" 2>&1 &
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_python.py -k "conv or backend"
wait
SETS=new python3 $here/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -40
bash $here/models.sh
pack convnhwc2
