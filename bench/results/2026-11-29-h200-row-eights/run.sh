# On the GPU machine: the row GPU tests on this tree (.devcarry/emitted, scripts/emit_for_device.sh),
# then the row sweeps' graphs of the compiler with and without the 8-byte tier (.devcarry/rows/
# {after,before}, ../2026-11-26-h100-row-weights/build.sh; `before`: HDS_X_NO_EIGHTS=1, the
# experiment's switch in eights.patch) side by side with torch.compile, two runs each, at f16 rows
# of N % 8 == 4 and f32 rows of N % 4 == 2 (and a few others for control); back as $OUT/NAME.tgz.
#   bash run.sh [NAME]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "rows or rms_norm or softmax or norm or eight" || true
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-eights}-f16" \
    --ns "${NS16:-60,100,132,252,256,260,300,388,500,508,1000}" --ops rms_norm_f16 || true
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-eights}-f32" \
    --ns "${NS32:-62,130,250,256,258,382,386}" --ops softmax_f32,layer_norm_f32 || true
pack "${1:-eights}"
