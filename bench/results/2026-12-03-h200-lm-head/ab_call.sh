#!/usr/bin/env bash
# On the device after bound.sh or k1536.sh (.devcarry carried): the sets' f16 graphs built, then
# ../2026-11-28-h200-skinny-unaligned/run.py twice at M = 1, 2, 3, 4, 16 over the shapes given,
# packed as NAME (README):
#   bash bench/results/2026-12-03-h200-lm-head/ab_call.sh bound 1000x8191 1023x4097 2047x2049 1023x2049 1023x1025
#   bash bench/results/2026-12-03-h200-lm-head/ab_call.sh k1536 2047x2049 1536x2049 1535x4097 1791x1793 1535x1025 1600x2561
set -uo pipefail
source bench/device_env.sh
name=$1
shift
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets lmhead "$run" --tag lmhead --graphs f16
wait
echo "builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r"
    timeout 150 python3 "$run" --out "$res/run$r" --tag lmhead --graphs f16 --ms 1 2 3 4 16 --kn "$@" \
        >"$res/run$r/f16.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/f16.log | cut -c1-160 | tail -60
pack "$name"
