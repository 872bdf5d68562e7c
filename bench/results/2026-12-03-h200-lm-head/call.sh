#!/usr/bin/env bash
# The GPU call (README): the sets' graphs built, the matmul GPU tests on the tree's emitted code,
# then the A/B run twice: f16 at vocabulary projections (GPT-2's 50257 columns at its four widths)
# and on both sides of the new bound (1024 x 8193 has 2^23 elements, 1000 x 8191 fewer), an
# aligned one; bf16 and the default target at GPT-2 small's. With .devcarry carried
# (scripts/emit_for_device.sh and build.sh run here first):
#   bash bench/results/2026-12-03-h200-lm-head/call.sh
set -uo pipefail
source bench/device_env.sh
run=bench/results/2026-11-28-h200-skinny-unaligned/run.py
build_sets lmhead "$run" --tag lmhead
gpu_tests pytest-matmul.txt tests/gpu/test_gpu_matmul.py
wait
echo "tests and builds: ${SECONDS}s"
for r in 1 2; do
    mkdir -p "$res/run$r"
    timeout 200 python3 "$run" --out "$res/run$r" --tag lmhead --graphs f16 \
        --kn 768x50257 1024x50257 1280x50257 1600x50257 1024x8193 1000x8191 768x50304 >"$res/run$r/f16.log" 2>&1
    mkdir -p "$res/run$r/other"
    timeout 100 python3 "$run" --out "$res/run$r/other" --tag lmhead --graphs bf16 f16_default --kn 768x50257 \
        >"$res/run$r/other.log" 2>&1
    echo "run $r: ${SECONDS}s"
done
grep -hv "^  " "$res"/run*/f16.log "$res"/run*/other.log | cut -c1-160 | tail -70
pack call
