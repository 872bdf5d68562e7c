# On the GPU machine: the row GPU tests on this tree (.devcarry/emitted, scripts/emit_for_device.sh),
# then the row sweeps of the compiler before and after (.devcarry/rows/{before,final},
# ../2026-11-26-h100-row-weights/build.sh) side by side with torch.compile, two runs;
# back as $OUT/NAME.tgz.   bash final.sh [NAME [NS]]  (call 5: final; call 10: shifted with the
# unaligned sizes)
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
gpu_tests pytest-gpu.txt tests/gpu/test_gpu_ops.py tests/gpu/test_gpu_graphs.py -k "rows or rms_norm or softmax or layer_norm or norm" || true
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-final}" \
    --ns "${2:-61,127,128,255,256,512,1000,2048,4096,8192,16384,32768}" || true
pack "${1:-final}"
