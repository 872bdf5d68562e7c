# Here (no GPU needed): emits and builds VARIANTS (default variants.hds) into .devcarry/OUT
# (default swap) for run_variants.py: bash build.sh [VARIANTS OUT]. variants3.hds also takes
# matmul_wgmma_swap.hds of commit 091effc, renamed matmul_wgmma_swap_before; variants4.hds that of
# commit a205c8c (variants3's n*), renamed matmul_wgmma_swap_v3.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
here=$root/bench/results/2026-11-27-h200-swap-tiles
out=$root/.devcarry/${2:-swap}
mkdir -p "$out"
git -C "$root" show 091effc:stdlib/matmul_wgmma_swap.hds |
    sed -e 's/matmul_wgmma_swap</matmul_wgmma_swap_before</' -e 's/const SW_BK: i32/const SW_BK_BEFORE: i32/' \
        -e 's/\bSW_BK\b/SW_BK_BEFORE/g' > "$out/matmul_wgmma_swap_before.hds"
git -C "$root" show a205c8c:stdlib/matmul_wgmma_swap.hds |
    sed -e 's/matmul_wgmma_swap</matmul_wgmma_swap_v3</' -e 's/\bSW_BK\b/SW_BK_V3/g' > "$out/matmul_wgmma_swap_v3.hds"
"$root/build/hdsc" "$here/${1:-variants.hds}" -I "$root/stdlib" -I "$out" -I "$here" -o "$out/variants.cu"
nvcc -shared -Xcompiler -fPIC -std=c++17 -O3 -I "$root/runtime" -gencode arch=compute_90a,code=sm_90a -Xptxas -v \
    "$out/variants.cu" "$root/tests/gpu/shim.cu" -o "$out/libvariants.so" -lcuda 2>&1 |
    grep -E "Compiling entry|spill|Used" > "$out/ptxas.txt"
