"""Instruction-level warp stall samples of the last kernel in Nsight Compute's source page (CSV):
by reason, by opcode, and the 12 instructions with the most samples.

    python3 stalls.py sass_c64.csv
"""
import csv
import sys
from collections import Counter

rows = list(csv.reader(open(sys.argv[1])))
start = [i for i, r in enumerate(rows) if r and r[0] == "Kernel Name"][-1]
name, hdr = rows[start][1], rows[start + 1]
data = [r for r in rows[start + 2:] if len(r) > 5]
ia, ie = hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed")
reasons = [h for h in hdr if h.startswith("stall_") and "Not" not in h]
total = sum(int(r[ia] or 0) for r in data)
print(f"{name}\nsamples {total}")
why = Counter({h: sum(int(r[hdr.index(h)] or 0) for r in data) for h in reasons})
print("by reason:", ", ".join(f"{h[6:]} {n}" for h, n in why.most_common(8)))
ops = Counter()
for r in data:
    w = r[1].split()
    ops[(w[1] if w[0].startswith("@") else w[0]).split(".")[0]] += int(r[ia] or 0)
print("by opcode:", ", ".join(f"{o} {n}" for o, n in ops.most_common(12)))
print("instructions with the most samples (index, samples, executed, instruction, top reason):")
for i in sorted(range(len(data)), key=lambda i: -int(data[i][ia] or 0))[:12]:
    top = max(reasons, key=lambda h: int(data[i][hdr.index(h)] or 0))
    print(f"  {i:5d} {data[i][ia]:>5} {data[i][ie]:>7}  {data[i][1].strip()[:60]:60s} {top[6:]}")
