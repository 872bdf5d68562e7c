# Here (no GPU needed): emits and builds f32_variants.hds (or, with `points`, points.hds) into
# .devcarry/f32-split for run_variants.py (run_points.py), with ptxas's register report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-f32-split
out=$root/.devcarry/f32-split
mkdir -p "$out"
name=${1:-f32_variants}
"$root/build/hdsc" "$here/$name.hds" -I "$root/stdlib" -I "$here" -o "$out/$name.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/$name.cu" "$root/tests/gpu/shim.cu" -o "$out/lib$name.so" 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas-$name.txt"
