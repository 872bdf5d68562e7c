# Here (no GPU needed): emits and builds VARIANTS (variants.hds) into .devcarry/OUT (split4) for
# ../2026-11-26-h100-f16-mid-rows/run_variants.py: bash build.sh [VARIANTS OUT].
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-27-h200-split4
out=$root/.devcarry/${2:-split4}
mkdir -p "$out"
"$root/build/hdsc" "$here/${1:-variants.hds}" -I "$root/stdlib" -I "$here" -o "$out/variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libvariants.so" -lcuda 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
