# Here: emits bench/sweep/sweep_gemm_f32.hds (target sm_90a) with this tree's stdlib (after) and that
# of REV, the commit before the split (before), into .devcarry/DIR/{after,before} for run.py (DIR:
# f32-split, or the second argument; 2026-11-26-h100-f32-split4 used f32-split4).
#   bash bench/results/2026-11-26-h100-f32-split/emit.sh REV [DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
out=$root/.devcarry/${2:-f32-split}
rm -rf "$out/after" "$out/before" && mkdir -p "$out/after" "$out/before/stdlib"
git -C "$root" archive "$1" stdlib | tar -x -C "$out/before"
"$root/build/hdsc" "$root/bench/sweep/sweep_gemm_f32.hds" -I "$root/stdlib" -o "$out/after/sweep_gemm_f32.cu"
"$root/build/hdsc" "$root/bench/sweep/sweep_gemm_f32.hds" -I "$out/before/stdlib" -o "$out/before/sweep_gemm_f32.cu"
rm -rf "$out/before/stdlib"
