#!/usr/bin/env bash
# The last GPU call (README), on the tree (.devcarry from scripts/emit_for_device.sh): the GEMM GPU
# tests (both targets, the shared-memory guards, the default target's two paths), compute-sanitizer
# memcheck and racecheck over matmul_skinny_shifted at one and two blocks a multiprocessor, back as
# $OUT/final.tgz.
#   bash bench/results/2026-12-04-h200-skinny-occupancy/final.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_matmul.py tests/gpu/test_gpu_shared_memory.py \
    tests/gpu/test_gpu_default_target.py tests/gpu/test_gpu_graphs.py
echo "gpu tests: ${SECONDS}s"
sanitize tests/gpu/test_gpu_matmul.py -k "every_variant and (4-4096-8449 or 16-255-33792 or 16-4095-4097 or 11-2055-4100)"
pack final
