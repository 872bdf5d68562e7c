#!/usr/bin/env bash
# The last GPU call (README): compute-sanitizer memcheck and racecheck over the default-target
# test (the three builds of one .cu) with the launch-bound probe. With .devcarry carried:
#   bash bench/results/2026-12-02-h200-default-target/memcheck.sh
set -uo pipefail
source bench/device_env.sh
python3 -m pytest -q -n 8 tests/gpu/test_gpu_default_target.py -p no:cacheprovider | tail -1  # builds, in parallel
for tool in memcheck racecheck; do
    compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q tests/gpu/test_gpu_default_target.py \
        -p no:cacheprovider >"$res/sanitizer-$tool.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$res/sanitizer-$tool.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$res/sanitizer-$tool.txt" | tail -3
done
pack call5
