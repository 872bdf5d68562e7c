#!/usr/bin/env bash
# On the GPU machine after `SETS="old new" build.sh` and scripts/emit_for_device.sh (.devcarry
# carried): ../2026-11-27-h200-conv-split/run.sh (the 3 x 3 convolutions with each stdlib against
# cuDNN, then ResNet-18 at batch 1 and 32 with each stdlib, a process each, two runs), the 1 x 1
# convolutions (../2026-11-27-h200-conv1x1-split/run.py), then every GPU test on the tree.
set -uo pipefail
bash bench/results/2026-11-27-h200-conv-split/run.sh
source bench/device_env.sh
python3 bench/results/2026-11-27-h200-conv1x1-split/run.py --out "$res/c1" 2>&1 | tee "$res/convs1x1.txt" | grep "^run\|Error\|error" | tail -10
python3 -m pytest -q -n 8 tests/gpu -p no:cacheprovider >"$res/pytest-gpu.txt" 2>&1
tail -3 "$res/pytest-gpu.txt"
pack final
