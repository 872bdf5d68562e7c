#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the Llama MLP sweep graph (every size symbolic) with
# the stdlib of REV (`old`: before `swiglu`, the gate and up projections as two matmuls, silu·mul
# fused into the second's epilogue), the tree's (`new`), and variants of swiglu's tiles; and, for
# bench_torch.py's Llama layer, hdsc beside REV's stdlib in .devcarry/old (the backend's `old`).
#   bench/results/2026-11-28-h200-swiglu/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init swiglu "${1:?REV}"
stdlib_set swiglu new >/dev/null
rule='schedule glu = matmul_wgmma_glu for f16, bf16 when M > 64;'
d=$(stdlib_set swiglu n64)    # 128 x 64 outputs (the work of 128 x 128 matmul tiles) past 64 rows
stdlib_rule "$d/nn.hds" "$rule" 'schedule glu = matmul_wgmma_glu<BN = 64, STAGES = 6> for f16, bf16 when M > 64;'
d=$(stdlib_set swiglu m64)    # 64 x 128 outputs (one consumer, 128 accumulators a thread)
stdlib_rule "$d/nn.hds" "$rule" 'schedule glu = matmul_wgmma_glu<BM = 64, STAGES = 5> for f16, bf16 when M > 64;'
d=$(stdlib_set swiglu all64)  # 64 x 64 outputs at every size past 16 rows
stdlib_rule "$d/nn.hds" "$rule" 'schedule glu = matmul_wgmma_glu<BM = 64, BN = 64, STAGES = 6> for f16, bf16 when M > 64;'
for s in n64 m64 all64; do stdlib_set_changed swiglu $s; done
stdlib_sets_emit swiglu "old new n64 m64 all64" bench/sweep/sweep_llama_mlp.hds
rm -rf .devcarry/old && mkdir -p .devcarry/old/bin
strip -o .devcarry/old/bin/hdsc build/hdsc && cp -r /tmp/swiglu-stdlib/old .devcarry/old/stdlib
