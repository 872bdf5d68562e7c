#!/usr/bin/env bash
# Emits the GEMM sweep graphs (every size symbolic) for ../2026-11-28-h200-skinny-unaligned/run.py
# --tag occ into .devcarry/occ/SET, the sets of one A/B (README):
#   bash build.sh first REV  call2: stdlib/ as committed at REV (e76b328, `old`: three stages, one block a
#                            multiprocessor), and the tree's kernel without skinny_shifted2's case: two
#                            stages at two blocks a multiprocessor for every N (`new`), three stages at
#                            one (`occ1`)
#   bash build.sh atomics REV  call1: the same with the warps' sums added by atomic_add into one buffer
#   bash build.sh occ2       call3: the tree (`new`: three stages) against two stages at two blocks a
#                            multiprocessor for every N (`occ2`)
#   bash build.sh vocab      call4: the tree against the kernels of shifted rows taking vocabularies of
#                            16-byte rows too from N = 32768 (`vocab`)
#   bash build.sh pad16      call5: the tree against skinny_shifted2's rows of b 288 bytes apart (`pad16`:
#                            99840 bytes, under an sm_86/89 block's 99 KiB; two-way ldmatrix conflicts)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init occ "${2:-HEAD}"
stdlib_set occ new >/dev/null
graphs=("$root"/bench/sweep/sweep_gemm_f16.hds)
# call1-2's nn.hds: no skinny_shifted2 case; `new` ran the two-block kernel wherever skinny_shifted did.
one_case() {
    python3 - "$1/nn.hds" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
s, n = re.subn(r"    // Past 66 strips of 128 columns.*?\n    schedule skinny_shifted2 = .*?;\n", "", s, flags=re.S)
assert n == 1
open(p, "w").write(s)
PY
}
# call1's sums: atomic_add into one buffer of 16 rows, zeroed first.
atomics() {
    stdlib_rule "$1/matmul_skinny_shifted.hds" "var sums: shared f32[2, 16, GS_COLS + 8];" "var sums: shared f32[16, GS_COLS + 8];"
    stdlib_rule "$1/matmul_skinny_shifted.hds" "    // The 8 columns past the copied chunks" \
        "    @unroll for (r, n) in repeat(16 * GS_COLS / 256, 1) * spatial(256 / GS_COLS, GS_COLS) on threadIdx.x {
        sums[r, n] = 0.0;
    }
    // The 8 columns past the copied chunks"
    python3 - "$1/matmul_skinny_shifted.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
i, j = s.index("    @unroll for round in 0..4 {"), s.index("    @unroll for (r, n) in repeat(16 * GS_COLS / 256, 1)", s.index("for round"))
s = s[:i] + """    syncthreads();
    @unroll for j in 0..CB {
        @unroll for e in 0..4 {
            let n = j * 8 + t4 * 2 + e % 2 - shift;
            if (n >= 0 && n < GS_COLS) {
                atomic_add(sums[g + e / 2 * 8, n], acc[j, e]);
            }
        }
    }
    syncthreads();
""" + s[j:]
assert s.count("sums[0, r, n] + sums[1, r, n]") == 1
open(p, "w").write(s.replace("sums[0, r, n] + sums[1, r, n]", "sums[r, n]"))
PY
}
# A set SET of the tree's stdlib with one edit of FILE (OLD -> NEW), against the tree.
variant() {
    stdlib_rule "$(stdlib_set occ "$1")/$2" "$3" "$4"
    sets="new $1"
}
case $1 in
first | atomics)
    one_case /tmp/occ-stdlib/new
    stdlib_rule /tmp/occ-stdlib/new/nn.hds "schedule skinny_shifted = matmul_skinny_shifted then" \
        "schedule skinny_shifted = matmul_skinny_shifted<STAGES = 2, OCC = 2> then"
    d=$(stdlib_set occ occ1)
    one_case "$d"
    if [[ $1 == atomics ]]; then
        atomics /tmp/occ-stdlib/new
        atomics "$d"
    fi
    sets="old new occ1" graphs+=("$root"/bench/sweep/sweep_gemm_bf16.hds) ;;
occ2)
    variant occ2 nn.hds "schedule skinny_shifted = matmul_skinny_shifted then" \
        "schedule skinny_shifted = matmul_skinny_shifted<STAGES = 2, OCC = 2> then" ;;
vocab)
    variant vocab nn.hds "    schedule swap16_deep = " "    schedule vocab_gemv1 = matmul_gemv_shifted<COLS = 248, MR = 1> then matmul_parts_combine for f16, bf16
        when M <= 1 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule vocab_gemv = matmul_gemv_shifted<COLS = 248> then matmul_parts_combine for f16, bf16
        when M <= 2 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule vocab_skinny = matmul_skinny_shifted then matmul_parts_combine for f16, bf16
        when M <= 16 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule swap16_deep = "
    graphs+=("$root"/bench/sweep/sweep_gemm_bf16.hds) ;;
pad16)
    variant pad16 matmul_skinny_shifted.hds "var sb: shared T[STAGES, BK, GS_COLS + 24];" \
        "var sb: shared T[STAGES, BK, GS_COLS + (OCC == 2 ? 16 : 24)];" ;;
*) echo "build.sh: first REV | atomics REV | occ2 | vocab | pad16" >&2; exit 1 ;;
esac
stdlib_sets_emit occ "$sets" "${graphs[@]}"
