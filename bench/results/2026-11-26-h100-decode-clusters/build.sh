# Here (no GPU needed): emits and builds decode_variants.hds into .devcarry/decode-variants for
# run_decode.py, as tests/gpu/harness.py would build it, with ptxas's register report.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-26-h100-decode-clusters
out=$root/.devcarry/decode-variants
mkdir -p "$out"
"$root/build/hdsc" "$here/decode_variants.hds" -I "$root/stdlib" -I "$here" -o "$out/decode_variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/decode_variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libdecode_variants.so" 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
