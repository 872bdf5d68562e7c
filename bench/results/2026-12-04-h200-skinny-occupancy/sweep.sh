#!/usr/bin/env bash
# After final.sh (README): the harness's GEMM sweep (every size symbolic, untuned defaults) twice,
# back as $OUT/sweep.tgz. With .devcarry carried:
#   bash bench/results/2026-12-04-h200-skinny-occupancy/sweep.sh
set -uo pipefail
source bench/device_env.sh
sweeps sweep gemm
