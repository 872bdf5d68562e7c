#!/usr/bin/env bash
# Runs on the lent GPU machine: the GPU tests, the GEMM benchmark (tensor-core
# and SIMT kernels vs cuBLAS) and the graph benchmark (vs torch eager and
# torch.compile), over .cu files emitted here (.devcarry/emitted).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
python3 -m pytest -q -rs tests/gpu 2>&1 | tail -15 | tee "$out/pytest.txt"
python3 bench/bench_memory.py --out "$out" 2>&1 | tail -10 | tee "$out/bench-memory.txt"
python3 bench/bench_graphs.py --out "$out" 2>&1 | tail -6 | tee "$out/bench-graphs.txt"
compute-sanitizer --tool memcheck --error-exitcode 3 python3 -m pytest -q -x tests/gpu \
    -k "tensor_cores_f16 and (129-136-40 or 77-300-1031) or (mlp and 1) or (transformer and 7)" >"$out/sanitizer.txt" 2>&1
echo "compute-sanitizer memcheck: exit $?" | tee -a "$out/sanitizer.txt"
