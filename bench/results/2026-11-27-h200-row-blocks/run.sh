# On the GPU machine (after variants.py here): every variant of .devcarry/rows side by side with
# torch.compile, two runs each; back as $OUT/NAME.tgz.
#   bash run.sh [NAME [RMS_NORM_NS [LAYER_NORM_NS]]]
# first/ and second/: the defaults; third/: run.sh third 256,512,1000,1024,2048 256,512,1000,1024,2048
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
run=bench/results/2026-11-26-h100-row-weights/run.py
python3 $run --out "$res/rms" --ops rms_norm_f16 --ns "${2:-1000,4096,8192,16384,32768}" || true
python3 $run --out "$res/ln" --ops layer_norm_f32 --ns "${3:-1000,4096,8192,16384,32768}" || true
pack "${1:-rows}"
