#!/usr/bin/env bash
# The third A/B (README, `call4/`): decoding against a vocabulary whose rows are 16-byte multiples
# (GPT-2's padded 50304, Llama's 32000 and 128256): the tree (`new`: the swapped wgmma product) against
# the kernels of shifted rows taking such weights too from N = 32768 (`vocab`), into .devcarry/occ/SET.
#   bash bench/results/2026-12-04-h200-skinny-occupancy/build3.sh
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init occ HEAD
stdlib_set occ new >/dev/null
d=$(stdlib_set occ vocab)
stdlib_rule "$d/nn.hds" "    schedule swap16_deep = " "    schedule vocab_gemv1 = matmul_gemv_shifted<COLS = 248, MR = 1> then matmul_parts_combine for f16, bf16
        when M <= 1 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule vocab_gemv = matmul_gemv_shifted<COLS = 248> then matmul_parts_combine for f16, bf16
        when M <= 2 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule vocab_skinny = matmul_skinny_shifted then matmul_parts_combine for f16, bf16
        when M <= 16 && K % 8 == 0 && N % 8 == 0 && N >= 32768 && K * N >= 8388608;
    schedule swap16_deep = "
stdlib_sets_emit occ "new vocab" "$root"/bench/sweep/sweep_gemm_{f16,bf16}.hds
