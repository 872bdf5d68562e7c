#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# stdlib of REV (`old`: swap16_one, a block per tile of 64 columns up to 132 tiles, K split only
# up to 66) and variants:
#   s88    K split over clusters of 2 from 67 to 88 tiles too, for one consumer of 16 rows
#   one48  17-48 rows from 67 to 132 tiles on one consumer with 8 stages (swap32 and swap48 take
#          two groups there, 128 columns a block)
#   bench/results/2026-11-28-h200-swap-split88/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init split88 "${1:?REV}"
d=$(stdlib_set split88 s88)
python3 - "$d/matmul_wgmma_swap.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a = "(M + BMS - 1) / BMS * ((N + 63) / 64) <= 66\n"
b = "((M + BMS - 1) / BMS * ((N + 63) / 64) <= 66 || WGS == 1 && BMS == 16 && (N + 63) / 64 <= 88)\n"
c, d = "SPLITK > 1 && tiles64 <= 66 ?", "SPLITK > 1 && (tiles64 <= 66 || WGS == 1 && BMS == 16 && tiles64 <= 88) ?"
assert s.count(a) == 2 and s.count(c) == 1
open(p, "w").write(s.replace(a, b).replace(c, d))
PY
d=$(stdlib_set split88 one48)
python3 - "$d/nn.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "    schedule swap32 = "
add = ""
for lo, n in ((16, 32), (32, 48)):
    add += (f"    schedule swap{n}_one = matmul_wgmma_swap<BMS = {n}, WGS = 1, STAGES = 8, SPLITK = 8> for f16, bf16\n"
            f"        when M > {lo} && M <= {n} && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304\n"
            f"             && (N + 63) / 64 > 66 && (N + 63) / 64 <= 132;\n")
assert s.count(anchor) == 1
open(p, "w").write(s.replace(anchor, add + anchor))
PY
for s in s88 one48; do stdlib_set_changed split88 $s; done
stdlib_sets_emit split88 "old s88 one48" bench/sweep/sweep_gemm_f16.hds
