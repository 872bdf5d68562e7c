#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests on the tree's kernels, then ../2026-11-28-h200-skinny-unaligned/run.py
# twice over build.sh's sets (M = 1 ... 4, K or N odd, each set side by side with cuBLAS).
#   bash bench/results/2026-11-29-h200-gemv-shifted-rows/run.sh [CALL] (call 2: build2.sh, M = 1 and 2)
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets gsrows $py --tag gsrows
[[ ${1:-1} != 1 ]] || gpu_tests pytest-gpu.txt tests/gpu -k "matmul"
wait
for run in 1 2; do
    python3 $py --tag gsrows --ms $([[ ${1:-1} == 1 ]] && echo 1 2 3 4 || echo 1 2) --out "$res/run$run" >"$res/run$run.log" 2>&1
    cat "$res/run$run.log"
done
pack gsrows
