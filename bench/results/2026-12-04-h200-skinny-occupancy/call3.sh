#!/usr/bin/env bash
# The GPU call of build2.sh's sets (README): the A/B twice at M = 3, 8, 16 where b's strips of 128
# columns number 33 to 393, packed as NAME:
#   bash bench/results/2026-12-04-h200-skinny-occupancy/call3.sh NAME
set -uo pipefail
source bench/device_env.sh
name=$1
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets occ "$run" --tag occ --graphs f16
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r"
    timeout 200 python3 "$run" --out "$res/run$r" --tag occ --graphs f16 --ms 3 8 16 \
        --kn 4095x4097 4096x8447 4096x8449 2048x11007 4097x11007 4095x14337 4095x16895 4095x16897 \
        2047x20481 768x50257 1600x50257 >"$res/run$r/f16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/*.log | cut -c1-170 | tail -70
pack "$name"
