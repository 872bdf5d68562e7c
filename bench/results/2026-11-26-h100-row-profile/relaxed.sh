# On the GPU machine, with .devcarry/rows/{before,after} carried (the row sweeps' .cu emitted here,
# "after" with each cluster branch's last barrier relaxed: first edited by hand, then emitted by the
# compiler with cluster_sync_relaxed): builds them and times them with
# ../2026-11-26-h100-row-weights/run.py.
set -uo pipefail
source bench/device_env.sh
for w in before after; do
    for op in softmax_f32 layer_norm_f32 rms_norm_f16; do
        nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I runtime -gencode arch=compute_90a,code=sm_90a \
            .devcarry/rows/$w/sweep_$op.cu -o .devcarry/rows/$w/libsweep_$op.so &
    done
done
wait
python3 bench/results/2026-11-26-h100-row-weights/run.py --out "$out/relaxed"
