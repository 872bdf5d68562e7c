#!/usr/bin/env bash
# Installs what is missing, builds hdsc, compiles every example to readable
# CUDA (.cu + .h), builds each with nvcc, and prints where the files are.
set -euo pipefail
source "$(dirname "$0")/setup.sh"
hds_setup
hds_build

out=$HDS_ROOT/out/examples
mkdir -p "$out"
hds_log "compiling examples/*.hds with hdsc"
for ex in "$HDS_ROOT"/examples/*.hds; do
    name=$(basename "$ex" .hds)
    "$HDS_BUILD/hdsc" "$ex" -I "$HDS_ROOT/stdlib" -o "$out/$name.cu"
    if command -v nvcc >/dev/null; then
        nvcc -c -std=c++17 -I "$HDS_ROOT/runtime" -gencode arch=compute_90,code=sm_90 \
            "$out/$name.cu" -o "$out/$name.o"
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "(+ $name.h; nvcc -> $name.o)"
    else
        printf '  %-44s %s\n' "${out#$HDS_ROOT/}/$name.cu" "(+ $name.h; nvcc not found)"
    fi
done
echo
hds_log "emitted CUDA is in $out — start with matmul_tiled.cu or softmax.cu"
