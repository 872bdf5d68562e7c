#!/usr/bin/env bash
# Call 4 (build.sh with variants-call4.hds as attention_variants.hds): what costs the one-block-
# per-item kernel 3 % at 16k keys; racecheck on one persistent GPU test case (two items a block).
set -uo pipefail
source bench/device_env.sh
python3 bench/results/2026-11-26-h100-attention-tma/run_variants.py --lib .devcarry/attention-persistent \
    --out "$res/variants" >"$res/variants.txt" 2>&1
grep "^run.*D=64" "$res/variants.txt"
timeout 300 compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -p no:cacheprovider \
    tests/gpu/test_gpu_attention.py -k "sm90_h64_causal and 2-67-300-300" 2>&1 | tail -3 | sed "s/^/racecheck: /" \
    | tee "$res/sanitizer.txt"
pack call4
