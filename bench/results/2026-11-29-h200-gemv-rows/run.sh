#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh and build.sh run here
# first): ../2026-11-28-h200-skinny-unaligned/run.py
# twice over build.sh's sets (M = 2 ... 16, K or N odd, each set side by side with cuBLAS).
#   bash bench/results/2026-11-29-h200-gemv-rows/run.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-11-28-h200-skinny-unaligned/run.py
for set in $(cat .devcarry/gemvrows/sets); do
    python3 $py --tag gemvrows --out "$res" --build "$set" >"$res/build-$set.log" 2>&1 &
done
wait
for run in 1 2; do
    python3 $py --tag gemvrows --ms 2 3 4 8 16 --out "$res/run$run" >"$res/run$run.log" 2>&1
    cat "$res/run$run.log"
done
pack gemvrows
