# Here (no GPU needed): emits and builds variants.hds into .devcarry/f16-mid for run_variants.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-f16-mid-rows
out=$root/.devcarry/f16-mid
mkdir -p "$out"
"$root/build/hdsc" "$here/variants.hds" -I "$root/stdlib" -o "$out/variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libvariants.so" -lcuda 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
