#!/usr/bin/env bash
# The GPU call (README), after build.sh (.devcarry carried): the convolutions with each stdlib side
# by side with torch eager (two runs), then the convolution GPU tests on the tree's code (.devcarry/emitted
# from scripts/emit_for_device.sh), back as $OUT/call.tgz.
#   bash bench/results/2026-12-04-h200-conv-sums/call.sh
set -uo pipefail
source bench/device_env.sh
python3 bench/results/2026-11-27-h200-conv1x1-split/run.py --out "$res" 2>&1 | tee "$res/convs.txt" | tail -8
gpu_tests pytest-gpu-conv.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet"
pack call
