#!/usr/bin/env bash
# Call 4 (the stem back to NCHW by default; the final tree): every GPU test
# and the models (models.sh: HDS_CHANNELS_LAST=0 against the tree, the kernels at batch 32).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-conv-nhwc
gpu_tests pytest-gpu.txt tests/gpu
bash $here/models.sh
pack convnhwc4
