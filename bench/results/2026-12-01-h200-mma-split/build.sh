#!/usr/bin/env bash
# Here, before run.sh / final.sh on the GPU machine: the GEMM sweep's graph for the default target
# (sm_80 schedules, every size symbolic: bench/sweep/sweep_gemm_f16_default.hds) and an sm_80 bf16
# copy of it, emitted with the stdlib of REV (`old`), the tree's (`new`) and variants of the tree's:
#   narrow  mma_split at most 66 tiles from K = 1024, whatever M
#   wide    mma_split at most 132 tiles from K = 1024, whatever M
#   skinny1 one row against 16-byte rows on matmul_skinny again (gemv_shifted1 for other rows only)
#   gemv2   gemv_shifted for two rows against 16-byte rows too, as gemv_shifted1 takes one
#   s4      matmul_mma (past the split) 4 stages deep, not 3
#   bn256   matmul_mma (past the split) in 128 x 256 tiles, warps of 64 x 64, not 128 x 128
# A set named A+B takes both edits. Call 1 ran old, narrow+skinny1 (`new` in its logs),
# wide+skinny1 (`wide`), narrow (`gemv1`), narrow+gemv2 (`gemv2`); call 2 old and new (REV
# ae6ac7e); call 3 old (REV d814b55), new, s4, bn256.
#   [SETS="old new ..."] bench/results/2026-12-01-h200-mma-split/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
sets=${SETS:-old new}
stdlib_sets_init mmasplit "${1:?REV}"
split_rule="K >= 1024
             && ((M + 127) / 128 * ((N + 127) / 128) <= 66 && K >= 8 * M || (M + 127) / 128 * ((N + 127) / 128) <= 132 && K >= 16 * M);"
one_rule="when M <= 1 && (!(K % 8 == 0 && N % 8 == 0) || K * N >= 4194304) && N >= 264 && K >= 2048;"
for set in $sets; do
    [[ $set != old ]] || continue
    d=$(stdlib_set mmasplit "$set")
    for edit in ${set//+/ }; do
        case $edit in
        new) ;;
        narrow) stdlib_rule "$d/nn.hds" "$split_rule" "K >= 1024 && (M + 127) / 128 * ((N + 127) / 128) <= 66;" ;;
        wide) stdlib_rule "$d/nn.hds" "$split_rule" "K >= 1024 && (M + 127) / 128 * ((N + 127) / 128) <= 132;" ;;
        skinny1) stdlib_rule "$d/nn.hds" "$one_rule" "when M <= 1 && !(K % 8 == 0 && N % 8 == 0) && N >= 264 && K >= 2048;" ;;
        gemv2) stdlib_rule "$d/nn.hds" "when M <= 2 && !(K % 8 == 0 && N % 8 == 0) && N >= 264 && K >= 2048;" \
            "when M <= 2 && (!(K % 8 == 0 && N % 8 == 0) || K * N >= 4194304) && N >= 264 && K >= 2048;" ;;
        s4) stdlib_rule "$d/nn.hds" "schedule mma = matmul_mma for" "schedule mma = matmul_mma<STAGES = 4> for" ;;
        bn256) stdlib_rule "$d/nn.hds" "schedule mma = matmul_mma for" "schedule mma = matmul_mma<BN = 256> for" ;;
        *) echo "build.sh: no edit '$edit'" >&2; exit 1 ;;
        esac
    done
    stdlib_set_changed mmasplit "$set"
done
g=.devcarry/mmasplit-graphs && mkdir -p $g
cat >$g/sweep_gemm_bf16_sm80.hds <<'HDS'
// bench/sweep/sweep_gemm_f16_default.hds in bf16, the sm_80 target declared.
target sm_80;
import "nn.hds";
graph sweep_gemm_bf16_sm80(a: bf16[M, K], b: bf16[K, N]) -> bf16[M, N] { return matmul(a, b); }
HDS
stdlib_sets_emit mmasplit "$sets" bench/sweep/sweep_gemm_f16_default.hds $g/sweep_gemm_bf16_sm80.hds
