#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the sm_80 matmul GPU tests on the tree's kernels, then run.py twice over build.sh's sets.
# Call 1: SETS="old new narrow+skinny1 wide+skinny1 narrow narrow+gemv2" build.sh (see there).
#   bash bench/results/2026-12-01-h200-mma-split/run.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-12-01-h200-mma-split/run.py
build_sets mmasplit $py
gpu_tests pytest-gpu.txt tests/gpu -k "matmul_symbolic_sizes_sm80"
wait
for run in 1 2; do
    timeout 250 python3 $py --out "$res/run$run" >"$res/run$run.log" 2>&1
    tail -3 "$res/run$run.log"
done
pack mmasplit
