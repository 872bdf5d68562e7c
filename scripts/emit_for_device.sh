#!/usr/bin/env bash
# Emits every .cu the GPU machine needs into .devcarry/emitted (hdsc does not run
# there): the examples, the benchmark graphs and kernels, the GPU test graphs.
# Then, on the device with `.devcarry` carried: bash bench/run_perf_on_device.sh
#   scripts/emit_for_device.sh [build-dir]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
hdsc=${1:-$root/build}/hdsc
out=$root/.devcarry/emitted
rm -rf "$out"
mkdir -p "$out"
# The schedule choices `hdsc tune` made on the H100 for the benchmark graphs (bench/run_tune_on_device.sh).
cache=()
[[ -f $root/bench/hds-tune.json ]] && cache=(--tune-cache "$root/bench/hds-tune.json")
for f in "$root"/examples/*.hds "$root"/bench/memory_ops/*.hds "$root"/bench/tc_variants/*.hds \
    "$root"/bench/gemm_variants/*.hds "$root"/bench/graphs/*.hds "$root"/bench/tune/*.hds \
    "$root"/bench/sweep/*.hds "$root"/tests/gpu/ops/*.hds "$root"/tests/golden/cluster_per_call.hds; do
    # One folder for all: two inputs of one name would overwrite each other's .cu.
    [[ ! -e "$out/$(basename "$f" .hds).cu" ]] || { echo "emit_for_device: two inputs named $(basename "$f")" >&2; exit 1; }
    "$hdsc" "$f" -I "$root/stdlib" "${cache[@]}" -o "$out/$(basename "$f" .hds).cu"
done
echo "emitted $(ls "$out"/*.cu | wc -l) .cu files into $out"
# hdsc itself (stripped) and the libraries it needs, for `hdsc tune` on the GPU machine:
#   LD_LIBRARY_PATH=.devcarry/lib .devcarry/bin/hdsc tune ...
mkdir -p "$root/.devcarry/bin" "$root/.devcarry/lib"
strip -o "$root/.devcarry/bin/hdsc" "$hdsc"
ldd "$hdsc" | awk '/antlr4|fmt/ {print $3}' | xargs -I{} cp -L {} "$root/.devcarry/lib/"
echo "copied hdsc ($(du -h "$root/.devcarry/bin/hdsc" | cut -f1)) and $(ls "$root/.devcarry/lib" | wc -l) libraries"
