#!/usr/bin/env bash
# A GPU call (README), after build.sh (.devcarry carried): the sets' graphs built, then the A/B twice,
# f16 at M = F16_MS over F16_KN and, where given, bf16 at BF16_MS over BF16_KN, packed as NAME:
#   bash ab.sh NAME "F16_MS" "F16_KN" ["BF16_MS" "BF16_KN"]
# The calls (run from the repository root as bench/results/2026-12-04-h200-skinny-occupancy/ab.sh):
#   call1, call2  ab.sh callN "2 3 4 8 16" "4095x4097 11007x4097 4097x11007 768x50257 1600x50257 2047x2049 1536x2049" "4 16" "4095x4097 768x50257"
#   call3         ab.sh call3 "3 8 16" "4095x4097 4096x8447 4096x8449 2048x11007 4097x11007 4095x14337 4095x16895 4095x16897 2047x20481 768x50257 1600x50257"
#   call4         ab.sh call4 "1 2 4 8 16" "768x50304 1600x50304 4096x32000 5120x32000 4096x128256" "1 4 16" "768x50304 4096x128256"
#   call5         ab.sh call5 "3 16" "4096x8449 4097x11007 4095x16897 2047x20481 4095x33791"
set -uo pipefail
source bench/device_env.sh
name=$1
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
graphs=(f16)
[[ -z ${4:-} ]] || graphs+=(bf16)
build_sets occ "$run" --tag occ --graphs "${graphs[@]}"
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r/bf16"
    # shellcheck disable=SC2086 # (the sizes are lists)
    timeout 200 python3 "$run" --out "$res/run$r" --tag occ --graphs f16 --ms $2 --kn $3 >"$res/run$r/f16.log" 2>&1
    [[ -z ${4:-} ]] ||
        timeout 80 python3 "$run" --out "$res/run$r/bf16" --tag occ --graphs bf16 --ms $4 --kn $5 >"$res/run$r/bf16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/*.log | cut -c1-170 | tail -90
pack "$name"
