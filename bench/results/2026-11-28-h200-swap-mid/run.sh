#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests on the tree, then ../2026-11-28-h200-swap-wide/run.py twice over
# this folder's sets.
#   bash bench/results/2026-11-28-h200-swap-mid/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
run=bench/results/2026-11-28-h200-swap-wide/run.py
for set in $(cat .devcarry/mid/sets); do
    python3 $run --tag mid --out "$res" --build $set >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-gpu.txt tests/gpu -k "matmul or swap"
wait
points="24,4096,4352 24,4096,5120 40,4096,5120 40,4096,5632 64,4096,6144 77,4096,5120 77,4096,6144
        77,4096,8192 100,4096,6144 100,4096,8192 128,4096,6144 128,4096,8192 100,8192,6144 128,14336,6144"
for r in 1 2; do
    python3 $run --tag mid --points $points --out "$res/run$r" >"$res/run$r.log" 2>&1
    grep -v "of copy" "$res/run$r.log"
done
pack mid
