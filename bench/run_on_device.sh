#!/usr/bin/env bash
# Runs on the lent GPU machine (see docs/gpu-runs.md): the GPU tests and the
# benchmark over .cu files emitted here by hdsc (.devcarry/emitted), writing
# everything under $OUT.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
python3 -m pytest -q -rs tests/gpu 2>&1 | tee "$out/pytest.txt"
python3 bench/bench_core.py --out "$out" 2>&1 | tee "$out/bench.txt"
# Memory, race and synchronisation checks of every example on small odd shapes;
# all three logs go to one file (the device tool returns at most 8 files).
for tool in memcheck racecheck synccheck; do
    echo "===== compute-sanitizer --tool $tool" >>"$out/sanitizer.txt"
    compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu \
        -k "(matmul and 129-127-9) or (row_sum and 37-255) or (softmax and 64-33) or (vector_add and 257) or (gelu and 1000)" \
        >>"$out/sanitizer.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$out/sanitizer.txt"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|exit [0-9]" "$out/sanitizer.txt" | tee "$out/sanitizer-summary.txt"
