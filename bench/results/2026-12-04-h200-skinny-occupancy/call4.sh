#!/usr/bin/env bash
# The GPU call of build3.sh's sets (README): the A/B twice at M = 1, 2, 4, 8, 16 against vocabularies
# of 16-byte rows (f16; bf16 at two), packed as NAME:
#   bash bench/results/2026-12-04-h200-skinny-occupancy/call4.sh NAME
set -uo pipefail
source bench/device_env.sh
name=$1
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets occ "$run" --tag occ
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r/bf16"
    timeout 200 python3 "$run" --out "$res/run$r" --tag occ --graphs f16 --ms 1 2 4 8 16 \
        --kn 768x50304 1600x50304 4096x32000 5120x32000 4096x128256 >"$res/run$r/f16.log" 2>&1
    timeout 80 python3 "$run" --out "$res/run$r/bf16" --tag occ --graphs bf16 --ms 1 4 16 \
        --kn 768x50304 4096x128256 >"$res/run$r/bf16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/*.log | cut -c1-170 | tail -70
pack "$name"
