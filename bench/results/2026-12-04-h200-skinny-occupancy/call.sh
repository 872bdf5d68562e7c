#!/usr/bin/env bash
# The GPU call (README): the sets' graphs built, then the A/B run twice at M = 2 ... 16 over shapes
# where b's rows are not 16-byte multiples (f16; bf16 at two), packed as NAME. With .devcarry
# carried (build.sh run here first):
#   bash bench/results/2026-12-04-h200-skinny-occupancy/call.sh NAME
set -uo pipefail
source bench/device_env.sh
name=$1
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets occ "$run" --tag occ
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r/bf16"
    timeout 200 python3 "$run" --out "$res/run$r" --tag occ --graphs f16 --ms 2 3 4 8 16 \
        --kn 4095x4097 11007x4097 4097x11007 768x50257 1600x50257 2047x2049 1536x2049 >"$res/run$r/f16.log" 2>&1
    timeout 80 python3 "$run" --out "$res/run$r/bf16" --tag occ --graphs bf16 --ms 4 16 \
        --kn 4095x4097 768x50257 >"$res/run$r/bf16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/*.log | cut -c1-170 | tail -90
pack "$name"
