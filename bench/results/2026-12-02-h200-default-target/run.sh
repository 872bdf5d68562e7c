#!/usr/bin/env bash
# The GPU call of this folder (README): the .cu of a graph of a file that declares no target,
# sm_80 and sm_90a in one (tests/gpu/test_gpu_default_target.py), then every GPU test, nvcc's
# time on the transformer example's .cu for each gencode, and compute-sanitizer memcheck over the
# default-target test. On the device, with .devcarry carried:
#   bash bench/results/2026-12-02-h200-default-target/run.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-default-target.txt tests/gpu/test_gpu_default_target.py -v
grep -E "PASS|FAIL" "$res/pytest-default-target.txt" | head -20
gpu_tests pytest-gpu.txt tests/gpu
cu=.devcarry/emitted/transformer_block.cu
for g in "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a" \
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90,code=sm_90"; do
    start=$(date +%s.%N)
    nvcc -std=c++17 -O3 $g -I runtime -I .devcarry/emitted -c "$cu" -o /tmp/tb.o 2>&1 | tail -3
    echo "nvcc $g: $(echo "$(date +%s.%N) - $start" | bc) s" | tee -a "$res/nvcc-times.txt"
done
compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_default_target.py \
    -p no:cacheprovider >"$res/sanitizer-memcheck.txt" 2>&1
echo "compute-sanitizer memcheck: exit $?" | tee -a "$res/sanitizer-memcheck.txt"
grep -E "ERROR SUMMARY|passed|failed" "$res/sanitizer-memcheck.txt" | tail -3
pack call1
