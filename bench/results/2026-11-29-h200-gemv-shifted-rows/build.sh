#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_gemv_shifted
# converting each value of b once per row of a), the tree's (`new`: once), `m2` (it for M = 2 too,
# before matmul_skinny_shifted) and `m4` (as m2, and blocks of 4 rows of a, U = 2 rows of b a step, for M = 3 and 4: U = 4 spilled).
#   bench/results/2026-11-29-h200-gemv-shifted-rows/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init gsrows "${1:?REV}"
stdlib_set gsrows new >/dev/null
for s in m2 m4; do
    d=$(stdlib_set gsrows $s)
    python3 - "$d/nn.hds" $s <<'PY'
import sys
p, s = sys.argv[1], sys.argv[2]
t = open(p).read()
a = t.index("    schedule gemv_shifted =")
e = t.index("K >= 2048;\n", a) + len("K >= 2048;\n")
block, t = t[a:e], t[:a] + t[e:]
if s == "m4":
    block += block.replace("gemv_shifted =", "gemv_shifted4 =").replace("<COLS = 248>", "<COLS = 248, U = 2, MR = 4>") \
                  .replace("when M <= 2 &&", "when M <= 4 &&")
anchor = "    schedule skinny_shifted ="
i = t.index(anchor)
i = t.rindex("\n    // ", 0, i)  # before its comment
i = t.index("\n", i - 1) + 1 if False else t.rindex("\n", 0, t.index(anchor)) + 1
open(p, "w").write(t[:i] + block + t[i:])
PY
    stdlib_set_changed gsrows $s
done
stdlib_sets_emit gsrows "old new m2 m4" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
