#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests, then run.py twice (each stdlib set side by side with cuBLAS).
#   bash bench/results/2026-11-28-h200-skinny-unaligned/run.sh
set -uo pipefail
source bench/device_env.sh
build_sets skinny bench/results/2026-11-28-h200-skinny-unaligned/run.py
gpu_tests pytest-gpu.txt tests/gpu -k "matmul"
wait
for run in 1 2; do
    python3 bench/results/2026-11-28-h200-skinny-unaligned/run.py --out "$res/run$run" >"$res/run$run.log" 2>&1
    cat "$res/run$run.log"
done
pack skinny
