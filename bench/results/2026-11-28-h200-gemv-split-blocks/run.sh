#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (build.sh run here first): each stdlib set side by
# side with cuBLAS at M = 1 and 2 where K or N is odd, twice (the skinny folder's run.py).
#   bash bench/results/2026-11-28-h200-gemv-split-blocks/run.sh
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
for set in $(cat .devcarry/gemv/sets); do
    python3 $run --tag gemv --out "$res" --build $set >"$res/build-$set.log" 2>&1 &
done
wait
for r in 1 2; do
    python3 $run --tag gemv --ms 1 2 --out "$res/run$r" >"$res/run$r.log" 2>&1
    grep -v "of copy" "$res/run$r.log"
done
pack gemv
