# On the GPU machine: nvcc's the .cu files build.sh left in .devcarry/rows (16 at a time), then
# ../2026-11-26-h100-row-weights/run.py (every variant side by side with torch.compile, two runs,
# at least 64 MB moved) at NS; back as $OUT/NAME.tgz.   [NS=...] [OPS=...] bash run.sh [NAME]
cd "$(dirname "$0")/../../.."
set -uo pipefail
source bench/device_env.sh
rm -rf "$res"/* && cp "$out/device.txt" "$res/"
SECONDS=0
ls .devcarry/rows/*/*.cu | xargs -P 16 -I{} sh -c 'f={}; nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I runtime \
    -gencode arch=compute_90a,code=sm_90a "$f" -o "$(dirname $f)/lib$(basename $f .cu).so"'
echo "nvcc: ${SECONDS}s"
timeout 420 python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$res/${1:-ab}" \
    --ns "${NS:-98,126,130,200,250,254,258,382,510,1000,1022}" --ops "${OPS:-softmax_f32,layer_norm_f32,rms_norm_f16}" \
    --rows 0 >"$res/${1:-ab}.log" 2>&1
echo "a/b: ${SECONDS}s"
pack "${1:-ab}"
