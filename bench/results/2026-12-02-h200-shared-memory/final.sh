#!/usr/bin/env bash
# Call 3 of this folder (README): every GPU test on the session's last tree (the GPU tests split into
# test_gpu_ops.py / test_gpu_matmul.py). On the device, with .devcarry carried:
#   bash bench/results/2026-12-02-h200-shared-memory/final.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu
pack call3
