# On the GPU machine: the row sweeps' graphs emitted with several row ladders (.devcarry/rows/NAME,
# ../2026-11-26-h100-row-weights/build.sh), side by side with torch.compile, two runs each;
# back as $OUT/NAME.tgz.   bash run.sh NAME NS [OPS]
set -euo pipefail
cd "$(dirname "$0")/../../.."
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-ladder}" --ns "${2:-256,512,1000,2048,4096}" --ops "${3:-softmax_f32,layer_norm_f32,rms_norm_f16}" || true
pack "${1:-ladder}"
