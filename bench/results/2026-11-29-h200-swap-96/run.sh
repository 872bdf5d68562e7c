#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (build.sh run here first): ../2026-11-28-h200-swap-wide/run.py
# twice over build.sh's sets at 129-192 rows against 80-128 tiles of 64 columns (and a control).
#   bash bench/results/2026-11-29-h200-swap-96/run.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-11-28-h200-swap-wide/run.py
for set in $(cat .devcarry/wide96/sets); do
    python3 $py --tag wide96 --out "$res" --build "$set" >"$res/build-$set.log" 2>&1 &
done
wait
pts=""
for kn in 4096,5120 4096,6144 4096,8192 14336,6144; do for m in 129 160 192; do pts+=" $m,$kn"; done; done
pts+=" 144,4096,6144 176,4096,6144 160,4096,4096"
for run in 1 2; do
    python3 $py --tag wide96 --points $pts --out "$res/run$run" >"$res/run$run.log" 2>&1
    cat "$res/run$run.log"
done
pack wide96
