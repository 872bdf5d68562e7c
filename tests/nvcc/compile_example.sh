#!/usr/bin/env bash
# Compiles an example with hdsc and its .cu with nvcc for sm_80 and sm_90 (and
# sm_75 without tensor cores), or for sm_90a when the example asks for
# --arch=sm_90a (no GPU needed): the emitted code must be valid CUDA C++ without warnings.
set -euo pipefail
hdsc=$1
nvcc=$2
input=$3
runtime=$4
out=$5
root=$(cd "$(dirname "$0")/../.." && pwd)
name=$(basename "$input" .hds)
mkdir -p "$out"
flags=$("$root/scripts/hdsc_flags.sh" "$input")
# shellcheck disable=SC2086  # the flags are words
"$hdsc" "$input" -I "$root/stdlib" $flags -o "$out/$name.cu"
targets=(-gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90)
# Code without tensor-core built-ins also builds for Turing (sm_75).
grep -qE "hds::(mma_|ldmatrix|cp_async)" "$out/$name.cu" || targets+=(-gencode arch=compute_75,code=sm_75)
[[ $flags == *sm_90a* ]] && targets=(-gencode arch=compute_90a,code=sm_90a)
log=$("$nvcc" -c -std=c++17 -I "$runtime" -Werror all-warnings "${targets[@]}" "$out/$name.cu" -o "$out/$name.o" 2>&1) ||
    { echo "$log"; exit 1; }
# ptxas reports (as info, not a warning) when it serializes wgmma instructions: a third of a
# GEMM's speed (bench/results/README.md, 2026-11-23-h100-split-epilogue).
if grep -q "C7514" <<<"$log"; then
    echo "$log"
    echo "FAIL: ptxas serialized the wgmma pipeline of $name.cu (C7514)"
    exit 1
fi
echo "nvcc: $name.cu compiled for ${targets[*]}"
