#!/usr/bin/env bash
# The second GPU call (README), on the committed rule (heads of 64 two stages deep, 128 three):
# every attention GPU test, the Python package's and the graphs' (the transformer examples), then
# compute-sanitizer memcheck and racecheck over the split by TMA (8:1 groups past 4096 keys, heads
# of 64 and 128, causal, a batch of 4). With .devcarry carried (scripts/emit_for_device.sh first):
#   bash bench/results/2026-12-02-h200-decode-tma/final.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_attention.py tests/gpu/test_gpu_python.py tests/gpu/test_gpu_graphs.py
echo "tests: ${SECONDS}s"
sel=(tests/gpu/test_gpu_attention.py -k "grouped and (8192 or 4500 or 6000)")
sanitize "${sel[@]}"  # (bench/device_env.sh: memcheck, then racecheck)
pack final
