#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# stdlib of REV (`old`) and variants between 67 and 132 tiles of 64 columns:
#   s48    K split over clusters of 2 up to 88 tiles for one consumer of up to 48 rows (16 before)
#   one128 65-128 rows on the swapped product (one consumer, 8 stages, a block per tile of 64
#          columns) where 64 x 128 tiles run now
#   bench/results/2026-11-28-h200-swap-mid/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init mid "${1:?REV}"
d=$(stdlib_set mid s48)
python3 - "$d/matmul_wgmma_swap.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a, b = "WGS == 1 && BMS == 16 &&", "WGS == 1 && BMS <= 48 &&"
assert s.count(a) == 3
open(p, "w").write(s.replace(a, b))
PY
d=$(stdlib_set mid one128)
python3 - "$d/nn.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "    schedule swap144 = "
add = ""
for lo, n in ((64, 80), (80, 96), (96, 112), (112, 128)):
    add += (f"    schedule swap{n}_one = matmul_wgmma_swap<BMS = {n}, WGS = 1, STAGES = 8, SPLITK = 8> for f16, bf16\n"
            f"        when M > {lo} && M <= {n} && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304\n"
            f"             && (N + 63) / 64 > 66 && (N + 63) / 64 <= 132;\n")
assert s.count(anchor) == 1
open(p, "w").write(s.replace(anchor, add + anchor))
PY
for s in s48 one128; do stdlib_set_changed mid $s; done
stdlib_sets_emit mid "old s48 one128" bench/sweep/sweep_gemm_f16.hds
