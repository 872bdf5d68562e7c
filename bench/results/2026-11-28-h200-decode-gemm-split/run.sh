#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (build.sh run here first): run.py twice, each stdlib
# set side by side with cuBLAS; then the matmul GPU tests on the set named by $1 (if any), its
# graphs emitted into .devcarry/emitted by scripts/emit_for_device.sh.
#   bash bench/results/2026-11-28-h200-decode-gemm-split/run.sh [tests]
set -uo pipefail
rm -rf /tmp/hds-results
source bench/device_env.sh
build_sets dgemm bench/results/2026-11-28-h200-decode-gemm-split/run.py
wait
for run in 1 2; do
    python3 bench/results/2026-11-28-h200-decode-gemm-split/run.py --out "$res/run$run" >"$res/run$run.log" 2>&1
    grep -v "of copy" "$res/run$run.log"
done
[[ ${1:-} == tests ]] && gpu_tests pytest-gpu.txt tests/gpu -k "matmul"
pack dgemm
