#!/usr/bin/env bash
# Compiles an example with hdsc and its .cu with nvcc for sm_80 and sm_90
# (no GPU needed): the emitted code must be valid CUDA C++ without warnings.
set -euo pipefail
hdsc=$1
nvcc=$2
input=$3
runtime=$4
out=$5
root=$(cd "$(dirname "$0")/../.." && pwd)
name=$(basename "$input" .hds)
mkdir -p "$out"
"$hdsc" "$input" -I "$root/stdlib" -o "$out/$name.cu"
"$nvcc" -c -std=c++17 -I "$runtime" -Werror all-warnings \
    -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
    "$out/$name.cu" -o "$out/$name.o"
echo "nvcc: $name.cu compiled for sm_80 and sm_90"
