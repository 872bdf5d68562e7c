#!/usr/bin/env bash
# The tree's GPU tests of the changed rules (README, `final/`): matmul, the sm_80 paths on a GPU of
# 99 KiB a block, the default target. With .devcarry carried (scripts/emit_for_device.sh first):
#   bash bench/results/2026-12-03-h200-lm-head/final.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_matmul.py tests/gpu/test_gpu_shared_memory.py tests/gpu/test_gpu_default_target.py
echo "tests: ${SECONDS}s"
pack final
