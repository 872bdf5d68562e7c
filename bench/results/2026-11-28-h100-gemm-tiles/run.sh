#!/usr/bin/env bash
# On the GPU machine after build.sh and scripts/emit_for_device.sh (.devcarry carried).
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-28-h100-gemm-tiles
build_sets gemmtiles $here/run.py
wait
python3 $here/run.py --out "$res" 2>&1 | tee "$res/gemms.txt" | grep "^run\|Error\|error" | tail -40
pack gemmtiles
