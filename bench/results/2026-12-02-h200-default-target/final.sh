#!/usr/bin/env bash
# The second GPU call (README): the GPU tests whose graphs declare no target (the examples, the
# Python package's, the graphs'), then the harness's GEMM sweep twice (the default target's row
# now runs the sm_90a variants on this H200). On the device, with .devcarry carried:
#   bash bench/results/2026-12-02-h200-default-target/final.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-default-graphs.txt tests/gpu/test_gpu_default_target.py tests/gpu/test_gpu_examples.py \
    tests/gpu/test_gpu_python.py tests/gpu/test_gpu_graphs.py
for run in 1 2; do
    python3 bench/bench_sweep.py --out "$res/sweep$run" --only gemm >"$res/sweep$run.log" 2>&1
    tail -2 "$res/sweep$run.log"
done
pack call4
