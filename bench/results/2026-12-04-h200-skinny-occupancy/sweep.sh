#!/usr/bin/env bash
# After final.sh (README): the harness's GEMM sweep (every size symbolic, untuned defaults) twice,
# back as $OUT/sweep.tgz. With .devcarry carried:
#   bash bench/results/2026-12-04-h200-skinny-occupancy/sweep.sh
set -uo pipefail
source bench/device_env.sh
for run in 1 2; do
    timeout 280 python3 bench/bench_sweep.py --out "$res/sweep$run" --only gemm >"$res/sweep$run.log" 2>&1
    tail -1 "$res/sweep$run.log"
    echo "sweep $run: ${SECONDS}s"
    pack sweep
done
