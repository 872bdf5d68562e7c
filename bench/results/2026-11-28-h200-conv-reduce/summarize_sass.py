"""sass-summary.txt from the SASS files of the runs (not kept: 0.5 MB each):

    python3 summarize_sass.py DIR1 DIR3 > sass-summary.txt

DIR1: run_sass.sh's sass_{c512,stem}.csv (Nsight Compute's source page; the last kernel of each
file, the tree's stdlib); DIR3: run.sh's sass-c512-{old,new,h16}.txt (cuobjdump -sass)."""
import csv
import re
import sys
from collections import Counter
from pathlib import Path

d1, d3 = (Path(a) for a in sys.argv[1:3])
print("Instruction-level warp stall samples (Nsight Compute, SASS), batch 1, the last kernel of each")
print("report. Samples are charged to the instruction a warp waits to issue.\n")
for k in ("c512", "stem"):
    rows = list(csv.reader(open(d1 / f"sass_{k}.csv")))
    start = [i for i, r in enumerate(rows) if r and r[0] == "Kernel Name"][-1]
    name, hdr = rows[start][1], rows[start + 1]
    data = [r for r in rows[start + 2:] if len(r) > 5]
    ia, ie = hdr.index("Warp Stall Sampling (All Samples)"), hdr.index("Instructions Executed")
    reasons = [h for h in hdr if h.startswith("stall_") and "Not" not in h]
    total = sum(int(r[ia] or 0) for r in data)
    print(f"== {k}: {name}\nsamples {total}")
    why = Counter({h: sum(int(r[hdr.index(h)] or 0) for r in data) for h in reasons})
    print("by reason:", ", ".join(f"{h[6:]} {n}" for h, n in why.most_common(6)))
    ops = Counter()
    for r in data:
        w = r[1].split()
        ops[(w[1] if w[0].startswith("@") else w[0]).split(".")[0]] += int(r[ia] or 0)
    print("by opcode:", ", ".join(f"{o} {n}" for o, n in ops.most_common(10)))
    print("the 8 instructions with the most samples (index, samples, executed, instruction, top reason):")
    for i in sorted(range(len(data)), key=lambda i: -int(data[i][ia] or 0))[:8]:
        top = max(reasons, key=lambda h: int(data[i][hdr.index(h)] or 0))
        print(f"  {i:5d} {data[i][ia]:>5} {data[i][ie]:>7}  {data[i][1].strip()[:60]:60s} {top[6:]}")
    print()
print("7 x 7 x 512 (cuobjdump -sass): where the main loop packs the halo's two-byte loads")
print("(PRMT ..0x5410..) against the first tensor-core instruction after the loads (instruction numbers)\n")
for st in ("old", "new", "h16"):
    lines = [l for l in open(d3 / f"sass-c512-{st}.txt") if re.search(r"/\*[0-9a-f]{4}\*/", l)]
    ins = [l.split("*/", 1)[1].split(";")[0].strip() for l in lines]
    last_ldg = max(i for i, s in enumerate(ins) if "LDG.E.U16" in s)
    first_mma = next(i for i, s in enumerate(ins) if i > last_ldg and s.startswith("HMMA"))
    packs = [i for i, s in enumerate(ins) if "PRMT" in s and "0x5410" in s and i > last_ldg]
    first_pack = packs[0] if packs else None
    where = "before" if first_pack is not None and first_pack < first_mma else "after"
    print(f"{st:4s}: last halo load {last_ldg}, first pack {first_pack}, first HMMA after the loads {first_mma}: "
          f"packed {where} the tensor cores' work")
