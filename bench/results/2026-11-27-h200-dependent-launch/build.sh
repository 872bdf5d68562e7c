#!/usr/bin/env bash
# Emits the graphs run.py times into .devcarry/pdl/SET with one compiler: `pdl` (as hdsc
# emits by default: a `then` schedule's second kernel launches programmatically after the
# first) and `plain` (--no-dependent-launch: it launches once the first has finished).
#   bash bench/results/2026-11-27-h200-dependent-launch/build.sh [build-dir]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
hdsc=${1:-$root/build}/hdsc
out=$root/.devcarry/pdl
rm -rf "$out"
for set in pdl plain; do
    mkdir -p "$out/$set"
    flags=()
    [[ $set == plain ]] && flags=(--no-dependent-launch)
    for g in sweep_llama_mlp sweep_attention_gqa_d64 sweep_attention_gqa_d128 sweep_rms_norm_f16 sweep_gemm_f16; do
        "$hdsc" "$root/bench/sweep/$g.hds" -I "$root/stdlib" "${flags[@]}" -o "$out/$set/$g.cu"
    done
done
echo "pdl plain" >"$out/sets"
