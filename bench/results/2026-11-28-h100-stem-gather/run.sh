#!/usr/bin/env bash
# On the GPU machine after `SETS="old new" bash bench/results/2026-11-28-h200-conv-reduce/build.sh
# eaad4d2` and scripts/emit_for_device.sh (.devcarry carried): the stem with each stdlib against
# cuDNN (run.py), ResNet-18 at batch 1 and 32 with each stdlib (bench/bench_torch.py, a process
# each, two runs: ../2026-11-27-h200-conv-split/models.sh), the GPU tests of the convolutions on
# the tree. Packs after each step.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-stem-gather
python3 $here/run.py --out "$res" 2>&1 | tee "$res/stem.txt" | grep "^run\|Error\|error" | tail -4
pack stem
source bench/results/2026-11-27-h200-conv-split/models.sh
pack stem
gpu_tests pytest-gpu-conv.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet"
pack stem
