#!/usr/bin/env bash
# The GPU call of build4.sh's sets (README): the A/B twice at M = 3, 16 past 66 strips, packed as NAME:
#   bash bench/results/2026-12-04-h200-skinny-occupancy/call5.sh NAME
set -uo pipefail
source bench/device_env.sh
name=$1
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets occ "$run" --tag occ --graphs f16
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r"
    timeout 200 python3 "$run" --out "$res/run$r" --tag occ --graphs f16 --ms 3 16 \
        --kn 4096x8449 4097x11007 4095x16897 2047x20481 4095x33791 >"$res/run$r/f16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/*.log | cut -c1-170 | tail -30
pack "$name"
