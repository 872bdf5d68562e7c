# On the GPU machine: the row GPU tests on this tree (.devcarry/emitted, scripts/emit_for_device.sh),
# then the row sweep's graphs of two compilers (.devcarry/rows/{after,before},
# ../2026-11-26-h100-row-weights/build.sh; see README.md for what each call compared) side by
# side with torch.compile, two runs, rows past 32768 values, at least 64 MB moved (ROWS=0) and
# other row counts; back as $OUT/NAME.tgz.
#   [TESTS=-k-expr] [NS=...] [ROWS=0,8,600] [OPS=...] bash run.sh [NAME]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py \
    -k "${TESTS:-rows or rms_norm or softmax or norm or eight or cluster or stream}" || true
timeout "${LIMIT:-420}" python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-stream}" \
    --ns "${NS:-40000,65536,100000,128256,131072}" --rows "${ROWS:-0,8,600}" --ops "${OPS:-softmax_f32,layer_norm_f32,rms_norm_f16}" \
    2>&1 | tee "$res/${1:-stream}.log" | grep -v "^run2" || true
pack "${1:-stream}"
