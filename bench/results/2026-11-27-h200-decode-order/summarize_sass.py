"""sass/summary.txt from run_sass.sh's CSV files (copied into sass/ here; not kept: 856 KB):
    python3 summarize_sass.py > sass/summary.txt"""
import csv
from collections import Counter

print("Nsight Compute, source page (SASS), one call each, heads of 64, 32k keys, 64 x 8 heads, B = 1.")
print("Stall samples are charged to the instruction a warp waits to issue.\n")
for k in ('decode_split_k0', 'fprop'):
    rows = list(csv.reader(open(f'sass/{k}_sass.csv')))
    name, hdr, data = rows[0][1], rows[1], rows[2:]
    ia, ie = hdr.index('Warp Stall Sampling (All Samples)'), hdr.index('Instructions Executed')
    tot, inst = sum(int(r[ia] or 0) for r in data), sum(int(r[ie] or 0) for r in data)
    print(f"== {name}\nsamples {tot}, warp instructions executed {inst}")
    c, ci = Counter(), Counter()
    for r in data:
        w = r[1].split()
        op = (w[1] if w[0].startswith('@') else w[0]).split('.')[0]
        c[op] += int(r[ia] or 0)
        ci[op] += int(r[ie] or 0)
    print("stall samples by opcode:", ", ".join(f"{o} {n}" for o, n in c.most_common(12)))
    print("instructions by opcode:", ", ".join(f"{o} {n}" for o, n in ci.most_common(14)))
    print("the 12 instructions with the most samples (samples, executed, instruction; with the two before):")
    for i in sorted(range(len(data)), key=lambda i: -int(data[i][ia] or 0))[:12]:
        prev = " | ".join(data[j][1].strip() for j in range(max(0, i - 2), i))
        print(f"  {data[i][ia]:>5} {data[i][ie]:>8}  {data[i][1].strip()}    [after: {prev}]")
    print()
