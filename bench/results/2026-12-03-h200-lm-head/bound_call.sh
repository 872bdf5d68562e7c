#!/usr/bin/env bash
# On the device after bound.sh (.devcarry carried):   bash bench/results/2026-12-03-h200-lm-head/bound_call.sh
set -uo pipefail
source bench/device_env.sh
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets lmhead "$run" --tag lmhead --graphs f16
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r"
    timeout 150 python3 "$run" --out "$res/run$r" --tag lmhead --graphs f16 --ms 1 2 3 4 16 \
        --kn 1000x8191 1023x4097 2047x2049 1023x2049 1023x1025 >"$res/run$r/f16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/f16.log | cut -c1-160 | tail -60
pack bound
