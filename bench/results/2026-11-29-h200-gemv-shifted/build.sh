#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the GEMM sweep graphs (every size symbolic; f16 and bf16
# for sm_90a, f16 for the default target) with the stdlib of REV (`old`: matmul_gemv_split at M = 1
# where b's rows are not 16-byte multiples, element by element), the tree's (`new`:
# matmul_gemv_shifted there, 16 bytes at a time), `u2` (its U = 2 rows a step) and `m2` (it for M = 2
# too, before matmul_skinny_shifted).
#   bench/results/2026-11-29-h200-gemv-shifted/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init gemvsh "${1:?REV}"
stdlib_set gemvsh new >/dev/null
d=$(stdlib_set gemvsh u2)
stdlib_rule "$d/matmul_gemv_shifted.hds" 'U: i32 = 4 in {2, 4, 8}' 'U: i32 = 2 in {2, 4, 8}'
d=$(stdlib_set gemvsh m2)
python3 - "$d/nn.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a = s.index("    schedule gemv_shifted =")
e = s.index("K >= 2048;\n", a) + len("K >= 2048;\n")
block, s = s[a:e], s[:a] + s[e:]
anchor = "    // Where b's rows are not 16-byte multiples: from M = 2 on the tensor cores"
assert s.count(anchor) == 1
open(p, "w").write(s.replace(anchor, block + anchor))
PY
for s in u2 m2; do stdlib_set_changed gemvsh $s; done
stdlib_sets_emit gemvsh "old new u2 m2" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_gemm_bf16.hds \
    bench/sweep/sweep_gemm_f16_default.hds
