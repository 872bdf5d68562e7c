#!/usr/bin/env bash
# Emits the GEMM sweep graphs (sm_90a and the default target, sm_80) for run.py into
# .devcarry/gemvsplit/SET: `new` with stdlib/ as it is, `old` without nn.hds's gemv_split
# (matmul_gemv alone for M <= 2 where K or N is not a multiple of 8); `one`: new with the split
# from about one block per multiprocessor at every N, `w2`: from two (nn.hds: two past 66
# strips of 128 columns); `f32`: new with the split for f32 too (M <= 2, K, N >= 2048).
# SETS=... (default: old new)
#   bash bench/results/2026-11-27-h200-gemv-split/build.sh [build-dir]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
hdsc=${1:-$root/build}/hdsc
out=$root/.devcarry/gemvsplit
rm -rf "$out" /tmp/gemvsplit-stdlib
mkdir -p /tmp/gemvsplit-stdlib/old
cp "$root"/stdlib/*.hds /tmp/gemvsplit-stdlib/old/
python3 - /tmp/gemvsplit-stdlib/old/nn.hds <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
rule = """    schedule gemv_split = matmul_gemv_split then matmul_parts_combine for f16, bf16
        when M <= 2 && !(K % 8 == 0 && N % 8 == 0) && K >= 2048;
"""
assert rule in s
open(p, "w").write(s.replace(rule, ""))
PY
sets=${SETS:-old new}
for set in one w2; do  # the split from one block per multiprocessor always, or from two
    mkdir -p /tmp/gemvsplit-stdlib/$set
    cp "$root"/stdlib/*.hds /tmp/gemvsplit-stdlib/$set/
done
sed -i 's|> 66 ? 264 : 132)|> 66 ? 132 : 132)|g' /tmp/gemvsplit-stdlib/one/matmul_gemv_split.hds
sed -i 's|> 66 ? 264 : 132)|> 66 ? 264 : 264)|g' /tmp/gemvsplit-stdlib/w2/matmul_gemv_split.hds
mkdir -p /tmp/gemvsplit-stdlib/f32  # the split for f32 too (M <= 2, K and N >= 2048), before matmul_gemv
cp "$root"/stdlib/*.hds /tmp/gemvsplit-stdlib/f32/
python3 - /tmp/gemvsplit-stdlib/f32/nn.hds <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
rule = "    schedule gemv_simt = matmul_gemv when M <= 4 && N >= 2048;\n"
assert rule in s
open(p, "w").write(s.replace(rule, "    schedule gemv_split_simt = matmul_gemv_split then matmul_parts_combine\n"
                                   "        when M <= 2 && K >= 2048 && N >= 2048;\n" + rule))
PY
for set in one w2; do
    if diff -q /tmp/gemvsplit-stdlib/$set/matmul_gemv_split.hds "$root/stdlib/matmul_gemv_split.hds" >/dev/null; then
        echo "$set changed nothing" >&2
        exit 1
    fi
done
for set in $sets; do
    mkdir -p "$out/$set"
    inc=$root/stdlib
    [[ $set == new ]] || inc=/tmp/gemvsplit-stdlib/$set
    for g in sweep_gemm_f16 sweep_gemm_bf16 sweep_gemm_f16_default sweep_gemm_f32; do
        "$hdsc" "$root/bench/sweep/$g.hds" -I "$inc" -o "$out/$set/$g.cu" 2>/dev/null
    done
done
echo "$sets" >"$out/sets"
