# Here: emits the row sweeps' graphs (bench/sweep/sweep_{softmax_f32,layer_norm_f32,rms_norm_f16}.hds)
# with two compilers and builds them into .devcarry/rows/NAME for run.py (also the row-loops folder's):
#   bash bench/results/2026-11-26-h100-row-weights/build.sh after=build/hdsc before=/tmp/hdsc-before
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
rm -rf "$root/.devcarry/rows"
for pair in "$@"; do
    name=${pair%%=*} hdsc=${pair#*=}
    out=$root/.devcarry/rows/$name && mkdir -p "$out"
    for op in softmax_f32 layer_norm_f32 rms_norm_f16; do
        "$hdsc" "$root/bench/sweep/sweep_$op.hds" -I "$root/stdlib" -o "$out/sweep_$op.cu"
        nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a \
            "$out/sweep_$op.cu" -o "$out/libsweep_$op.so" &
    done
done
wait
