"""A table of the ncu CSV that run.sh writes (or its .csv.gz, as kept here): per kernel, its time, grid, occupancy, and the
throughputs and warp stalls that say what bounds it."""
import csv
import gzip
import sys
from collections import defaultdict

WANT = ["Duration", "Grid Size", "Registers Per Thread", "Achieved Occupancy", "Theoretical Occupancy",
        "Compute (SM) Throughput", "Memory Throughput", "DRAM Throughput", "L1/TEX Hit Rate", "L2 Hit Rate",
        "Stall Long Scoreboard", "Stall Barrier", "Stall Short Scoreboard", "Stall MIO Throttle",
        "Stall LG Throttle", "Stall Math Pipe Throttle", "Stall Wait", "Stall Not Selected", "Selected",
        "Warp Cycles Per Issued Instruction"]

rows = defaultdict(dict)
with (gzip.open(sys.argv[1], "rt") if sys.argv[1].endswith(".gz") else open(sys.argv[1])) as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    k = (r["ID"], r["Kernel Name"].split("(")[0].replace("fused_0_0_", ""))
    rows[k][r["Metric Name"]] = f'{r["Metric Value"]} {r["Metric Unit"]}'.strip()
names = sorted({m for v in rows.values() for m in v})
cols = [w for w in WANT if w in names] + [m for m in names if m.startswith(("smsp__average_warps", "sm__pipe"))]
short = [c.replace("smsp__average_warps_issue_stalled_", "stall ").replace("_per_issue_active.ratio", "") for c in cols]
print("| kernel | " + " | ".join(short) + " |")
print("|---" * (len(cols) + 1) + "|")
for (i, k), v in sorted(rows.items(), key=lambda kv: int(kv[0][0])):
    print(f"| {k} | " + " | ".join(v.get(c, "") for c in cols) + " |")
print()
print("metrics seen:", ", ".join(names))
