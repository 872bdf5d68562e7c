#!/usr/bin/env bash
# The GPU call (README): the sets' graphs built (nvcc, in parallel), every attention GPU test and the
# Python package's decoding ones on the tree's emitted code, then run.py. On the device, with
# .devcarry carried (scripts/emit_for_device.sh and build.sh run here first):
#   bash bench/results/2026-12-02-h200-decode-tma/call.sh
set -uo pipefail
source bench/device_env.sh
here=bench/results/2026-12-02-h200-decode-tma
for set in $(cat .devcarry/dectma/sets); do
    python3 -c "import sys; sys.path.insert(0, 'bench'); from pathlib import Path; from stdlib_sets import build_set; \
build_set(Path('.devcarry/dectma'), '$set', [Path('bench/sweep') / f'sweep_attention_{n}.hds' for n in ('gqa_d64', 'gqa_d128', 'd64_sm80', 'd128_sm80')])" \
        >"$res/build-$set.log" 2>&1 &
done
gpu_tests pytest-attention.txt tests/gpu/test_gpu_attention.py "tests/gpu/test_gpu_python.py::test_backend_decode"
wait
echo "tests and builds: ${SECONDS}s"
python3 "$here/run.py" --out "$res" >"$res/run.log" 2>&1
echo "run: ${SECONDS}s"
grep -v "^   " "$res/run.log" | tail -40
pack call
