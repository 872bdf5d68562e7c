#!/usr/bin/env bash
# Here, before run.sh on the GPU machine: the f16 GEMM sweep graph (every size symbolic) with the
# stdlib of REV (`old`) and variants of the swapped product between 67 and 132 tiles of 64
# columns (N = 4288 ... 8448 at M <= 16: `swap16` takes two consumer groups, 128 columns a block,
# K not split: 48 blocks at N = 6144; 129-192 rows run 64 x 128 tiles there):
#   one    swap16_one (one consumer, 8 stages) up to 132 tiles: a block per tile of 64 columns
#   sp     `one`, and K split over clusters of 2 from 67 to 132 tiles (two blocks a multiprocessor)
#   w192   the swapped product in tiles of 144 ... 192 rows from 67 to 132 tiles too (one consumer,
#          not split), ahead of the 64 x 192 tiles
#   bench/results/2026-11-28-h200-swap-wide/build.sh REV
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
source bench/stdlib_sets.sh
stdlib_sets_init wide "${1:?REV}"
one() {
    stdlib_rule "$1/nn.hds" 'when M <= 16 && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304 && (N + 63) / 64 <= 66;' \
        'when M <= 16 && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304 && (N + 63) / 64 <= 132;'
}
d=$(stdlib_set wide one)
one "$d"
d=$(stdlib_set wide sp)
one "$d"
python3 - "$d/matmul_wgmma_swap.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a, b = "((N + 63) / 64) <= 66\n", "((N + 63) / 64) <= 132\n"
c, d = "SPLITK > 1 && tiles64 <= 66 ?", "SPLITK > 1 && tiles64 <= 132 ?"
assert s.count(a) == 2 and s.count(c) == 1
open(p, "w").write(s.replace(a, b).replace(c, d))
PY
d=$(stdlib_set wide w192)
python3 - "$d/nn.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
anchor = "    schedule wgmma64x192 = "
add = ""
for lo, n in ((128, 144), (144, 160), (160, 176), (176, 192)):
    add += (f"    schedule swap{n}w = matmul_wgmma_swap<BMS = {n}, WGS = 1, STAGES = 8, SPLITK = 8> for f16, bf16\n"
            f"        when M > {lo} && M <= {n} && K % 8 == 0 && N % 8 == 0 && K * N >= 4194304\n"
            f"             && (N + 63) / 64 > 66 && (N + 63) / 64 <= 132;\n")
assert s.count(anchor) == 1
open(p, "w").write(s.replace(anchor, add + anchor))
PY
for s in one sp w192; do stdlib_set_changed wide $s; done
stdlib_sets_emit wide "old one sp w192" bench/sweep/sweep_gemm_f16.hds
