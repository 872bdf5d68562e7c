# Here (no GPU needed): emits and builds points.hds into .devcarry/f32-split4 for ../2026-11-26-h100-f32-split/run_points.py, with
# ptxas's register report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-f32-split4
out=$root/.devcarry/f32-split4
mkdir -p "$out"
"$root/build/hdsc" "$here/points.hds" -I "$root/stdlib" -o "$out/points.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/points.cu" "$root/tests/gpu/shim.cu" -o "$out/libpoints.so" 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
