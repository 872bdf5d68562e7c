#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (scripts/emit_for_device.sh run here first on the
# session's last tree): every GPU test, eight workers.
set -uo pipefail
source bench/device_env.sh
timeout 560 python3 -m pytest -q -n 8 tests/gpu -p no:cacheprovider >"$res/pytest-gpu.txt" 2>&1
tail -3 "$res/pytest-gpu.txt"
pack tests
