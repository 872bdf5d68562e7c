#!/usr/bin/env bash
# Regenerates the golden files after an intended change to emitted code:
#   scripts/update_golden.sh [build-dir]     (then review `git diff tests/golden`)
# Inputs are tests/golden/*.hds plus the showcase examples listed below.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
hdsc=${1:-$root/build}/hdsc
showcase=(matmul_tiled matmul_tc matmul_hopper softmax gelu_f16 mlp resnet_block transformer_block)
inputs=("$root"/tests/golden/*.hds)
for ex in "${showcase[@]}"; do inputs+=("$root/examples/$ex.hds"); done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for input in "${inputs[@]}"; do
    name=$(basename "$input" .hds)
    "$hdsc" "$input" -I "$root/stdlib" --verify-ir -o "$work/$name.cu" --manifest "$work/$name.json"
    cp "$work/$name.cu" "$root/tests/golden/$name.expected.cu"
    cp "$work/$name.h" "$root/tests/golden/$name.expected.h"
    sed "s#$root/##g" "$work/$name.json" >"$root/tests/golden/$name.expected.json"
    echo "updated tests/golden/$name.expected.{cu,h,json}"
done
