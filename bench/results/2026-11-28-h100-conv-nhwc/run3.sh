#!/usr/bin/env bash
# Call 3 (the stem channels-last: RGB padded to 8 channels, a slice per filter row, the max pool
# NHWC; batch norms folded outside the graph): the GPU tests of conv2d_wgmma and of the backend,
# the models (models.sh: HDS_CHANNELS_LAST=0 against the tree, and the kernels at batch 32).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-nhwc
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_python.py -k "conv or backend"
bash $here/models.sh
pack convnhwc3
