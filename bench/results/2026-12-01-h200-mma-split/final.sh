#!/usr/bin/env bash
# On the GPU machine, with .devcarry carried (here first: scripts/emit_for_device.sh, then
# `build.sh REV`): run.py twice (with ARGS) over build.sh's sets, then every GPU test (not with
# TESTS=0); back as $OUT/final.tgz. Call 2: no ARGS (REV ae6ac7e, sets old and new); call 3:
# TESTS=0 and call 3's ARGS (REV d814b55, SETS="old new s4 bn256"); call 4: REV d814b55, sets old
# and new, ARGS="--ms 17 128 512 1024 2048 8192 --kn 4096x4096 4096x11008 11008x4096 4096x1024 --bf16-ms 128 1024 4096".
#   Call 3's ARGS: --ms 256 512 1024 2048 4096 8192 --kn 4096x4096 4096x11008 11008x4096 --bf16-ms 1024 4096
#   [TESTS=0] [ARGS=...] bash bench/results/2026-12-01-h200-mma-split/final.sh
set -uo pipefail
source bench/device_env.sh
py=bench/results/2026-12-01-h200-mma-split/run.py
SECONDS=0
build_sets mmasplit $py
wait
echo "nvcc: ${SECONDS}s"
for run in 1 2; do
    timeout 200 python3 $py --out "$res/run$run" ${ARGS:-} >"$res/run$run.log" 2>&1
    tail -1 "$res/run$run.log"
    echo "run $run: ${SECONDS}s"
    pack final
done
[[ ${TESTS:-1} == 0 ]] && exit
timeout 400 python3 -m pytest -q -n 8 tests/gpu -p no:cacheprovider >"$res/pytest-gpu.txt" 2>&1
tail -1 "$res/pytest-gpu.txt"
echo "gpu tests: ${SECONDS}s"
pack final
