#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (here first: scripts/emit_for_device.sh, then
# `build.sh REV`, sets old and new): run.py twice, then every GPU test; back as $OUT/final.tgz.
#   bash bench/results/2026-12-01-h200-mma-split/final.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-12-01-h200-mma-split/run.py
SECONDS=0
build_sets mmasplit $py
wait
echo "nvcc: ${SECONDS}s"
for run in 1 2; do
    timeout 120 python3 $py --out "$res/run$run" >"$res/run$run.log" 2>&1
    tail -1 "$res/run$run.log"
    echo "run $run: ${SECONDS}s"
    pack final
done
timeout 400 python3 -m pytest -q -n 8 tests/gpu -p no:cacheprovider >"$res/pytest-gpu.txt" 2>&1
tail -1 "$res/pytest-gpu.txt"
echo "gpu tests: ${SECONDS}s"
pack final
