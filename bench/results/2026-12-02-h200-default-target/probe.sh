#!/usr/bin/env bash
# The probe (probe.cu) built for each gencode a .cu of both targets may get.
set -u
out=${OUT:-/tmp/hds-out}
mkdir -p "$out"
d=bench/results/2026-12-02-h200-default-target
for g in "-gencode=arch=compute_90a,code=sm_90a" \
    "-gencode=arch=compute_80,code=sm_80 -gencode=arch=compute_90a,code=sm_90a" \
    "-gencode=arch=compute_90,code=sm_90" "-gencode=arch=compute_80,code=sm_80"; do
    echo "== $g"
    /usr/local/cuda/bin/nvcc -std=c++17 -I runtime $g $d/probe.cu -o /tmp/probe && /tmp/probe
    /usr/local/cuda/bin/cuobjdump -res-usage /tmp/probe 2>&1 | grep -A1 probe | head -4
done 2>&1 | tee "$out/probe.txt"
