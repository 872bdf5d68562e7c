source bench/device_env.sh
nvcc -std=c++17 -gencode=arch=compute_90a,code=sm_90a -I runtime -I .devcarry/variants \
    bench/results/2026-11-25-h100-splitk-clusters/clusters.cu -o /tmp/clusters && /tmp/clusters | tee $OUT/clusters.txt
nvidia-smi -q | grep -i -A3 "multiproc\|GPC" | head -20
