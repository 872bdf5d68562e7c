#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the matmul GPU tests on the tree, then ../2026-11-28-h200-swap-wide/run.py twice over
# this folder's sets.
#   bash bench/results/2026-11-28-h200-swap-split88/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
run=bench/results/2026-11-28-h200-swap-wide/run.py
for set in $(cat .devcarry/split88/sets); do
    python3 $run --tag split88 --out "$res" --build $set >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-gpu.txt tests/gpu -k "matmul or swap or mlp or llama"
wait
points="1,4096,4352 16,4096,4352 1,4096,5120 16,4096,5120 1,4096,5632 16,4096,5632 1,4096,6144 16,4096,6144
        1,8192,5120 16,8192,5120 24,4096,5120 32,4096,6144 48,4096,6144 24,4096,8192 48,4096,8192 32,8192,8192
        48,4096,4096 32,4096,4096"
for r in 1 2; do
    python3 $run --tag split88 --points $points --out "$res/run$r" >"$res/run$r.log" 2>&1
    grep -v "of copy" "$res/run$r.log"
done
pack split88
