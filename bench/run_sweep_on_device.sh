#!/usr/bin/env bash
# Runs on the lent GPU machine: the shape sweep (bench/bench_sweep.py) over the
# .cu files emitted here (scripts/emit_for_device.sh). Arguments go to bench_sweep.py
# (--only gemm rows mlp, --quick).
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
python3 bench/bench_sweep.py --out "$out" "$@" 2>&1 | tee "$out/sweep.txt"
