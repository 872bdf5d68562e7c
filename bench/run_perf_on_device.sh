#!/usr/bin/env bash
# The benchmark harness, one command on the lent GPU machine (fits a 10-minute
# run): the GPU tests, the GEMMs vs cuBLAS, the memory-bound graphs and the
# example graphs vs torch eager / torch.compile, all over .cu files emitted on
# the development machine (see docs/testing.md), then a merged summary.
# Writes $OUT/pytest.txt, results.json, summary.md, ratios.png, sanitizer.txt.
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
raw=$(mktemp -d)
mv "$out/device.txt" "$raw/device.txt"
python3 -m pytest -q -rs tests/gpu 2>&1 | tail -25 | tee "$out/pytest.txt"
python3 bench/bench_gemm_tc.py --out "$raw" 2>&1 | tail -8
python3 bench/bench_memory.py --out "$raw" 2>&1 | tail -10
python3 bench/bench_graphs.py --out "$raw" 2>&1 | tail -6
python3 bench/summarize.py "$raw" "$out" >/dev/null
compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu \
    -k "tensor_cores_f16 and (129-136-40 or 77-300-1031) or (mlp and 1) or (transformer and 7) or (resnet and 3) or (matmul_tiled and 300-260)" \
    >"$out/sanitizer.txt" 2>&1
echo "compute-sanitizer memcheck: exit $?" | tee -a "$out/sanitizer.txt"
# Shared-memory races in the hand schedules with block-wide staging (flash attention, SIMT convolution,
# the double-buffered SIMT matmul).
compute-sanitizer --tool racecheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu/test_gpu_graphs.py \
    tests/gpu/test_gpu_examples.py -k "(transformer and 7) or (resnet and 3) or (matmul_tiled and 300-260)" \
    >>"$out/sanitizer.txt" 2>&1
echo "compute-sanitizer racecheck: exit $?" | tee -a "$out/sanitizer.txt"
