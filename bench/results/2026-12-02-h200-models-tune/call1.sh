#!/usr/bin/env bash
# First GPU call (README): the Python package's GPU tests (GPT-2's decoding step under the
# backend, a file of no target through hds.load) and the default target's; `hdsc tune` on a file
# of no target (the sm_90a sites on this GPU); then issue 25's models, run 1. On the device,
# with .devcarry carried:   bash bench/results/2026-12-02-h200-models-tune/call1.sh
set -uo pipefail
source bench/device_env.sh
gpu_tests pytest-python.txt tests/gpu/test_gpu_python.py tests/gpu/test_gpu_default_target.py
echo "tests: ${SECONDS}s"
printf 'import "nn.hds";\ngraph nt(x: f16[M, K], w: f16[K, N]) -> f16[M, N] { return matmul(x, w); }\n' >/tmp/nt.hds
"$HDSC" tune /tmp/nt.hds -I stdlib --sizes M=16,K=4096,N=4096 --level 0 --cache "$res/nt-tune.json" \
    --runtime runtime >"$res/tune.txt" 2>&1
cat "$res/tune.txt" "$res/nt-tune.json"
echo "tune: ${SECONDS}s"
bash bench/results/2026-12-02-h200-models-tune/models.sh 1
pack call1
