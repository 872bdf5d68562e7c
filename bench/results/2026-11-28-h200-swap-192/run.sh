#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): the swapped product's GPU tests on the tree, then ../2026-11-28-h200-split-192/run.py
# twice over this folder's sets (GEMMs of 129 to 192 rows and the Llama MLP at those token counts).
#   bash bench/results/2026-11-28-h200-swap-192/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
run=bench/results/2026-11-28-h200-split-192/run.py
for set in $(cat .devcarry/swap192/sets); do
    python3 $run --tag swap192 --out "$res" --build $set >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-gpu.txt tests/gpu -k "matmul or swap or mlp or llama"
wait
for r in 1 2; do
    python3 $run --tag swap192 --ms 129 144 145 160 176 192 --out "$res/run$r" >"$res/run$r.log" 2>&1
    cat "$res/run$r.log"
done
pack swap192
