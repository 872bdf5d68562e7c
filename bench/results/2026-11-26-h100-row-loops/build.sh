# Here: emits the row sweeps' graphs (bench/sweep/sweep_{softmax_f32,layer_norm_f32,rms_norm_f16}.hds,
# sm_90a, N symbolic) with this tree's hdsc (clusters: rows past 8192 values held by a cluster of
# blocks) and with HDSC_LOOPS, an hdsc built with no-clusters.patch (loops: a block per row reading
# the row again for each pass), and builds them into .devcarry/rows/{clusters,loops} for run.py.
#   HDSC_LOOPS=/tmp/hdsc-loops bash bench/results/2026-11-26-h100-row-loops/build.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
for w in clusters loops; do
    out=$root/.devcarry/rows/$w && mkdir -p "$out"
    hdsc=$root/build/hdsc && [[ $w == loops ]] && hdsc=$HDSC_LOOPS
    for op in softmax_f32 layer_norm_f32 rms_norm_f16; do
        "$hdsc" "$root/bench/sweep/sweep_$op.hds" -I "$root/stdlib" -o "$out/sweep_$op.cu"
        nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a \
            "$out/sweep_$op.cu" -o "$out/libsweep_$op.so" &
    done
done
wait
