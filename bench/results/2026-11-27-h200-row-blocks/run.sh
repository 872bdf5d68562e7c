# On the GPU machine (after variants.py here): every variant of .devcarry/rows side by side with
# torch.compile, two runs each; the results come back as $OUT/rows.tgz.
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
run=bench/results/2026-11-26-h100-row-weights/run.py
python3 $run --out "$res/rms" --ops rms_norm_f16 --ns 1000,4096,8192,16384,32768 || true
python3 $run --out "$res/ln" --ops layer_norm_f32 --ns 1000,4096,8192,16384,32768 || true
pack rows
