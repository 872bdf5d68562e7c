#!/usr/bin/env bash
# On the GPU machine after `SETS="old new bk32" build.sh` and scripts/emit_for_device.sh
# (.devcarry carried): the convolutions with each stdlib (run.py), then the GPU tests of the
# convolutions.
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-11-27-h200-conv-split
python3 $here/run.py --out "$res" 2>&1 | tee "$res/convs-bk32.txt" | grep "^run\|Error\|error" | tail -40
mv "$res/convs.json" "$res/convs-bk32.json"
n=""; python3 -c "import xdist" 2>/dev/null && n="-n 8"
python3 -m pytest -q $n tests/gpu/test_gpu_ops.py -k "conv" -p no:cacheprovider >"$res/pytest-gpu-conv.txt" 2>&1
tail -3 "$res/pytest-gpu-conv.txt"
pack bk32
