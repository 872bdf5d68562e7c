#!/usr/bin/env bash
# Compiles an example with a bare `hdsc FILE -I stdlib -o OUT.cu` (the target is the
# file's: docs/cli.md) and its .cu with nvcc for the -gencode targets the .cu's
# "// Build:" line prints (plus sm_75 for code without tensor-core built-ins; no
# GPU needed): the emitted code must be valid CUDA C++ without warnings. With an empty nvcc
# argument (the sanitizer build), only the hdsc step runs.
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
# The sanitizer build passes no nvcc: hdsc ran (under ASan/UBSan); the build without sanitizers
# compiles the same .cu.
[[ -n $nvcc ]] || { echo "emitted $name.cu (nvcc runs in the build without sanitizers)"; exit 0; }
# shellcheck disable=SC2207  # the flags are words
targets=($(grep -m1 '^// Build: nvcc ' "$out/$name.cu" | grep -o -- '-gencode=[^ ]*'))
[[ ${#targets[@]} -gt 0 ]] || { echo "FAIL: $name.cu prints no '// Build: nvcc ... -gencode=...' line"; exit 1; }
# Code without tensor-core built-ins also builds for Turing (sm_75).
[[ ${targets[*]} != *sm_90a* ]] && ! grep -qE "hds::(mma_|ldmatrix|cp_async)" "$out/$name.cu" &&
    targets+=(-gencode=arch=compute_75,code=sm_75)
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
