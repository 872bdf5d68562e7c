# On the GPU machine: the row GPU tests on this tree (.devcarry/emitted, scripts/emit_for_device.sh),
# then rms_norm f16 of the compiler with and without shifted chunks in the clusters
# (.devcarry/rows/{after,before}, ../2026-11-26-h100-row-weights/build.sh; `before`:
# HDS_X_NO_CLUSTER_SHIFT=1, the experiment's switch in switch.patch) side by side with
# torch.compile, two runs, at rows past 32768 that are not 16-byte multiples (and one that is);
# back as $OUT/NAME.tgz.   bash run.sh [NAME]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "rows or rms_norm or softmax or norm or eight" || true
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-shift}" \
    --ns "${NS:-32762,40001,50257,50264,65529,65530,100003,131065}" --ops rms_norm_f16 || true
pack "${1:-shift}"
