#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried): the GPU
# tests of conv2d_wgmma, every convolution with each set (run.py, two runs).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-nhwc
build_sets convnhwc $here/run.py
gpu_tests pytest-gpu-conv.txt tests/gpu/test_gpu_ops.py -k "conv_wgmma"
wait
python3 $here/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | grep "^run\|Error\|error" | tail -60
pack convnhwc
