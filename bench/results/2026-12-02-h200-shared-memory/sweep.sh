#!/usr/bin/env bash
# Call 2 of this folder (README): the harness's GEMM sweep twice on this session's tree (every size
# symbolic, untuned defaults, side by side with cuBLAS, alternating samples, CUDA-graph replay).
# On the device, with .devcarry carried: bash bench/results/2026-12-02-h200-shared-memory/sweep.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    mkdir -p "$res/sweep$run"
    timeout 280 python3 bench/bench_sweep.py --out "$res/sweep$run" --only gemm >"$res/sweep$run.log" 2>&1
    echo "run $run: exit $? after ${SECONDS}s"
    pack call2
done
