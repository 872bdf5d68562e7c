#!/usr/bin/env bash
# The GPU call (README): the sets' graphs built (nvcc, in parallel), every attention GPU test and
# the Python package's decoding ones on the tree's emitted code, compute-sanitizer memcheck and
# racecheck over the split decoding cases, then the A/B run. On the device, with .devcarry
# carried (scripts/emit_for_device.sh and build.sh run here first):
#   bash bench/results/2026-12-03-h200-decode-balanced/call.sh
set -uo pipefail
source bench/device_env.sh
build_sets decbal bench/results/2026-12-02-h200-decode-tma/run.py --tag decbal
gpu_tests pytest-attention.txt tests/gpu/test_gpu_attention.py "tests/gpu/test_gpu_python.py::test_backend_decode"
echo "tests: ${SECONDS}s"
sel=(tests/gpu/test_gpu_attention.py -k "grouped and (8192 or 4500 or 6000)")
for tool in memcheck racecheck; do
    timeout 200 compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q "${sel[@]}" -p no:cacheprovider \
        >"$res/sanitizer-$tool.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$res/sanitizer-$tool.txt"
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|passed|failed" "$res/sanitizer-$tool.txt" | tail -3
    echo "$tool: ${SECONDS}s"
done
wait
echo "builds: ${SECONDS}s"
timeout 280 python3 bench/results/2026-12-02-h200-decode-tma/run.py --out "$res" --tag decbal >"$res/run.log" 2>&1
echo "run: ${SECONDS}s"
grep -v "^   " "$res/run.log" | tail -40
pack call
