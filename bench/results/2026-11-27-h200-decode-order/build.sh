#!/usr/bin/env bash
# Emits the attention sweep graphs for ../2026-11-27-h200-decode-split/run_split.py into
# .devcarry/decsplit/SET with three stdlibs: `old` as committed at REV (default HEAD: the split
# kernel staging two tiles of keys and values), `new` as it is in the tree (with stages1.patch
# applied: `git apply bench/results/2026-11-27-h200-decode-order/stages1.patch`), and variants
# of it: SETS=... (default: old new m64)
#   m64   at most 64 parts (MAXS) for heads of 64, not 32
#   ilv   (on the committed tree) block r of a head's `split` takes tiles r, r + split, ...
#         instead of a run of neighbouring tiles (at any moment a head's blocks read
#         neighbouring tiles)
#   kv2   (on the committed tree, no patch) a tile's keys copied by one loop, then its values
#         by another, instead of a key chunk and a value chunk in turn
#   bash bench/results/2026-11-27-h200-decode-order/build.sh [REV]
# (The steps are bench/stdlib_sets.sh's; as it ran, they were written out here: the same files.)
set -euo pipefail
root=$(git rev-parse --show-toplevel)
source "$root/bench/stdlib_sets.sh"
sets=${SETS:-old new m64}
stdlib_sets_init decsplit "${1:-HEAD}"
for set in $sets; do
    [[ $set == old ]] && continue
    d=$(stdlib_set decsplit "$set")
    case $set in
    new) ;;
    kv2) python3 - "$d/attention_decode_split.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
a = '''                cp_async_16(sk[st, r, c * 8], k[b, kvh, min(k0 + r, M - 1), c * 8], ok ? 16 : 0);
                cp_async_16(sv[st, r, c * 8], v[b, kvh, min(k0 + r, M - 1), c * 8], ok ? 16 : 0);
            }
'''
b = '''                cp_async_16(sk[st, r, c * 8], k[b, kvh, min(k0 + r, M - 1), c * 8], ok ? 16 : 0);
            }
            @unroll for (r, c) in repeat(SPLIT_BK * HD / 1024, 1) * spatial(1024 / HD, HD / 8) on threadIdx.x {
                cp_async_16(sv[st, r, c * 8], v[b, kvh, min(k0 + r, M - 1), c * 8], k0 + r < M ? 16 : 0);
            }
'''
assert s.count(a) == 1
open(p, 'w').write(s.replace(a, b))
PY
        ;;
    ilv) python3 - "$d/attention_decode_split.hds" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
for a, b in [
        ('''    let per = (tiles + split - 1) / split;
    let first = min(tiles, rank * per);
    let last = min(tiles, first + per);
''', '''    let count = (tiles - rank + split - 1) / split;  // tiles rank, rank + split, ...
'''),
        ('for it in 0..last - first + STAGES - 1 {', 'for it in 0..count + STAGES - 1 {'),
        ('if (first + it < last) {', 'if (it < count) {'),
        ('let k0 = (first + it) * SPLIT_BK;', 'let k0 = (rank + it * split) * SPLIT_BK;'),
        ('let j = first + it - STAGES + 1;', 'let j = rank + (it - STAGES + 1) * split;')]:
    assert s.count(a) == 1, a
    s = s.replace(a, b)
open(p, 'w').write(s)
PY
        ;;
    m64) sed -i 's/attention_decode_split<HD = 64, STAGES = 1>/attention_decode_split<HD = 64, STAGES = 1, MAXS = 64>/' "$d/nn.hds" ;;
    *) echo "unknown set $set" >&2; exit 1 ;;
    esac
    stdlib_set_changed decsplit "$set"
done
stdlib_sets_emit decsplit "$sets" "$root"/bench/sweep/sweep_attention_{gqa_d64,gqa_d128,d64_sm80,d128_sm80}.hds
