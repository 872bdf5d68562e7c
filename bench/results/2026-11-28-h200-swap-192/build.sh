#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM and Llama MLP sweep graphs (every size
# symbolic) with the stdlib of REV (`old`: 129-192 rows on 64 x 128 tiles), the tree's (`new`:
# the swapped product in tiles of 144, 160, 176 or 192 rows, 40 to 66 tiles of 64 columns), and
# `w192` (192-row tiles for all of 129-192 rows).
#   bench/results/2026-11-28-h200-swap-192/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init swap192 "${1:?REV}"
stdlib_set swap192 new >/dev/null
d=$(stdlib_set swap192 w192)
python3 - "$d/nn.hds" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
for n in (144, 160, 176):
    s, k = re.subn(rf"    schedule swap{n} = .*?\n.*?\n.*?\n", "", s, count=1)
    assert k == 1
a = "when M > 176 && M <= 192"
assert s.count(a) == 1
open(p, "w").write(s.replace(a, "when M > 128 && M <= 192"))
PY
stdlib_set_changed swap192 w192
stdlib_sets_emit swap192 "old new w192" bench/sweep/sweep_gemm_f16.hds bench/sweep/sweep_llama_mlp.hds
