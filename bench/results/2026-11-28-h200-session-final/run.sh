#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests on the tree, then ../2026-11-28-h200-swap-wide/run.py twice: the
# session's start and its end side by side with cuBLAS where this session changed the dispatch.
#   bash bench/results/2026-11-28-h200-session-final/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
run=bench/results/2026-11-28-h200-swap-wide/run.py
for set in $(cat .devcarry/final/sets); do
    python3 $run --tag final --out "$res" --build $set >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-gpu.txt tests/gpu -k "matmul or swap"
wait
points="1,4095,4097 1,4097,11007 1,11008,2048 16,11008,2048 1,11008,4096 16,14336,4096 1,4096,4352 16,4096,5120
        1,4096,6144 16,4096,6144 1,4096,8192 16,4096,8192 24,4096,5120 32,4096,6144 48,4096,8192 77,4096,6144
        129,14336,4096 144,11008,4096 160,14336,4096 176,11008,4096 192,14336,4096 160,4096,4096
        16,4096,4096 128,4096,4096 512,4096,4096"
for r in 1 2; do
    python3 $run --tag final --points $points --out "$res/run$r" >"$res/run$r.log" 2>&1
    grep -v "of copy" "$res/run$r.log"
done
pack final
