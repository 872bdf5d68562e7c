#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried):
# ../2026-11-27-h200-conv-split/run.sh on this folder's run.py (the convolutions with each
# stdlib, then ResNet-18 with the old and the new stdlib), then the GPU tests of the
# convolutions and the ResNet graphs.
set -uo pipefail
HERE=bench/results/2026-11-27-h200-conv1x1-split bash bench/results/2026-11-27-h200-conv-split/run.sh
source bench/device_env.sh
n=""; python3 -c "import xdist" 2>/dev/null && n="-n 8"
python3 -m pytest -q $n tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "conv or resnet" -p no:cacheprovider >"$res/pytest-gpu-conv.txt" 2>&1
tail -3 "$res/pytest-gpu-conv.txt"
pack convsplit
