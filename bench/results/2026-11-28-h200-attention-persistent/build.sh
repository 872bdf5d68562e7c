# Here (no GPU needed): emits and builds attention_variants.hds into .devcarry/attention-persistent
# (libattention_variants.so, attention_variants.h) for run.sh, with ptxas's register report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-28-h200-attention-persistent
out=$root/.devcarry/attention-persistent
mkdir -p "$out"
"$root/build/hdsc" "$here/attention_variants.hds" -I "$root/stdlib" -I "$here" -o "$out/attention_variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/attention_variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libattention_variants.so" -lcuda 2>&1 |
    grep -E "Compiling entry|spill|Used|error" > "$out/ptxas.txt"
