#!/usr/bin/env bash
# The GPU call of this folder (README): every GPU test on the tree, then compute-sanitizer's racecheck
# and memcheck over the f32 transformer block (attention_simt's outputs now staged in its values'
# tile) and the sm_80 decoding GEMM. On the device, with .devcarry carried:
#   bash bench/results/2026-12-02-h200-shared-memory/run.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-gpu.txt tests/gpu
for tool in racecheck memcheck; do
    compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_graphs.py \
        tests/gpu/test_gpu_ops.py -k "(transformer and 7) or (transformer and 129) or (sizes_sm80 and (5-4095-77 or 5-2049-301))" \
        -p no:cacheprovider >"$res/sanitizer-$tool.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$res/sanitizer-$tool.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$res/sanitizer-$tool.txt" | tail -3
done
pack call1
