# Here (no GPU needed): emits and builds f32_variants.hds into .devcarry/f32-split for
# run_variants.py, as tests/gpu/harness.py would build it, with ptxas's register report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-f32-split
out=$root/.devcarry/f32-split
mkdir -p "$out"
"$root/build/hdsc" "$here/f32_variants.hds" -I "$root/stdlib" -I "$here" -o "$out/f32_variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/f32_variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libf32_variants.so" 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
