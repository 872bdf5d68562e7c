#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests on the tree, then ../2026-11-28-h200-split-192/run.py twice over
# build.sh's sets (GEMMs of 129 to 192 rows at 80 to 128 tiles of 64 columns, side by side with cuBLAS).
#   bash bench/results/2026-11-29-h200-swap-one-192/run.sh [CALL]
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-11-28-h200-split-192/run.py
build_sets swapone $py --tag swapone
[[ ${1:-1} != 1 ]] || gpu_tests pytest-gpu.txt tests/gpu -k "matmul or swap"
wait
# call 1: M = 129 ... 192 at N = 5120, 6144, 8192; call 2 (`run.sh 2`): more N between.
if [[ ${1:-1} == 1 ]]; then
    args=(--ms 129 144 160 176 192 --kn 4096,5120 4096,6144 4096,8192 11008,6144 14336,6144)
else
    args=(--ms 129 160 192 --kn 4096,5632 4096,5888 4096,6144 4096,6656 4096,7168 4096,7680 11008,7168)
fi
for run in 1 2; do
    python3 $py --tag swapone --no-mlp "${args[@]}" --out "$res/run$run" >"$res/run$run.log" 2>&1
    cat "$res/run$run.log"
done
pack swapone
