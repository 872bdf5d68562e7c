#!/usr/bin/env bash
# Emits the GEMM sweep's graphs (every size symbolic) for ../2026-11-28-h200-skinny-unaligned/run.py
# --tag lmhead into .devcarry/lmhead/SET: stdlib/ as committed at REV (`old`) and as it is in the
# tree (`new`). With --variant, `new` is the committed stdlib with the rule under test applied: the
# kernels for b's rows that are not 16-byte multiples (gemv_shifted1, gemv_shifted,
# skinny_shifted) from K = 2048, or below it where b has 2^23 elements (vocabulary projections).
#   bash bench/results/2026-12-03-h200-lm-head/build.sh REV [--variant]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init lmhead "$1"
d=$(stdlib_set lmhead new)
if [[ ${2:-} == --variant ]]; then
    cp /tmp/lmhead-stdlib/old/*.hds "$d/"
    for rule in "N >= 264 && K >= 2048;" "N >= 136 && K >= 2048;"; do
        python3 - "$d/nn.hds" "$rule" <<'PY'
import sys
p, rule = sys.argv[1:]
s = open(p).read()
assert s.count(rule) >= 1, rule
open(p, "w").write(s.replace(rule, rule.replace("K >= 2048;", "(K >= 2048 || K * N >= 8388608);")))
PY
    done
    stdlib_set_changed lmhead new
fi
stdlib_sets_emit lmhead "old new" "$root"/bench/sweep/sweep_gemm_{f16,bf16,f16_default}.hds
