#!/usr/bin/env bash
# Runs on the lent GPU machine: every GPU test (kernels and graphs), the graph
# benchmark against torch eager / torch.compile, and compute-sanitizer on the
# graph tests, over .cu files emitted here (.devcarry/emitted, see docs/testing.md).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
python3 -m pytest -q -rs tests/gpu 2>&1 | tee "$out/pytest.txt"
python3 bench/bench_graphs.py --out "$out" 2>&1 | tee "$out/bench.txt"
for tool in memcheck racecheck; do
    echo "===== compute-sanitizer --tool $tool" >>"$out/sanitizer.txt"
    compute-sanitizer --tool $tool --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_graphs.py \
        -k "(resnet and 3) or (mlp and 1) or (transformer and 7)" >>"$out/sanitizer.txt" 2>&1
    echo "compute-sanitizer $tool: exit $?" | tee -a "$out/sanitizer.txt"
done
grep -E "ERROR SUMMARY|RACECHECK SUMMARY|exit [0-9]|passed|failed" "$out/sanitizer.txt" | tee "$out/sanitizer-summary.txt"
