#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first), on the
# tree (session 49's, with matmul_skinny_shifted; session 50's, ../2026-11-29-h200-session50-final):
# every GPU test, then the harness's GEMM sweep (every size symbolic, untuned defaults) twice;
# back as $OUT/final.tgz.
#   bash bench/results/2026-11-29-h200-skinny-shifted/final.sh
set -uo pipefail
source bench/device_env.sh
SECONDS=0
gpu_tests pytest-gpu.txt tests/gpu
echo "gpu tests: ${SECONDS}s"
for run in 1 2; do
    python3 bench/bench_sweep.py --out "$res/sweep$run" --only gemm >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
    echo "sweep $run: ${SECONDS}s"
    pack final
done
