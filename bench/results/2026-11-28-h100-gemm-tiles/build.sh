#!/usr/bin/env bash
# The Llama layers' GEMMs (constant sizes, as the torch.compile backend writes them: the weights
# kept transposed, b = W^T as [K, N]) emitted with stdlib/ as committed at REV (`old`, default
# HEAD) and with one matmul_wgmma tile forced first in `matmul`'s schedules (bench/stdlib_sets.sh):
#   c2      128 x 128, CLUSTER = 2 (b's slices multicast to two blocks)
#   t256    128 x 256, persistent (CTAS = 132)
#   t256c2  the same, CLUSTER = 2
#   t192    192 x 128 (three consumers), persistent
#   t192c2  the same, CLUSTER = 2
#   s6      128 x 128, 6 stages
#   bash bench/results/2026-11-28-h100-gemm-tiles/build.sh [REV]
set -euo pipefail
root=$(git rev-parse --show-toplevel)
sets=${SETS:-old c2 t256 t256c2 t192 t192c2 s6}
source "$root/bench/stdlib_sets.sh"
stdlib_sets_init gemmtiles "${1:-HEAD}"
graphs=$root/.devcarry/gemmtiles/graphs
mkdir -p "$graphs"
# name M K N
while read -r name m k n; do
    cat >"$graphs/mm_$name.hds" <<HDS
// c = a @ b, $m x $k times $k x $n, f16.
target sm_90a;
import "nn.hds";
graph mm_$name(a: f16[$m, $k], b: f16[$k, $n]) -> f16[$m, $n] { return matmul(a, b); }
HDS
done <<'SHAPES'
gate1k 1024 4096 14336
down1k 1024 14336 4096
q1k 1024 4096 4096
kv1k 1024 4096 1024
gate512 512 4096 11008
down512 512 11008 4096
SHAPES
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set gemmtiles "$set")
    case $set in
    c2) s="matmul_wgmma<BM = 128, BN = 128, CTAS = 132, CLUSTER = 2>" ;;
    t256) s="matmul_wgmma<BM = 128, BN = 256, CTAS = 132>" ;;
    t256c2) s="matmul_wgmma<BM = 128, BN = 256, CTAS = 132, CLUSTER = 2>" ;;
    t192) s="matmul_wgmma<BM = 192, BN = 128, CTAS = 132>" ;;
    t192c2) s="matmul_wgmma<BM = 192, BN = 128, CTAS = 132, CLUSTER = 2>" ;;
    s6) s="matmul_wgmma<BM = 128, BN = 128, CTAS = 132, STAGES = 6>" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    python3 - "$d/nn.hds" "$s" <<'PY'
import sys
p, sched = sys.argv[1:]
s = open(p).read()
a = "    compute c[i, j] = sum(k in 0..K) a[i, k] * b[k, j];\n"
assert s.count(a) == 1
open(p, "w").write(s.replace(a, a + f"    schedule forced = {sched} for f16, bf16;\n"))
PY
    stdlib_set_changed gemmtiles "$set"
done
stdlib_sets_emit gemmtiles "$sets" "$graphs"/*.hds
